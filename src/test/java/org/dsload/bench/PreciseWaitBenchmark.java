package org.dsload.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

import org.dsload.core.PreciseWait;
import org.dsload.report.ExactHistogram;

/**
 * The wait for an intended start, side by side in one run: {@link PreciseWait} with its learnt
 * margin against a fixed 150 µs margin (park until 150 µs before, then spin), each keeping a
 * schedule of evenly spaced instants on one thread. Prints, per rate, the CPU the waiting thread
 * used as a share of the wall time and how late each wait returned (p50, p99, max).
 *
 * <pre>./mvnw verify -Pbenchmark -Dbench.class=PreciseWaitBenchmark [-Dbench.props="rates=2000,5000 seconds=10 rounds=3"]</pre>
 */
public final class PreciseWaitBenchmark {
    private static final long FIXED_MARGIN_NANOS = 150_000;

    private PreciseWaitBenchmark() {
    }

    private record Result(double cpuShare, long p50, long p99, long max) {
    }

    private interface Waiter {
        void until(long instant);
    }

    public static void main(String[] args) {
        Bench.applyProps();
        String[] rates = System.getProperty("bench.rates", "2000,5000,10000").split(",");
        int seconds = Integer.getInteger("bench.seconds", 10);
        int rounds = Integer.getInteger("bench.rounds", 3);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Waiter learnt = PreciseWait::until;
        Waiter fixed = PreciseWaitBenchmark::fixedMargin;
        System.out.printf(Locale.ROOT, "%-14s %7s %5s %9s %9s %9s %9s%n", "wait", "rate/s", "round", "CPU share",
                "late p50", "late p99", "late max");
        for (String r : rates) {
            int rate = Integer.parseInt(r.trim());
            for (int round = 1; round <= rounds; round++) {
                // alternate which goes first, so neither always meets the machine's same moment
                Waiter first = round % 2 == 1 ? learnt : fixed;
                Waiter second = first == learnt ? fixed : learnt;
                Result a = keep(first, rate, seconds, threads);
                Result b = keep(second, rate, seconds, threads);
                print(first == learnt ? "learnt margin" : "fixed 150 µs", rate, round, a);
                print(second == learnt ? "learnt margin" : "fixed 150 µs", rate, round, b);
                Result l = first == learnt ? a : b;
                Result f = first == learnt ? b : a;
                System.out.printf(Locale.ROOT, "  ratio learnt/fixed: CPU %.2f, late p99 %.2f (margin now %d µs)%n",
                        l.cpuShare / f.cpuShare, (double) Math.max(1, l.p99) / Math.max(1, f.p99),
                        PreciseWait.marginNanos() / 1000);
            }
        }
    }

    private static void print(String name, int rate, int round, Result r) {
        System.out.printf(Locale.ROOT, "%-14s %7d %5d %8.1f%% %7dµs %7dµs %7dµs%n", name, rate, round,
                100 * r.cpuShare, r.p50, r.p99, r.max);
    }

    private static Result keep(Waiter waiter, int rate, int seconds, ThreadMXBean threads) {
        long interval = 1_000_000_000L / rate;
        int count = rate * seconds;
        ExactHistogram late = new ExactHistogram();
        long cpuStart = threads.getCurrentThreadCpuTime();
        long start = System.nanoTime() + 10_000_000L;
        for (int i = 0; i < count; i++) {
            long instant = start + i * interval;
            waiter.until(instant);
            late.record(Math.max(0, (System.nanoTime() - instant) / 1000));
        }
        long wall = System.nanoTime() - start;
        double cpu = (threads.getCurrentThreadCpuTime() - cpuStart) / (double) wall;
        return new Result(cpu, late.percentile(50), late.percentile(99), late.percentile(100));
    }

    /** The wait as it was before the margin was learnt: park until 150 µs before, spin the rest. */
    private static void fixedMargin(long instant) {
        while (true) {
            long left = instant - System.nanoTime();
            if (left <= 0) {
                return;
            }
            if (left > FIXED_MARGIN_NANOS) {
                LockSupport.parkNanos(left - FIXED_MARGIN_NANOS);
            } else {
                Thread.onSpinWait();
            }
        }
    }
}
