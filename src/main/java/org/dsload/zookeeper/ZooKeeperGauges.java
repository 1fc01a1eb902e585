package org.dsload.zookeeper;

import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.dsload.core.GaugeStream;
import org.dsload.core.StoreLabels;
import org.dsload.gauges.SentCounts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Polls {@code mntr} on every ZooKeeper server a plan uses, once a second, into one file of the
 * run folder ({@value #FILE}), so the server's side (znodes, watches, connections, outstanding
 * requests, data size, latencies) lines up with the client's figures. S4's lesson: outstanding
 * requests above 300 predicted instability long before client errors did.
 *
 * <p>One poller per JVM: connection elements lease the servers they use, and a server polled for
 * two elements is written once. A server that cannot be reached is written with state
 * {@value #UNREACHABLE}, one that answers but serves no requests (a member without a quorum, or
 * still starting) with state {@value #NOT_SERVING}, which shows when and how long a member was
 * out; one that refuses {@code mntr} (not in its {@code 4lw.commands.whitelist}) is logged once
 * and no longer polled. A reply cut short (the server killed while it answered: no closing newline,
 * no state, or fewer keys than its last whole answer) is written as {@value #UNREACHABLE} too, never
 * as a refusal nor as a reading. Each poll is one plain connection, the four-letter word sent and the
 * reply read to its end, with a timeout for the connection and for each read.
 */
public final class ZooKeeperGauges {
    public static final String FILE = "zk-mntr.tsv";
    /** What the samplers had the ensemble do ({@link NamespaceTally}), for the cross-check: {@code name<TAB>count}. */
    public static final String SENT_FILE = "zk-sent.tsv";
    /**
     * The per-namespace counters of mntr ({@code zk_cnt_<ns>_read_per_namespace}, {@code _write_}) as
     * one column of {@code <ns>/read=N <ns>/write=M} pairs.
     */
    public static final String PER_NAMESPACE = "per_namespace";
    private static final String COUNTER_PREFIX = "zk_cnt_";
    private static final String READS_SUFFIX = "_read_per_namespace";
    private static final String WRITES_SUFFIX = "_write_per_namespace";
    /** mntr keys written, in column order after the time stamp and the server. */
    public static final List<String> KEYS = List.of("zk_server_state", "zk_znode_count", "zk_watch_count",
            "zk_ephemerals_count", "zk_num_alive_connections", "zk_outstanding_requests", "zk_approximate_data_size",
            "zk_avg_latency", "zk_max_latency", "zk_min_latency", "zk_packets_received", "zk_packets_sent",
            "zk_open_file_descriptor_count", PER_NAMESPACE);
    public static final String UNREACHABLE = "unreachable";
    public static final String NOT_SERVING = "not-serving";
    /** ZooKeeper's answer to mntr while the server serves no requests. */
    private static final String NOT_SERVING_REPLY = "not currently serving requests";
    /** ZooKeeper's answer to a word left out of its 4lw.commands.whitelist. */
    private static final String NOT_IN_WHITELIST = "is not in the whitelist";
    private static final Logger log = LoggerFactory.getLogger(ZooKeeperGauges.class);
    private static final int TIMEOUT_MILLIS = 900;
    private static final long RETRY_MILLIS = 200;
    /** How long the reading after the load waits for servers that were unreachable at their last poll. */
    private static final long FINAL_READING_MILLIS = 5000;

    private static ZooKeeperGauges running;

    private final Path file;
    private final Path sentFile;
    private final Map<String, Integer> leases = new ConcurrentHashMap<>();
    private final List<Supplier<Map<String, Long>>> counts = new CopyOnWriteArrayList<>();
    private final Map<String, Long> retiredCounts = new TreeMap<>();
    private final Set<String> refused = ConcurrentHashMap.newKeySet();
    /** Servers that could not be reached at their last poll. */
    private final Set<String> down = ConcurrentHashMap.newKeySet();
    /**
     * Each server's last whole answer, as its state and number of keys: a reply in the same state
     * with fewer keys was cut short (a server only adds counters while it keeps its role).
     */
    private final Map<String, Whole> lastWhole = new ConcurrentHashMap<>();

    /** A server's state and the number of keys of its answer in that state. */
    record Whole(String state, int keys) {
        static final Whole NONE = new Whole("", 0);

        /** The whole answer {@link #answer} made these values of. */
        static Whole of(Map<String, String> values) {
            return new Whole(values.get("zk_server_state"), values.size());
        }
    }
    private final ScheduledExecutorService timer;
    private final BufferedWriter out;

    private ZooKeeperGauges(Path file) throws IOException {
        this.file = file;
        this.sentFile = file.resolveSibling(SENT_FILE);
        boolean fresh = !Files.exists(file);
        this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
        if (fresh) {
            out.write(header() + "\n");
            out.flush();
        }
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "dsload-zk-mntr");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleAtFixedRate(this::pollAll, 1, 1, TimeUnit.SECONDS);
    }

    /**
     * Starts polling {@code servers} (host:port) into {@code runDir}, reading each new one before
     * this returns, so that the cross-check counts from before the load; closing the lease reads
     * its servers once more, stops polling them, and the poller ends with its last lease.
     *
     * @param sent what the element's samplers had the ensemble do, by name; summed with other leases'
     */
    public static synchronized AutoCloseable lease(Path runDir, List<String> servers, Supplier<Map<String, Long>> sent)
            throws IOException {
        Path file = runDir.resolve(FILE);
        if (running == null || !running.file.equals(file)) {
            if (running != null) {
                running.shutdown();
            }
            Files.createDirectories(runDir);
            running = new ZooKeeperGauges(file);
        }
        ZooKeeperGauges gauges = running;
        List<String> fresh = servers.stream().filter(s -> !gauges.leases.containsKey(s)).distinct().toList();
        servers.forEach(s -> gauges.leases.merge(s, 1, Integer::sum));
        gauges.counts.add(sent);
        gauges.poll(fresh);
        return () -> release(gauges, servers, sent);
    }

    private static synchronized void release(ZooKeeperGauges gauges, List<String> servers,
            Supplier<Map<String, Long>> sent) {
        if (!gauges.counts.remove(sent)) {
            return; // released before
        }
        // a server that did not answer its last poll is given a moment to be back: the count is read
        // after the load, and one taken before the end would miss what came after it
        List<String> last = servers.stream().distinct().toList();
        gauges.poll(last, last.stream().anyMatch(gauges.down::contains) ? FINAL_READING_MILLIS : 0);
        synchronized (gauges.retiredCounts) {
            sent.get().forEach((k, v) -> gauges.retiredCounts.merge(k, v, Long::sum));
        }
        gauges.writeCounts();
        servers.forEach(s -> gauges.leases.computeIfPresent(s, (k, n) -> n > 1 ? n - 1 : null));
        if (gauges.leases.isEmpty()) {
            gauges.shutdown();
            if (running == gauges) {
                running = null;
            }
        }
    }

    private void shutdown() {
        timer.shutdown();
        try {
            timer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (out) {
            try {
                out.close();
            } catch (IOException e) {
                log.warn("dsload: closing {}: {}", file, e.toString());
            }
        }
    }

    private void pollAll() {
        poll(List.copyOf(leases.keySet()));
        writeCounts();
    }

    private void poll(List<String> servers) {
        poll(servers, 0);
    }

    /** Polls each server once; one that cannot be reached is asked again until {@code patienceMillis} is over. */
    private void poll(List<String> servers, long patienceMillis) {
        long now = System.currentTimeMillis();
        long deadline = System.nanoTime() + patienceMillis * 1_000_000;
        StringBuilder lines = new StringBuilder();
        for (String server : servers) {
            if (refused.contains(server)) {
                continue;
            }
            Map<String, String> values = read(server);
            while (values != null && UNREACHABLE.equals(values.get("zk_server_state")) && System.nanoTime() < deadline
                    && !Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(RETRY_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                now = System.currentTimeMillis();
                values = read(server);
            }
            if (values == null) {
                continue; // refuses mntr
            }
            if (UNREACHABLE.equals(values.get("zk_server_state"))) {
                down.add(server);
            } else {
                down.remove(server);
            }
            lines.append(now).append('\t').append(server);
            for (String key : KEYS) {
                lines.append('\t').append(values.getOrDefault(key, ""));
            }
            lines.append('\n');
        }
        synchronized (out) {
            try {
                out.write(lines.toString());
                out.flush();
            } catch (IOException e) {
                // closed at the end of the test, or the disk is full: the gauges are a side figure
                log.debug("dsload: writing {}: {}", file, e.toString());
            }
        }
        if (GaugeStream.on()) {
            GaugeStream.send(FILE, header(), lines); // a server's address and mntr's numbers: nothing to leave out
        }
    }

    private static String header() {
        return "epoch_ms\tserver\t" + String.join("\t", KEYS);
    }

    /** The server's mntr values, its state {@value #UNREACHABLE} or {@value #NOT_SERVING}, or null when it refuses mntr. */
    private Map<String, String> read(String server) {
        int colon = server.lastIndexOf(':');
        String host = server.substring(0, colon).replace("[", "").replace("]", "");
        int port = Integer.parseInt(server.substring(colon + 1));
        String reply = "";
        Map<String, String> values;
        try {
            reply = ask(host, port, "mntr", TIMEOUT_MILLIS);
            values = answer(reply, lastWhole.getOrDefault(server, Whole.NONE));
        } catch (IOException e) {
            values = Map.of("zk_server_state", UNREACHABLE);
        }
        if (values == null) {
            refused.add(server);
            log.warn("dsload: ZooKeeper {} does not answer mntr (add mntr to its 4lw.commands.whitelist); "
                    + "its gauges are not recorded. Its reply: {}", server, reply.strip());
            return null;
        }
        String state = values.get("zk_server_state");
        if (UNREACHABLE.equals(state) || NOT_SERVING.equals(state)) {
            lastWhole.remove(server); // a server back after this may have fewer counters: a new process
        } else {
            lastWhole.put(server, Whole.of(values));
        }
        return values;
    }

    /**
     * What a reply to mntr says: the values; state {@value #NOT_SERVING} for a member that serves no
     * requests; state {@value #UNREACHABLE} for no reply or one cut short (no closing newline, no
     * state, or fewer keys than {@code before}, the server's last whole answer, in the same state);
     * null for ZooKeeper's refusal of a word not in its whitelist, or any other whole reply that holds
     * no values at all.
     */
    static Map<String, String> answer(String reply, Whole before) {
        if (reply.contains(NOT_SERVING_REPLY)) {
            return Map.of("zk_server_state", NOT_SERVING);
        }
        if (reply.contains(NOT_IN_WHITELIST)) {
            return null;
        }
        if (reply.isBlank() || !reply.endsWith("\n")) {
            return Map.of("zk_server_state", UNREACHABLE);
        }
        Map<String, String> values = parse(reply);
        if (values.isEmpty()) {
            return null;
        }
        values.put(PER_NAMESPACE, perNamespace(values));
        String state = values.get("zk_server_state");
        if (state == null || state.equals(before.state()) && values.size() < before.keys()) {
            return Map.of("zk_server_state", UNREACHABLE);
        }
        return values;
    }

    /**
     * Sends a four-letter word and reads the whole reply, which the server ends by closing the
     * connection; the reply's bytes as they came, so that one cut short shows.
     */
    static String ask(String host, int port, String word, int timeoutMillis) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), timeoutMillis);
            socket.setSoTimeout(timeoutMillis);
            socket.getOutputStream().write(word.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            socket.shutdownOutput();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream reply = new ByteArrayOutputStream();
            in.transferTo(reply);
            return reply.toString(StandardCharsets.UTF_8);
        }
    }

    /** Replaces the counts file, so that a reader never sees half of it. */
    private void writeCounts() {
        Map<String, Long> total;
        synchronized (retiredCounts) {
            total = new TreeMap<>(retiredCounts);
        }
        counts.forEach(c -> c.get().forEach((k, v) -> total.merge(k, v, Long::sum)));
        StringBuilder text = new StringBuilder("name\tcount\n");
        total.forEach((k, v) -> text.append(k).append('\t').append(v).append('\n'));
        text.append(SentCounts.stamp(System.currentTimeMillis(), StoreLabels.of(ZooKeeperClient.class)));
        Path temp = sentFile.resolveSibling(SENT_FILE + ".tmp");
        try {
            Files.writeString(temp, text, StandardCharsets.UTF_8);
            Files.move(temp, sentFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            log.debug("dsload: writing {}: {}", sentFile, e.toString());
        }
    }

    /** The per-namespace counters of a parsed mntr reply as one {@value #PER_NAMESPACE} value. */
    static String perNamespace(Map<String, String> values) {
        StringBuilder pairs = new StringBuilder();
        values.forEach((key, value) -> {
            String kind = key.endsWith(READS_SUFFIX) ? "read" : key.endsWith(WRITES_SUFFIX) ? "write" : null;
            if (kind != null && key.startsWith(COUNTER_PREFIX)) {
                String namespace = key.substring(COUNTER_PREFIX.length(), key.length() - READS_SUFFIX.length()
                        - (kind.equals("write") ? 1 : 0));
                pairs.append(pairs.length() == 0 ? "" : " ").append(namespace).append('/').append(kind).append('=')
                        .append(value);
            }
        });
        return pairs.toString();
    }

    /** mntr's reply: one {@code key<TAB>value} per line. */
    static Map<String, String> parse(String reply) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String line : reply.split("\n")) {
            int tab = line.indexOf('\t');
            if (tab > 0) {
                values.put(line.substring(0, tab).trim(), line.substring(tab + 1).trim());
            }
        }
        return values;
    }
}
