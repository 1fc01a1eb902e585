package org.dsload.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.dsload.core.format.RunFiles;
import org.dsload.process.Deadline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one start instant the runner gives its local slaves once every one of them is ready. */
class StartSignalTest {
    @TempDir
    Path run;

    private Map<String, Path> folders() throws Exception {
        Map<String, Path> folders = new LinkedHashMap<>();
        folders.put("127.0.0.2:1099", Files.createDirectories(run.resolve("slaves/127.0.0.2_1099")));
        folders.put("127.0.0.3:1099", Files.createDirectories(run.resolve("slaves/127.0.0.3_1099")));
        return folders;
    }

    @Test
    void everySlaveGetsTheSameInstantOnlyOnceAllAreReady() throws Exception {
        Map<String, Path> folders = folders();
        try (StartSignal signal = StartSignal.start(run.resolve("jmeter.log"), folders)) {
            Files.writeString(folders.get("127.0.0.2:1099").resolve(RunFiles.START_READY), "1\n");
            // the second slave is not ready: no instant for anyone yet (a condition, read twice a poll apart)
            assertFalse(Deadline.await(() -> signal.instant() >= 0, Duration.ofMillis(300), Duration.ofMillis(20)));
            long before = System.currentTimeMillis();
            Files.writeString(folders.get("127.0.0.3:1099").resolve(RunFiles.START_READY), "1\n");
            assertTrue(Deadline.await(() -> signal.instant() >= 0, Duration.ofSeconds(10), Duration.ofMillis(10)));
            assertTrue(signal.instant() >= before + StartSignal.MARGIN_MILLIS, "an instant after they are ready");
            for (Path folder : folders.values()) {
                assertEquals(signal.instant(), Long.parseLong(Files.readString(folder.resolve(RunFiles.START_AT)).trim()));
            }
        }
    }

    @Test
    void aSlaveTheMasterDidNotStartIsNotWaitedFor() throws Exception {
        Map<String, Path> folders = folders();
        Files.writeString(run.resolve("jmeter.log"), "2026-11-29 17:04:49,342 INFO o.a.j.e.DistributedRunner: Remote "
                + "engines have been started:[127.0.0.3:1099]\n");
        try (StartSignal signal = StartSignal.start(run.resolve("jmeter.log"), folders)) {
            Files.writeString(folders.get("127.0.0.3:1099").resolve(RunFiles.START_READY), "1\n");
            assertTrue(Deadline.await(() -> signal.instant() >= 0, Duration.ofSeconds(10), Duration.ofMillis(10)));
        }
    }
}
