package org.dsload.gauges;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.dsload.core.GaugeStream;
import org.dsload.core.StoreLabels;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a store's gauges once a second into one file of the run folder ({@link GaugeFile}), and
 * keeps beside it what the engine's samplers sent to that store.
 *
 * <p>One recorder per file and JVM: connection elements lease the sources they use, a server two
 * elements name is read once, and the recorder ends with its last lease. A lease reads its
 * sources when it is taken and when it is closed, so the first and last lines of every server
 * enclose the load: the cross-check subtracts the two. A source that refuses is written once with
 * the reason and logged once; one that cannot be reached is written each second as unreachable,
 * which shows when a server was down.
 */
public final class GaugeRecorder {
    private static final Logger log = LoggerFactory.getLogger(GaugeRecorder.class);
    private static final Map<Path, GaugeRecorder> RUNNING = new HashMap<>();
    /** How long the first reading of a source may take, in tries, before the load starts without it. */
    static final Duration FIRST_READING = Duration.ofSeconds(5);
    /** How long the reading after the load waits, in tries, for servers that were down at their last poll. */
    static final Duration FINAL_READING = Duration.ofSeconds(5);
    private static final long RETRY_MILLIS = 200;

    private final GaugeFile spec;
    private final Path file;
    private final Path countsFile;
    private final List<Lease> leases = new ArrayList<>();
    private final Set<String> refused = new HashSet<>();
    private final Set<String> toldUnreachable = new HashSet<>();
    private final Map<String, Long> retiredCounts = new TreeMap<>();
    /** The kinds of client of every lease so far, whose samples' labels go into the counts file. */
    private final Set<Class<?>> clients = new HashSet<>();
    private final ScheduledExecutorService timer;
    private final BufferedWriter out;
    private boolean stopped;

    /** What one element records: its sources, the counter of what its samplers sent, and their kind of client. */
    public final class Lease implements AutoCloseable {
        private final List<GaugeSource> sources;
        private final Supplier<Map<String, Long>> counts;
        private final Class<?> client;
        private boolean closed;

        private Lease(List<GaugeSource> sources, Supplier<Map<String, Long>> counts, Class<?> client) {
            this.sources = List.copyOf(sources);
            this.counts = counts;
            this.client = client;
        }

        /** Reads the sources a last time, after the load, and stops the recorder if it was the last lease. */
        @Override
        public void close() {
            release(this);
        }
    }

    private GaugeRecorder(GaugeFile spec, Path runDir) throws IOException {
        this.spec = spec;
        Files.createDirectories(runDir);
        this.file = runDir.resolve(spec.name());
        this.countsFile = runDir.resolve(spec.countsName());
        boolean fresh = !Files.exists(file);
        this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
        if (fresh) {
            out.write(spec.header() + "\n");
            out.flush();
        }
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "dsload-" + spec.store().toLowerCase() + "-gauges");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleAtFixedRate(this::pollAll, 1, 1, TimeUnit.SECONDS);
    }

    /**
     * Starts reading {@code sources} into the run folder now (the first line of each is written
     * before this returns).
     *
     * @param counts what the element's samplers sent so far, by name; summed with other leases'
     */
    public static Lease lease(GaugeFile spec, Path runDir, List<GaugeSource> sources,
            Supplier<Map<String, Long>> counts) throws IOException {
        return lease(spec, runDir, sources, counts, null);
    }

    /** @param client the kind of client the samplers look up, whose labels go beside the counts; or null */
    public static Lease lease(GaugeFile spec, Path runDir, List<GaugeSource> sources,
            Supplier<Map<String, Long>> counts, Class<?> client) throws IOException {
        Supplier<Map<String, Long>> sent = counts == null ? Map::of : counts;
        while (true) {
            GaugeRecorder recorder;
            synchronized (RUNNING) {
                Path file = runDir.resolve(spec.name()).toAbsolutePath().normalize();
                recorder = RUNNING.get(file);
                if (recorder == null) {
                    recorder = new GaugeRecorder(spec, runDir);
                    RUNNING.put(file, recorder);
                }
            }
            Lease lease = recorder.add(sources, sent, client);
            if (lease != null) {
                return lease;
            }
            // that recorder's last lease ended meanwhile: start another
        }
    }

    /** @return the lease, or null when this recorder has stopped */
    private synchronized Lease add(List<GaugeSource> sources, Supplier<Map<String, Long>> counts, Class<?> client) {
        if (stopped) {
            return null;
        }
        Lease lease = new Lease(sources, counts, client);
        if (client != null) {
            clients.add(client);
        }
        Set<String> shadowed = active().keySet();
        leases.add(lease);
        List<GaugeSource> fresh = sources.stream().filter(s -> !shadowed.contains(s.name())).toList();
        poll(fresh, FIRST_READING);
        return lease;
    }

    private void release(Lease lease) {
        boolean last;
        synchronized (this) {
            if (lease.closed) {
                return;
            }
            lease.closed = true;
            Set<String> names = new HashSet<>();
            lease.sources.forEach(s -> names.add(s.name()));
            List<GaugeSource> finals = active().values().stream().filter(s -> names.contains(s.name())).toList();
            // a server that did not answer its last poll is given a moment to be back: the count is
            // read after the load, and one taken before the end would miss what came after it
            boolean down = finals.stream().anyMatch(s -> toldUnreachable.contains(s.name()));
            poll(finals, down ? FINAL_READING : Duration.ZERO);
            lease.counts.get().forEach((k, v) -> retiredCounts.merge(k, v, Long::sum));
            leases.remove(lease);
            last = leases.isEmpty();
            stopped = last;
            writeCounts();
        }
        lease.sources.forEach(GaugeRecorder::closeQuietly);
        if (last) {
            stop();
        }
    }

    private void stop() {
        synchronized (RUNNING) {
            RUNNING.values().remove(this);
        }
        timer.shutdown();
        try {
            timer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            try {
                out.close();
            } catch (IOException e) {
                log.warn("dsload: closing {}: {}", file, e.toString());
            }
        }
    }

    /** The source that reads each server: the first lease's, when two elements name the same server. */
    private Map<String, GaugeSource> active() {
        Map<String, GaugeSource> active = new LinkedHashMap<>();
        for (Lease lease : leases) {
            for (GaugeSource source : lease.sources) {
                active.putIfAbsent(source.name(), source);
            }
        }
        return active;
    }

    private synchronized void pollAll() {
        if (!leases.isEmpty()) {
            poll(active().values(), Duration.ZERO);
            writeCounts();
        }
    }

    /**
     * Reads each source once; one that does not answer is asked again until {@code patience} is
     * over (the first reading, which the cross-check counts from, must not be lost to a cold
     * connection; the last, which it counts to, waits for a server that is back).
     */
    private void poll(Collection<GaugeSource> sources, Duration patience) {
        long now = System.currentTimeMillis();
        long deadline = System.nanoTime() + patience.toNanos(); // one wait for all: several may be down
        StringBuilder lines = new StringBuilder();
        StringBuilder streamed = GaugeStream.on() ? new StringBuilder() : null;
        for (GaugeSource source : sources) {
            if (refused.contains(source.name())) {
                continue;
            }
            try {
                List<GaugeSource.Reading> readings = null;
                while (readings == null) {
                    try {
                        readings = source.read(now);
                    } catch (IOException | RuntimeException e) {
                        if (System.nanoTime() > deadline || Thread.currentThread().isInterrupted()) {
                            throw e;
                        }
                        sleep(RETRY_MILLIS);
                        now = System.currentTimeMillis();
                    }
                }
                for (GaugeSource.Reading reading : readings) {
                    line(lines, streamed, reading.epochMillis(), reading.node(), GaugeFile.OK, reading.values(), "");
                }
                toldUnreachable.remove(source.name());
            } catch (GaugeSource.Refused e) {
                refused.add(source.name());
                line(lines, streamed, now, source.name(), GaugeFile.REFUSED, Map.of(), e.getMessage());
                log.warn("dsload: {} {} refuses its gauges ({}); they are not recorded, the load goes on",
                        spec.store(), source.name(), GaugeFile.cell(e.getMessage()));
            } catch (IOException | RuntimeException e) {
                line(lines, streamed, now, source.name(), GaugeFile.UNREACHABLE, Map.of(), e.getMessage());
                if (toldUnreachable.add(source.name())) {
                    log.info("dsload: {} {} does not answer for its gauges ({}); asked again each second",
                            spec.store(), source.name(), GaugeFile.cell(e.getMessage()));
                }
            }
        }
        try {
            out.write(lines.toString());
            out.flush();
        } catch (IOException e) {
            // closed at the end of the test, or the disk is full: the gauges are a side figure
            log.debug("dsload: writing {}: {}", file, e.toString());
        }
        if (streamed != null) {
            GaugeStream.send(spec.name(), spec.header(), streamed);
        }
    }

    /**
     * A line of the file; and, for the master when this engine streams its gauges, the same line
     * without what only the file needs: no note (a server's own error text) and no user before the
     * server's address.
     */
    private void line(StringBuilder lines, StringBuilder streamed, long epochMillis, String node, String state,
            Map<String, String> values, String note) {
        line(lines, epochMillis, node, state, values, note);
        if (streamed != null) {
            line(streamed, epochMillis, node.substring(node.indexOf('@') + 1), state, values, "");
        }
    }

    private void line(StringBuilder lines, long epochMillis, String node, String state, Map<String, String> values,
            String note) {
        lines.append(epochMillis).append('\t').append(GaugeFile.cell(node)).append('\t').append(state);
        for (String column : spec.columns()) {
            lines.append('\t').append(GaugeFile.cell(values.get(column)));
        }
        lines.append('\t').append(GaugeFile.cell(note)).append('\n');
    }

    /** Replaces the counts file, so that a reader never sees half of it. */
    private void writeCounts() {
        Map<String, Long> total = new TreeMap<>(retiredCounts);
        for (Lease lease : leases) {
            lease.counts.get().forEach((k, v) -> total.merge(k, v, Long::sum));
        }
        if (total.isEmpty()) {
            return; // a store whose samplers are not counted
        }
        StringBuilder text = new StringBuilder("name\tcount\n");
        total.forEach((k, v) -> text.append(GaugeFile.cell(k)).append('\t').append(v).append('\n'));
        Set<String> labels = new TreeSet<>();
        clients.forEach(c -> labels.addAll(StoreLabels.of(c)));
        text.append(SentCounts.stamp(System.currentTimeMillis(), labels));
        Path temp = countsFile.resolveSibling(countsFile.getFileName() + ".tmp");
        try {
            Files.writeString(temp, text, StandardCharsets.UTF_8);
            Files.move(temp, countsFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            log.debug("dsload: writing {}: {}", countsFile, e.toString());
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(GaugeSource source) {
        try {
            source.close();
        } catch (RuntimeException e) {
            log.debug("dsload: closing the gauge source {}: {}", source.name(), e.toString());
        }
    }
}
