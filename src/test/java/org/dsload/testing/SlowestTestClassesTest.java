package org.dsload.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.dsload.process.ProcFs;
import org.junit.jupiter.api.Test;

class SlowestTestClassesTest {

    @Test
    void theTreesCpuCountsAChildThatEndedMeanwhile() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/self/stat")), "Linux's /proc");
        long before = SlowestTestClasses.treeCpuTicks();
        assertTrue(before > 0, "this JVM has used CPU: " + before);
        // a child that counts to 300,000 (about half a second of CPU here, however busy the machine), then ends
        Process child = new ProcessBuilder("sh", "-c", "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done").start();
        assertTrue(child.waitFor(60, TimeUnit.SECONDS));
        long after = SlowestTestClasses.treeCpuTicks();
        assertTrue(after - before >= 20, "the spinning child's CPU counted: " + (after - before) + " ticks");
    }

    @Test
    void aProcessThatIsNotThereHasNoCpu() {
        assertEquals(-1, ProcFs.cpuTicks(Long.MAX_VALUE, true));
    }
}
