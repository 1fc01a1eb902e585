package org.dsload.zookeeper;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What a connection's samplers had the ensemble do, counted the way {@code mntr}'s per-namespace
 * counters count it ({@code zk_cnt_<namespace>_read_per_namespace} and
 * {@code _write_per_namespace}), for the cross-check: reads that found their znode, and writes
 * the ensemble applied (each create, set and delete, of a transaction too); a request that failed
 * counts in neither. The namespace is the top znode of the path the server sees (a chroot of the
 * connect string and the Curator namespace included). Requests Curator had to retry are counted
 * apart as well: a try before the answered one may have been applied too.
 */
final class NamespaceTally {
    static final String READS = "reads ";
    static final String WRITES = "writes ";
    static final String RETRIED = "retried";

    private final String chroot;
    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

    /** @param connectString the connect string, whose {@code /chroot} suffix the client puts before every path */
    NamespaceTally(String connectString) {
        int slash = connectString.indexOf('/');
        String root = slash >= 0 ? connectString.substring(slash) : "";
        this.chroot = root.equals("/") ? "" : root;
    }

    /** A read that found its znode; {@code path} as Curator's namespace makes it ({@link WriteStamps#fullPath}). */
    void read(String path) {
        add(READS, path, 1);
    }

    /** A write the ensemble applied. */
    void written(String path) {
        add(WRITES, path, 1);
    }

    /** A request answered only after Curator retried it. */
    void retried() {
        counts.computeIfAbsent(RETRIED, k -> new LongAdder()).increment();
    }

    private void add(String kind, String path, long n) {
        counts.computeIfAbsent(kind + namespace(chroot + path), k -> new LongAdder()).add(n);
    }

    /** The top znode of a server path: {@code zk-latencies} for {@code /zk-latencies/master/c1/7}. */
    static String namespace(String serverPath) {
        int from = serverPath.startsWith("/") ? 1 : 0;
        int slash = serverPath.indexOf('/', from);
        return slash < 0 ? serverPath.substring(from) : serverPath.substring(from, slash);
    }

    Map<String, Long> snapshot() {
        Map<String, Long> copy = new TreeMap<>();
        counts.forEach((k, v) -> copy.put(k, v.sum()));
        return copy;
    }
}
