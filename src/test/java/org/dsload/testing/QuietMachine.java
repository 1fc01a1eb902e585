package org.dsload.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Before each test of failsafe's alone stage, waits until the machine is quiet: the tests there judge
 * schedules, start delays and CPU on a machine they expect to have to themselves, and what the tests
 * before them left working (a shared Cassandra node flushing and compacting after a write load, a
 * server's JVM still compiling) would take the cores they judge. Quiet is a second in which at most
 * {@value #QUIET_PERCENT} % of the machine's CPU was busy; after {@link #LIMIT} the test goes on
 * anyway and says so. Registered for every Jupiter test by the platform's extension auto-detection
 * (src/test/resources/junit-platform.properties); anywhere but the alone stage it does nothing.
 */
public final class QuietMachine implements BeforeEachCallback {
    static final int QUIET_PERCENT = 20;
    static final Duration LIMIT = Duration.ofSeconds(60);
    private static final Path STAT = Path.of("/proc/stat");

    @Override
    public void beforeEach(ExtensionContext context) throws InterruptedException {
        if (!"alone".equals(System.getProperty("dsload.test.stage")) || !Files.isReadable(STAT)) {
            return;
        }
        long start = System.nanoTime();
        double busy = await(LIMIT);
        double waited = (System.nanoTime() - start) / 1e9;
        if (busy > QUIET_PERCENT) {
            System.out.printf(Locale.ROOT, "dsload: the machine stayed busy (%.0f %% of its CPU in the last second) for %.0f s "
                    + "before %s; the test goes on%n", busy, waited, context.getDisplayName());
        } else if (waited > 2.5) {
            System.out.printf(Locale.ROOT, "dsload: waited %.1f s for a quiet machine before %s%n", waited,
                    context.getDisplayName());
        }
    }

    /**
     * Waits until the last second was quiet or {@code limit} has passed. The machine's CPU is read
     * every {@value #PERIOD_MILLIS} ms from the first wait on, by a thread of its own, so that a test
     * that follows a quiet second goes on at once: judged by readings taken only once it asks, each of
     * the alone stage's 28 tests waited a second at least.
     *
     * @return the busy share of the last second, in percent
     */
    static double await(Duration limit) throws InterruptedException {
        Readings readings = Readings.started();
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            double busy = readings.lastSecond();
            boolean known = !Double.isNaN(busy);
            if (known && busy <= QUIET_PERCENT) {
                return busy;
            }
            if (System.nanoTime() >= deadline) {
                return known ? busy : 0;
            }
            Thread.sleep(PERIOD_MILLIS);
        }
    }

    static final long PERIOD_MILLIS = 250;

    /** The machine's CPU readings of the last second, {@value #PERIOD_MILLIS} ms apart, kept by a daemon thread. */
    private static final class Readings {
        private static final int PER_SECOND = (int) (1000 / PERIOD_MILLIS);
        private static Readings running;
        private final java.util.ArrayDeque<long[]> last = new java.util.ArrayDeque<>();

        static synchronized Readings started() {
            if (running == null) {
                running = new Readings();
                Thread t = new Thread(running::read, "quiet-machine");
                t.setDaemon(true);
                t.start();
            }
            return running;
        }

        private void read() {
            try {
                while (true) {
                    long[] now = ticks();
                    synchronized (this) {
                        last.addLast(now);
                        while (last.size() > PER_SECOND + 1) {
                            last.removeFirst();
                        }
                    }
                    Thread.sleep(PERIOD_MILLIS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** The busy share over the last second, or NaN until a second has been read. */
        synchronized double lastSecond() {
            return last.size() <= PER_SECOND ? Double.NaN : busyPercent(last.getFirst(), last.getLast());
        }
    }

    /** The share of the ticks between two readings of {@code /proc/stat}'s cpu line spent neither idle nor waiting on I/O. */
    static double busyPercent(long[] before, long[] after) {
        long total = 0;
        long idle = 0;
        for (int i = 0; i < Math.min(before.length, after.length); i++) {
            long d = after[i] - before[i];
            total += d;
            if (i == 3 || i == 4) { // idle, iowait
                idle += d;
            }
        }
        return total <= 0 ? 0 : 100.0 * (total - idle) / total;
    }

    /** The machine's cpu line: user, nice, system, idle, iowait, irq, softirq, steal (guest time is in user already). */
    static long[] ticks() {
        try {
            String line = Files.readAllLines(STAT).get(0);
            String[] f = line.trim().split("\\s+");
            long[] t = new long[Math.min(8, f.length - 1)];
            for (int i = 0; i < t.length; i++) {
                t[i] = Long.parseLong(f[i + 1]);
            }
            return t;
        } catch (IOException | RuntimeException e) {
            return new long[0];
        }
    }
}
