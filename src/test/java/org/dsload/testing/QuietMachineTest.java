package org.dsload.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.extension.Extension;

class QuietMachineTest {

    @Test
    void theBusyShareLeavesOutIdleAndIoWait() {
        // user, nice, system, idle, iowait, irq, softirq, steal
        long[] before = {100, 0, 50, 1000, 10, 0, 0, 0};
        long[] after = {160, 0, 70, 1100, 30, 5, 5, 10};
        // busy 60 + 20 + 5 + 5 + 10 = 100 of 100 + 20 + 100 = 220 ticks
        assertEquals(100.0 * 100 / 220, QuietMachine.busyPercent(before, after), 1e-9);
        assertEquals(0, QuietMachine.busyPercent(before, before));
        assertEquals(0, QuietMachine.busyPercent(new long[0], new long[0]));
    }

    @Test
    void theExtensionIsFoundForEveryTest() {
        assertTrue(ServiceLoader.load(Extension.class).stream().anyMatch(p -> p.type() == QuietMachine.class));
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void aCoreKeptBusyIsNotQuietAndTheWaitEndsAtItsLimit() throws InterruptedException {
        AtomicBoolean spin = new AtomicBoolean(true);
        long stopAt = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        Thread spinner = new Thread(() -> {
            long x = 0;
            while (spin.get() && System.nanoTime() < stopAt) {
                x += System.nanoTime() & 1;
            }
            if (x == 42) {
                System.out.print("");
            }
        });
        spinner.start();
        try {
            long start = System.nanoTime();
            double busy = QuietMachine.await(Duration.ofSeconds(2));
            double waited = (System.nanoTime() - start) / 1e9;
            int cores = Runtime.getRuntime().availableProcessors();
            // one spinning thread keeps one core of the machine busy
            assertTrue(busy > QuietMachine.QUIET_PERCENT || cores * QuietMachine.QUIET_PERCENT >= 100,
                    "busy " + busy + " % with one of " + cores + " cores spinning");
            if (cores * QuietMachine.QUIET_PERCENT < 100) {
                assertTrue(waited >= 2 && waited < 5, "the wait ends at its limit: " + waited + " s");
            }
        } finally {
            spin.set(false);
            spinner.join();
        }
    }
}
