package org.dsload.zookeeper.report;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.dsload.gauges.CounterPairs;
import org.dsload.gauges.GaugeRows;
import org.dsload.gauges.GaugeText;
import org.dsload.gauges.NodeGauges;

/**
 * What the ZooKeeper samplers had the ensemble do against what its servers counted, per
 * namespace (the top znode of a path), from each server's first reading to its last:
 * <ul>
 * <li>reads that found their znode: {@code zk_cnt_<ns>_read_per_namespace}, counted by the server
 * the session is on, so summed over the servers;</li>
 * <li>writes applied: {@code zk_cnt_<ns>_write_per_namespace}, counted by every member as it
 * applies the write, so the largest count of one server (a member that was up the whole run).</li>
 * </ul>
 * Neither counts pings, session openings and closings, four-letter words, or requests that
 * failed, which the server's request and packet counters all include.
 */
final class NamespaceCrossCheck {
    static final String PER_NAMESPACE = "per_namespace";
    static final String RECEIVED = "zk_packets_received";
    static final String READS = "reads ";
    static final String WRITES = "writes ";
    static final String RETRIED = "retried";

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
        long countedWrites = 0;
        Set<String> problems = new LinkedHashSet<>();
        for (NodeGauges n : nodes.values()) {
            List<GaugeRows.Row> serving = new ArrayList<>();
            n.rows().stream().filter(r -> !Double.isNaN(r.number(RECEIVED))).forEach(serving::add);
            if (serving.isEmpty()) {
                problems.add(n.node() + " gave no gauges");
                continue;
            }
            if (n.increase(RECEIVED).isEmpty()) {
                problems.add(n.node() + " restarted during the run");
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
        out.append(GaugeText.crossCheck(writes, problems.isEmpty() ? countedWrites : -1, "writes applied " + where
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

    private static long increase(Map<String, Long> first, Map<String, Long> last, String key) {
        return last.getOrDefault(key, 0L) - first.getOrDefault(key, 0L);
    }
}
