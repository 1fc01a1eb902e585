package org.dsload.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.dsload.process.ProcFs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StolenCpuTest {
    @TempDir
    Path dir;

    private Path stat(String cpuLine) throws IOException {
        Path file = dir.resolve("stat");
        Files.writeString(file, cpuLine + "\ncpu0 1 2 3 4 5 6 7 8 0 0\nintr 12345\n");
        return file;
    }

    @Test
    void theShareIsTheStealOfAllTheTimeBetweenTwoReadings() throws IOException {
        // user nice system idle iowait irq softirq steal guest guest_nice
        Path file = stat("cpu  1000 10 200 5000 30 0 40 20 0 0");
        StolenCpu stolen = new StolenCpu(file);
        // 200 ticks later: 30 of user, 150 of idle, 20 stolen; guest time (in user already) is not counted twice
        stat("cpu  1030 10 200 5150 30 0 40 40 25 0");
        assertEquals(10.0, stolen.sinceLast(), 1e-9);
        stat("cpu  1130 10 200 5250 30 0 40 40 25 0");
        assertEquals(0.0, stolen.sinceLast(), 1e-9);
    }

    @Test
    void aMachineThatDoesNotAccountStealGivesMinusOne() throws IOException {
        StolenCpu none = new StolenCpu(dir.resolve("missing"));
        assertEquals(-1, none.sinceLast());
        Path old = stat("cpu  1000 10 200 5000");
        StolenCpu short_ = new StolenCpu(old);
        stat("cpu  1100 10 200 5100");
        assertEquals(-1, short_.sinceLast());
        assertNull(ProcFs.machineCpuTicks(stat("cpu  1 x 3")));
        assertNull(ProcFs.machineCpuTicks(stat("intr 1 2 3")));
    }

    @Test
    void noTimeBetweenTwoReadingsGivesMinusOneAndThisMachineGivesAShare() throws IOException {
        Path file = stat("cpu  1000 10 200 5000 30 0 40 20 0 0");
        StolenCpu stolen = new StolenCpu(file);
        assertEquals(-1, stolen.sinceLast());
        if (Files.isReadable(ProcFs.MACHINE_STAT)) {
            StolenCpu here = new StolenCpu(ProcFs.MACHINE_STAT);
            long end = System.nanoTime() + 50_000_000;
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
            }
            double share = here.sinceLast();
            assertTrue(share >= 0 && share <= 100, "a share of this machine's CPU: " + share);
        }
    }
}
