package org.dsload.gauges;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.function.Function;

/** The parts every server-gauge section of the summary shares: the table, cross-check lines, refusals. */
public final class GaugeText {

    /** How every cross-check line begins. */
    public static final String CROSS_CHECK = "Cross-check [dsload reported, server counted]";

    /** A column of the table: its heading and what it shows of a server. */
    public record Column(String header, Function<NodeGauges, String> cell) {
    }

    private GaugeText() {
    }

    /** The range of a gauge's values, divided by {@code unit}. */
    public static Column level(String header, String column, double unit) {
        return new Column(header, n -> n.level(column).text(unit));
    }

    public static Column level(String header, String column) {
        return level(header, column, 1);
    }

    /** The range of a counter's increase per second, divided by {@code unit}. */
    public static Column rate(String header, String column, double unit) {
        return new Column(header, n -> n.rate(column).text(unit));
    }

    public static Column rate(String header, String column) {
        return rate(header, column, 1);
    }

    /** How much a counter grew over the run. */
    public static Column increase(String header, String column) {
        return new Column(header, n -> {
            OptionalDouble d = n.increase(column);
            return d.isPresent() ? Range.number(d.getAsDouble()) : "-";
        });
    }

    /** One line per server: its name, how often it answered, then the columns, aligned. */
    public static String table(Collection<NodeGauges> nodes, List<Column> columns) {
        List<String> headers = new ArrayList<>(List.of("server", "polls"));
        columns.forEach(c -> headers.add(c.header()));
        List<List<String>> lines = new ArrayList<>();
        for (NodeGauges n : nodes) {
            List<String> cells = new ArrayList<>(List.of(n.node(), Long.toString(n.answers())));
            for (Column c : columns) {
                cells.add(n.answers() == 0 ? "-" : c.cell().apply(n));
            }
            lines.add(cells);
        }
        int[] width = new int[headers.size()];
        for (int i = 0; i < width.length; i++) {
            width[i] = headers.get(i).length();
            for (List<String> cells : lines) {
                width[i] = Math.max(width[i], cells.get(i).length());
            }
        }
        StringBuilder out = new StringBuilder();
        append(out, headers, width);
        lines.forEach(cells -> append(out, cells, width));
        return out.toString();
    }

    private static void append(StringBuilder out, List<String> cells, int[] width) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            if (i > 0) {
                line.append("  ");
            }
            line.append(cells.get(i)).append(" ".repeat(width[i] - cells.get(i).length()));
        }
        out.append(line.toString().stripTrailing()).append('\n');
    }

    /**
     * {@code Cross-check [dsload reported, server counted] N, M (match | differ by X) what}.
     *
     * @param counted what the server counted, or a negative number when it could not be counted
     * @param whyNot  why not, when {@code counted} is negative
     */
    public static String crossCheck(long reported, long counted, String what, String whyNot) {
        return crossCheck(reported, 0, counted, what, whyNot);
    }

    /**
     * As {@link #crossCheck(long, long, String, String)}, for a count that may also hold some of
     * {@code unanswered} more: what requests that got no answer (timed out) carried, which the
     * server may have applied all the same; a count within that range reads {@code within: ...}.
     */
    public static String crossCheck(long reported, long unanswered, long counted, String what, String whyNot) {
        String verdict;
        if (counted < 0) {
            return CROSS_CHECK + " " + reported + ", - (not counted: " + whyNot + ") "
                    + what + "\n";
        } else if (counted == reported) {
            verdict = "match";
        } else if (counted > reported && counted <= reported + unanswered) {
            verdict = "within: " + (counted - reported) + " of the " + unanswered + " whose requests got no answer";
        } else {
            verdict = "differ by " + Math.abs(counted - reported);
        }
        return CROSS_CHECK + " " + reported + ", " + counted + " (" + verdict + ") "
                + what + "\n";
    }

    /**
     * The cross-check of a count against the increase of server counters, summed over the
     * servers from each one's first reading to its last; not counted when a server gave no gauges,
     * restarted, or was down when the load ended (its last answer came before the end, so what it
     * counted after that answer is unknown).
     */
    public static String crossCheck(Map<String, NodeGauges> nodes, long reported, List<String> counters, String what) {
        return crossCheck(nodes, reported, 0, counters, what);
    }

    /** As {@link #crossCheck(Map, long, List, String)}, with {@code unanswered} that the server may have counted too. */
    public static String crossCheck(Map<String, NodeGauges> nodes, long reported, long unanswered, List<String> counters,
            String what) {
        long counted = 0;
        Set<String> problems = new LinkedHashSet<>();
        for (NodeGauges n : nodes.values()) {
            String notCounted = n.notCounted();
            if (notCounted != null) {
                problems.add(notCounted);
                continue;
            }
            for (String counter : counters) {
                OptionalDouble increase = n.increase(counter);
                if (increase.isEmpty()) {
                    problems.add(n.node() + " restarted during the run");
                } else {
                    counted += (long) increase.getAsDouble();
                }
            }
        }
        return crossCheck(reported, unanswered, problems.isEmpty() ? counted : -1, what, String.join(", ", problems));
    }

    /** Servers that refused their gauges or were unreachable for a while, and where the figures are. */
    public static String notes(Collection<NodeGauges> nodes, GaugeFile spec, String how) {
        StringBuilder out = new StringBuilder();
        for (NodeGauges n : nodes) {
            if (n.refused() != null) {
                out.append("Refused: ").append(n.node()).append(" gave no gauges: ").append(n.refused())
                        .append(" (the load was not affected)\n");
            }
            if (n.unreachable() > 0) {
                out.append("Unreachable: ").append(n.node()).append(" did not answer ").append(n.unreachable())
                        .append(n.unreachable() == 1 ? " poll" : " polls").append('\n');
            }
        }
        out.append('(').append(how).append("; the figures: ").append(spec.name()).append(")\n");
        return out.toString();
    }
}
