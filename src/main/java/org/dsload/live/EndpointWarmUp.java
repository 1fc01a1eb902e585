package org.dsload.live;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.dsload.core.format.GaugeTable;
import org.dsload.core.format.RunProperties;
import org.dsload.process.Folders;
import org.dsload.report.GeneratorCsv;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;

/**
 * The scrape path run before a test's load, on figures of its own: an endpoint on a loopback port
 * fetched as Prometheus fetches (OpenMetrics, gzip) until the code of a scrape (the HTTP server, the
 * drain of the recorders, the histograms' buckets, the client's writer and the JDK's number
 * formatting under it, and the reads of a run folder's server gauges and generator figures, here from a
 * temporary folder shaped like one) is hot, then a wait while the JIT compiler compiles it. Without it that
 * compilation comes with the first minutes of scrapes, on the cores the load runs on: in a run of
 * Redis GETs that fills the machine, scraped every second, the compiler took some 2 s of CPU in
 * the first 75 s, most of it in the first 30. The test starts 2 to 4 s later instead.
 */
final class EndpointWarmUp {
    /**
     * Fetches of the warm-up, in rounds with a wait for the compiler after each: the lines of its
     * series' buckets then have been written some 300,000 times and each series' buckets computed
     * 1,600 times, past the compiler's thresholds. The compiler raises its thresholds while its queue
     * is long, so code that runs once per series reaches them only in a later round, after a wait.
     */
    static final int FETCHES = 200;
    static final int ROUNDS = 4;
    /** The longest the warm-up may take, fetches and waits for the compiler together. */
    static final Duration LIMIT = Duration.ofSeconds(4);
    /** Series of the sample figures. */
    private static final int SERIES = 8;
    /** Gauges of the sample figures' server, as many as a Redis server's table has. */
    private static final int GAUGES = 16;
    /** The compiler is done when its total time has not grown for this long. */
    private static final long QUIET_MILLIS = 200;

    private EndpointWarmUp() {
    }

    /** What the warm-up did: fetches made, how long it took with the waits for the compiler, and the compiler's time in it. */
    record Done(int fetches, Duration took, Duration compiling) {
    }

    /** Warms the scrape path; a failure (no loopback port free, a fetch refused) ends it early. */
    static Done run(int fetches, int rounds, Duration limit) {
        LiveEndpoint.noDelay();
        long start = System.nanoTime();
        long until = start + limit.toNanos();
        CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
        boolean timed = compiler != null && compiler.isCompilationTimeMonitoringSupported();
        long compiledBefore = timed ? compiler.getTotalCompilationTime() : 0;
        int done = 0;
        Folder folder = Folder.create();
        try (HTTPServer server = HTTPServer.builder().hostname("127.0.0.1").port(0)
                .registry(sample(folder == null ? null : folder.dir).registry()).buildAndStart();
                MetricsFetch fetch = new MetricsFetch(server.getPort(), 2000)) {
            for (int round = 1; round <= rounds && System.nanoTime() < until; round++) {
                while (done < (long) fetches * round / rounds && System.nanoTime() < until) {
                    if (folder != null) {
                        folder.tick();
                    }
                    fetch.fetch();
                    done++;
                }
                if (timed) {
                    settle(compiler, until);
                }
            }
        } catch (IOException | RuntimeException e) {
            // a warm-up cut short: the scrapes of the run compile what it did not
        } finally {
            if (folder != null) {
                folder.delete();
            }
        }
        long compiled = timed ? compiler.getTotalCompilationTime() - compiledBefore : 0;
        return new Done(done, Duration.ofNanos(System.nanoTime() - start), Duration.ofMillis(compiled));
    }

    /** Waits until the compiler's total time stops growing, or until {@code until} (nanoTime). */
    private static void settle(CompilationMXBean compiler, long until) {
        long last = compiler.getTotalCompilationTime();
        long quietSince = System.nanoTime();
        while (System.nanoTime() < until && System.nanoTime() - quietSince < TimeUnit.MILLISECONDS.toNanos(QUIET_MILLIS)) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            long now = compiler.getTotalCompilationTime();
            if (now != last) {
                last = now;
                quietSince = System.nanoTime();
            }
        }
    }

    /**
     * Figures like a run's: {@value #SERIES} labels of one engine, each with the latencies of a busy
     * run (every microsecond from 100 to 400 µs, as HdrHistogram keeps them exactly, then 100 values
     * up to 2 s, and a request under a microsecond), a failure, a late and a dropped arrival; the
     * collectors of a run's registry. Code compiled for figures unlike a run's is thrown away at the
     * first real scrape and compiled again.
     */
    static LiveMetrics sample() {
        return sample(null);
    }

    /**
     * The sample figures, with a run folder's server gauges and generator figures read from
     * {@code runDir} at every fetch when it is not null.
     */
    static LiveMetrics sample(Path runDir) {
        LiveMetrics m = new LiveMetrics(new GeneratorFiles(runDir, Duration.ZERO, Duration.ZERO),
                new ServerGaugeFiles(runDir, true, Duration.ZERO));
        for (int l = 0; l < SERIES; l++) {
            String label = "warm-up " + l;
            for (long micros = 100; micros < 400; micros++) {
                m.requests(label, "master", micros, 1 + micros % 7, true, null, false, 0);
            }
            for (int i = 0; i < 100; i++) {
                m.requests(label, "master", Math.round(400 * Math.pow(5000, i / 100.0)), 1, true, null, false, 0);
            }
            m.requests(label, "master", 0, 1, true, null, false, 0);
            m.requests(label, "master", 1000, 1, false, "ERR", true, 1);
        }
        m.engineStarted("master");
        return m;
    }

    /**
     * A temporary run folder as a run's engine fills it: a server's gauge table and the engine's CPU
     * and target-rate figures, each a line longer at every {@link #tick()}.
     */
    static final class Folder {
        final Path dir;
        private final Path gauges;
        private final Path cpu;
        private final Path rate;
        private long line;

        private Folder(Path dir) throws IOException {
            this.dir = dir;
            Path engine = Files.createDirectories(dir.resolve(GeneratorCsv.FOLDER).resolve(RunProperties.MASTER));
            cpu = engine.resolve(GeneratorFiles.CPU);
            rate = engine.resolve(GeneratorFiles.TARGET_RATE);
            gauges = dir.resolve("warmup-info.tsv");
            Files.writeString(gauges, GaugeTable.header(IntStream.range(0, GAUGES).mapToObj(g -> "gauge_" + g).toList())
                    + "\n");
        }

        /** A folder in the temporary directory, or null when none can be made (the warm-up then reads no files). */
        static Folder create() {
            try {
                return new Folder(Files.createTempDirectory("dsload-warm-up"));
            } catch (IOException | RuntimeException e) {
                return null;
            }
        }

        /** One more line in each file, as a run's second brings. */
        void tick() throws IOException {
            line++;
            long now = System.currentTimeMillis();
            StringBuilder row = new StringBuilder().append(now).append("\t127.0.0.1:6379\t").append(GaugeTable.OK);
            for (int g = 0; g < GAUGES; g++) {
                row.append('\t').append(line * (g + 1) % 100_003);
            }
            append(gauges, row.append("\t\n").toString());
            append(cpu, String.format(Locale.ROOT, "%d,%.2f%n", now / 1000, 40 + line % 20 / 3.0));
            append(rate, now / 1000 + ",5000.0\n");
        }

        private static void append(Path file, String text) throws IOException {
            Files.writeString(file, text, StandardCharsets.US_ASCII, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }

        void delete() {
            try {
                Folders.deleteTree(dir);
            } catch (IOException | RuntimeException e) {
                // a temporary folder left behind
            }
        }
    }
}
