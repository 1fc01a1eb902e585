package org.dsload.zookeeper.report;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.dsload.core.format.GaugeTable;
import org.dsload.gauges.CounterPairs;
import org.dsload.gauges.GaugeText;
import org.dsload.gauges.NodeGauges;
import org.dsload.report.Durations;
import org.dsload.zookeeper.ZooKeeperGauges;

/**
 * What the ZooKeeper samplers had the ensemble do against what its servers counted, per
 * namespace (the top znode of a path), from each server's first reading to its last:
 * <ul>
 * <li>reads that found their znode: {@code zk_cnt_<ns>_read_per_namespace}, counted by the server
 * the session is on, so summed over the servers;</li>
 * <li>writes applied: {@code zk_cnt_<ns>_write_per_namespace}, counted by every member as it
 * applies the write, so the largest count of one server (a member that was up the whole run).</li>
 * </ul>
 * A server that was down or out of its quorum when the load ended, or restarted during it, is not
 * counted: what it did after its last reading is unknown (the reads are then not counted; the
 * writes are, from a member that served the whole run).
 * Neither counts pings, session openings and closings, four-letter words, or requests that
 * failed, which the server's request and packet counters all include.
 */
final class NamespaceCrossCheck {
    static final String PER_NAMESPACE = "per_namespace";
    static final String RECEIVED = "zk_packets_received";
    static final String READS = "reads ";
    static final String WRITES = "writes ";
    static final String RETRIED = "retried";
    static final String STATE = "zk_server_state";

    private NamespaceCrossCheck() {
    }

    /** The two lines, or "" when no engine counted what its samplers did (none ran, or an older dsload). */
    static String render(Map<String, NodeGauges> nodes, Map<String, Long> sent) {
        Set<String> namespaces = new TreeSet<>();
        long reads = 0;
        long writes = 0;
        for (Map.Entry<String, Long> e : sent.entrySet()) {
            if (e.getKey().startsWith(READS)) {
                namespaces.add(e.getKey().substring(READS.length()));
                reads += e.getValue();
            } else if (e.getKey().startsWith(WRITES)) {
                namespaces.add(e.getKey().substring(WRITES.length()));
                writes += e.getValue();
            }
        }
        if (namespaces.isEmpty()) {
            return "";
        }
        long countedReads = 0;
        long countedWrites = -1;
        Set<String> problems = new LinkedHashSet<>();
        for (NodeGauges n : nodes.values()) {
            List<GaugeTable.Row> serving = new ArrayList<>();
            n.rows().stream().filter(r -> !Double.isNaN(r.number(RECEIVED))).forEach(serving::add);
            String gone = serving.isEmpty() ? n.node() + " gave no gauges" : gone(n, serving);
            if (gone != null) {
                problems.add(gone);
                continue;
            }
            String restarted = restarted(n, serving);
            if (restarted != null) {
                problems.add(restarted);
                continue;
            }
            Map<String, Long> first = CounterPairs.parse(serving.get(0).text(PER_NAMESPACE));
            Map<String, Long> last = CounterPairs.parse(serving.get(serving.size() - 1).text(PER_NAMESPACE));
            long applied = 0;
            for (String ns : namespaces) {
                countedReads += increase(first, last, ns + "/read");
                applied += increase(first, last, ns + "/write");
            }
            countedWrites = Math.max(countedWrites, applied);
        }
        String where = "in " + String.join(", ", namespaces.stream().map(ns -> "/" + ns).toList());
        String why = String.join(", ", problems);
        StringBuilder out = new StringBuilder();
        out.append(GaugeText.crossCheck(reads, problems.isEmpty() ? countedReads : -1, "reads that found their znode "
                + where + " (zk_cnt_<ns>_read_per_namespace, summed over the servers)", why));
        // every member applies every write: one that served the whole run counts them all
        out.append(GaugeText.crossCheck(writes, countedWrites, "writes applied " + where
                + ": creates, sets, deletes, each one of a transaction (zk_cnt_<ns>_write_per_namespace of the member "
                + "that applied the most)", why));
        long retried = sent.getOrDefault(RETRIED, 0L);
        if (retried > 0) {
            out.append("Note: ").append(retried).append(retried == 1 ? " request was" : " requests were")
                    .append(" answered only after Curator retried it on a lost connection; a try before the answered "
                            + "one may have been applied too, which the servers count and dsload cannot know\n");
        }
        return out.toString();
    }

    /**
     * Why a server's count ends before the load did, or null: it could not be reached at the end,
     * or answered without serving requests (a member without a quorum) from then on.
     */
    private static String gone(NodeGauges n, List<GaugeTable.Row> serving) {
        String down = n.notCounted();
        if (down != null) {
            return down;
        }
        GaugeTable.Row lastServing = serving.get(serving.size() - 1);
        for (GaugeTable.Row row : n.rows()) {
            if (row.epochMillis() > lastServing.epochMillis() && ZooKeeperGauges.NOT_SERVING.equals(row.text(STATE))) {
                return n.node() + " not serving requests since " + Durations.timestamp(row.epochMillis());
            }
        }
        return null;
    }

    /**
     * Why the server's counters began again during the run, or null. The per-namespace counters
     * belong to the server's process: they go down only when it restarted. The request counters
     * belong to its serving state and begin again each time a member re-syncs with the ensemble
     * (after an election), which is no restart; but after polls the server missed, a process
     * that restarted and counted past its old figures would look the same, so that counts as one.
     */
    private static String restarted(NodeGauges n, List<GaugeTable.Row> serving) {
        Map<Integer, GaugeTable.Row> previous = new HashMap<>();
        for (GaugeTable.Row row : serving) {
            GaugeTable.Row before = previous.put(row.engine(), row);
            if (before == null) {
                continue;
            }
            boolean namespacesDown = total(row) < total(before);
            boolean requestsDown = row.number(RECEIVED) < before.number(RECEIVED);
            if (namespacesDown || requestsDown && n.afterOutage(row)) {
                return n.node() + " restarted during the run (its counters began again by "
                        + Durations.timestamp(row.epochMillis()) + ")";
            }
        }
        return null;
    }

    private static long total(GaugeTable.Row row) {
        return CounterPairs.parse(row.text(PER_NAMESPACE)).values().stream().mapToLong(Long::longValue).sum();
    }

    private static long increase(Map<String, Long> first, Map<String, Long> last, String key) {
        return last.getOrDefault(key, 0L) - first.getOrDefault(key, 0L);
    }
}
