package org.dsload.gauges;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;

import org.dsload.core.format.GaugeTable;
import org.dsload.report.Durations;

/**
 * What one server's gauge lines say over a run: how often it answered, was unreachable or
 * refused, the range of each gauge, the per-second rates of its counters, and the counters'
 * increase from its first to its last answer (across engines when several read it).
 */
public final class NodeGauges {
    private final String node;
    private final List<GaugeTable.Row> answers = new ArrayList<>();
    private long unreachable;
    private String refused;
    /** When the server stopped answering for good: the first poll it missed after its last answer; -1 while it answers. */
    private long downSince = -1;
    /** The lost slave whose recorder read the server last, when no engine read it after that; or null. */
    private String lastReader;
    private long lastReadAt;
    /** Why the engines' counts to compare with this server's are incomplete, or null. */
    private String countsMissing;
    /** Answers that came after polls the server missed (it was down, frozen or cut off in between). */
    private final Set<GaugeTable.Row> afterOutage = new HashSet<>();

    private NodeGauges(String node) {
        this.node = node;
    }

    /** Groups rows (in time order) by server, in the order servers first appear. */
    public static Map<String, NodeGauges> of(List<GaugeTable.Row> rows) {
        return of(rows, Map.of());
    }

    /**
     * As {@link #of(List)}, knowing which engines were slaves lost during the run: a server whose
     * last reading came from one of them was not read after the load, so its count ends early.
     *
     * @param lostEngines engine number (of {@link GaugeTable.Row#engine}) to the lost slave's address
     */
    public static Map<String, NodeGauges> of(List<GaugeTable.Row> rows, Map<Integer, String> lostEngines) {
        Map<String, NodeGauges> nodes = new LinkedHashMap<>();
        for (GaugeTable.Row row : rows) {
            NodeGauges n = nodes.computeIfAbsent(row.node(), NodeGauges::new);
            n.lastReader = lostEngines.get(row.engine());
            n.lastReadAt = row.epochMillis();
            switch (row.state()) {
                case GaugeFile.OK -> {
                    n.answers.add(row);
                    if (n.downSince >= 0) {
                        n.afterOutage.add(row);
                    }
                    n.downSince = -1;
                }
                case GaugeFile.REFUSED -> n.refused = row.note().isEmpty() ? "refused" : row.note();
                default -> {
                    n.unreachable++;
                    if (n.downSince < 0) {
                        n.downSince = row.epochMillis();
                    }
                }
            }
        }
        return nodes;
    }

    public String node() {
        return node;
    }

    /** Lines with the server's gauges. */
    public long answers() {
        return answers.size();
    }

    public long unreachable() {
        return unreachable;
    }

    /**
     * When the server stopped answering and did not answer again, its last poll after the load
     * included (epoch ms), or -1 when it answered last: its last answer then came before the end
     * of the load, and a count taken from it would miss what the server counted after it.
     */
    public long downSince() {
        return answers.isEmpty() ? -1 : downSince;
    }

    /** Whether this answer came after polls the server missed. */
    public boolean afterOutage(GaugeTable.Row answer) {
        return afterOutage.contains(answer);
    }

    /**
     * Why a count of this server cannot be made, or null: it gave no gauges, was down at the end,
     * or was read last by a slave lost during the run; or the counts to compare with it are missing.
     */
    public String notCounted() {
        if (countsMissing != null) {
            return countsMissing;
        }
        if (answers.isEmpty()) {
            return node + " gave no gauges";
        }
        if (downSince() >= 0) {
            return node + " down since " + Durations.timestamp(downSince);
        }
        if (lastReader != null) {
            return node + " read last by lost slave " + lastReader + " at " + Durations.timestamp(lastReadAt);
        }
        return null;
    }

    /** The engines' counts this server's count would be compared with are incomplete, for this reason. */
    void countsMissing(String why) {
        countsMissing = why;
    }

    /** Why the server refused its gauges, or null. */
    public String refused() {
        return refused;
    }

    public List<GaugeTable.Row> rows() {
        return answers;
    }

    /** The last text value of a column, or "" (a role, a version). */
    public String last(String column) {
        for (int i = answers.size() - 1; i >= 0; i--) {
            String v = answers.get(i).text(column);
            if (!v.isEmpty()) {
                return v;
            }
        }
        return "";
    }

    /** The range of a gauge's values. */
    public Range level(String column) {
        Range range = new Range();
        answers.forEach(r -> range.add(r.number(column)));
        return range;
    }

    /**
     * The range of a counter's increase per second between consecutive readings of one engine
     * (readings of two engines a moment apart would make a rate of noise); a decrease (the
     * server restarted) is skipped.
     */
    public Range rate(String column) {
        Range range = new Range();
        Map<Integer, GaugeTable.Row> previous = new LinkedHashMap<>();
        for (GaugeTable.Row row : answers) {
            GaugeTable.Row before = previous.put(row.engine(), row);
            double value = row.number(column);
            if (before == null || Double.isNaN(value)) {
                continue;
            }
            double seconds = (row.epochMillis() - before.epochMillis()) / 1000.0;
            double increase = value - before.number(column);
            if (seconds >= 0.5 && increase >= 0) {
                range.add(increase / seconds);
            }
        }
        return range;
    }

    /**
     * A counter's increase from the first to the last answer; empty when it is missing at either
     * end or went down in between (the server restarted and began counting again).
     */
    public OptionalDouble increase(String column) {
        double first = Double.NaN;
        double last = Double.NaN;
        Map<Integer, Double> previous = new LinkedHashMap<>();
        for (GaugeTable.Row row : answers) {
            double value = row.number(column);
            if (Double.isNaN(value)) {
                continue;
            }
            Double before = previous.put(row.engine(), value);
            if (before != null && value < before) {
                return OptionalDouble.empty();
            }
            if (Double.isNaN(first)) {
                first = value;
            }
            last = value;
        }
        if (Double.isNaN(first) || last < first) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(last - first);
    }
}
