package org.dsload.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;

/**
 * The CPU a process has used, read from /proc every {@link #PERIOD_MILLIS} ms for as long as it
 * runs, so that the CPU of any window of its life can be had afterwards: the window a run's results
 * file says was measured (the first to the last request of a label), known only when the run has
 * ended. The process is the first descendant of this JVM that {@code match} accepts, looked for
 * until it appears.
 */
final class CpuTrace implements AutoCloseable {
    private static final long PERIOD_MILLIS = 100;
    /** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
    private static final double TICKS_PER_SECOND = 100;

    /**
     * utime + stime in ticks at an instant of the wall clock (epoch ms, the results files' clock), and
     * every {@link #THREADS_EVERY}th reading the same by thread (else null).
     */
    private record Reading(long epochMillis, long ticks, Map<String, Long> threads) {
    }

    private static final int THREADS_EVERY = 10;

    private final List<Reading> readings = new ArrayList<>();
    private final Thread poller;
    private volatile boolean closed;
    private volatile long pid = -1;

    private CpuTrace(String what, LongPredicate match) {
        poller = new Thread(() -> poll(match), "cpu-trace " + what);
        poller.setDaemon(true);
        poller.start();
    }

    /** Traces the first descendant of this JVM whose command line contains {@code mark}. */
    static CpuTrace of(String mark) {
        return new CpuTrace(mark, pid -> ProcessCpu.commandLine(pid).contains(mark));
    }

    private void poll(LongPredicate match) {
        try {
            while (!closed && pid < 0) {
                ProcessHandle.current().descendants().mapToLong(ProcessHandle::pid).filter(match).findFirst()
                        .ifPresent(found -> pid = found);
                TimeUnit.MILLISECONDS.sleep(pid < 0 ? 20 : 0);
            }
            Path stat = Path.of("/proc", Long.toString(pid), "stat");
            for (int n = 0; !closed; n++) {
                long ticks;
                Map<String, Long> threads;
                try {
                    ticks = ProcessCpu.ticks(Files.readString(stat));
                    threads = n % THREADS_EVERY == 0 ? ProcessCpu.threadTicks(pid) : null;
                } catch (IOException ended) {
                    return;
                }
                synchronized (readings) {
                    readings.add(new Reading(System.currentTimeMillis(), ticks, threads));
                }
                TimeUnit.MILLISECONDS.sleep(PERIOD_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The traced process, or -1 if it was not seen. */
    long pid() {
        return pid;
    }

    /**
     * CPU seconds (user and system) the process used between two instants of the wall clock, each
     * interpolated between the readings around it.
     *
     * @throws IllegalStateException if the trace does not cover the window
     */
    double cpuSeconds(long fromEpochMillis, long toEpochMillis) {
        synchronized (readings) {
            if (readings.isEmpty() || readings.get(0).epochMillis() > fromEpochMillis
                    || readings.get(readings.size() - 1).epochMillis() < toEpochMillis - PERIOD_MILLIS * 3) {
                throw new IllegalStateException("the CPU trace of pid " + pid + " does not cover the window "
                        + fromEpochMillis + " to " + toEpochMillis + (readings.isEmpty() ? " (no reading)"
                        : " (readings from " + readings.get(0).epochMillis() + " to "
                        + readings.get(readings.size() - 1).epochMillis() + ")"));
            }
            return (ticksAt(toEpochMillis) - ticksAt(fromEpochMillis)) / TICKS_PER_SECOND;
        }
    }

    /**
     * The threads that took the most CPU between the first by-thread reading in the window and the
     * last one (threads that end with the load are gone from readings after it), with their shares.
     */
    String topThreads(long fromEpochMillis, long toEpochMillis, int count) {
        synchronized (readings) {
            Reading first = null;
            Reading last = null;
            for (Reading r : readings) {
                if (r.threads() != null && r.epochMillis() >= fromEpochMillis && r.epochMillis() <= toEpochMillis) {
                    first = first == null ? r : first;
                    last = r;
                }
            }
            return first == null || first == last ? "" : ProcessCpu.topThreads(first.threads(), last.threads(), count);
        }
    }

    /** CPU seconds over the whole trace, and the seconds it spans: for a process measured over its life. */
    double[] wholeLife() {
        synchronized (readings) {
            if (readings.size() < 2) {
                return new double[] {0, 0};
            }
            Reading first = readings.get(0);
            Reading last = readings.get(readings.size() - 1);
            return new double[] {(last.ticks() - first.ticks()) / TICKS_PER_SECOND,
                (last.epochMillis() - first.epochMillis()) / 1000.0};
        }
    }

    private double ticksAt(long epochMillis) {
        Reading before = readings.get(0);
        for (Reading r : readings) {
            if (r.epochMillis() >= epochMillis) {
                long span = r.epochMillis() - before.epochMillis();
                return span <= 0 ? r.ticks()
                        : before.ticks() + (r.ticks() - before.ticks()) * (double) (epochMillis - before.epochMillis()) / span;
            }
            before = r;
        }
        return before.ticks(); // the process ended within the last period: its last reading
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        poller.interrupt();
        poller.join(1000);
    }
}
