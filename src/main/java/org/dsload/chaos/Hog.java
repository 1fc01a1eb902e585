package org.dsload.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * The CPU and memory hogs of the process driver, run in a JVM of their own so that their load
 * is the host's and not the load generator's:
 * {@code java -cp dsload.jar org.dsload.chaos.Hog cpu <share> <max seconds>} keeps every core
 * busy for that share of each 100 ms; {@code ... Hog memory <bytes> <max seconds>} allocates and
 * touches that many bytes and holds them. A hog ends by itself after its maximum time, and when
 * the process that started it is gone, so that no crash leaves one running for long.
 */
public final class Hog {
    private static final long SLICE_NANOS = 100_000_000L;
    private static final int BLOCK = 16 << 20;
    /** Printed once the load is in place; the driver waits for it. */
    static final String READY = "dsload-hog-ready";

    private Hog() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length != 3) {
            System.err.println("usage: Hog cpu <share 0..1> <max seconds> | Hog memory <bytes> <max seconds>");
            System.exit(2);
        }
        long deadline = System.nanoTime() + Long.parseLong(args[2]) * 1_000_000_000L;
        ProcessHandle parent = ProcessHandle.current().parent().orElse(null);
        List<byte[]> held = new ArrayList<>();
        if (args[0].equals("cpu")) {
            double share = Double.parseDouble(args[1]);
            int cores = Runtime.getRuntime().availableProcessors();
            for (int i = 0; i < cores; i++) {
                Thread t = new Thread(() -> burn(share, deadline), "hog-" + i);
                t.setDaemon(true);
                t.start();
            }
        } else {
            long bytes = Long.parseLong(args[1]);
            for (long left = bytes; left > 0; left -= BLOCK) {
                byte[] block = new byte[(int) Math.min(BLOCK, left)];
                for (int i = 0; i < block.length; i += 4096) {
                    block[i] = 1; // touch every page so that it is resident
                }
                held.add(block);
            }
        }
        System.out.println(READY);
        System.out.flush();
        while (System.nanoTime() < deadline && (parent == null || parent.isAlive())) {
            Thread.sleep(200);
        }
        System.out.println(held.size() >= 0 ? "dsload-hog-done" : "");
        System.exit(0);
    }

    private static void burn(double share, long deadline) {
        long busy = (long) (SLICE_NANOS * share);
        long x = 0;
        while (System.nanoTime() < deadline) {
            long sliceStart = System.nanoTime();
            while (System.nanoTime() - sliceStart < busy) {
                x += x * 31 + 7;
            }
            long rest = SLICE_NANOS - (System.nanoTime() - sliceStart);
            if (rest > 0) {
                LockSupport.parkNanos(rest);
            }
        }
        if (x == 42) {
            System.out.println();
        }
    }
}
