package org.dsload.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
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

    /** A slave's engine as the runner reaches it over RMI, in a JVM whose clock is {@code offset} ms off the runner's. */
    private static class SlaveClock implements StartSignal.RemoteGate {
        final long offset;
        volatile long readyAt = -1;
        volatile long given = -1;

        SlaveClock(long offset) {
            this.offset = offset;
        }

        @Override
        public long readyAt() {
            return readyAt;
        }

        @Override
        public long clock() {
            return System.currentTimeMillis() + offset;
        }

        @Override
        public void startAt(long instant) {
            given = instant;
        }
    }

    @Test
    void aClockCallThatPaysARoundTripMoreBeforeTheSlaveReadsItsClockDoesNotSetTheOffset() throws Exception {
        // 40 ms each way, and the first call pings its connection first: 3 one-way trips before the clock is read
        long oneWay = 40;
        SlaveClock slave = new SlaveClock(5_000) {
            private int calls;

            @Override
            public long clock() {
                Deadline.sleep((calls++ == 0 ? 3 : 1) * oneWay);
                long theirs = super.clock();
                Deadline.sleep(oneWay);
                return theirs;
            }
        };
        StartSignal.Offset measured = StartSignal.offset(slave);
        assertTrue(Math.abs(measured.millis() - slave.offset) <= 10, "the slave's offset is 5000 ms: " + measured);
        assertTrue(measured.error() >= oneWay && measured.error() < 2 * oneWay, "half a round trip of one call: " + measured);
    }

    @Test
    void aSlaveWhoseAnswersComeLateForAWhileIsCalledUntilTwoRoundTripsAgree() throws Exception {
        // 10 ms each way; the first five answers come late by different times, as on a busy machine: the best of
        // the first four calls would put the slave 30 ms behind
        long[] late = {60, 90, 70, 120, 80};
        SlaveClock slave = new SlaveClock(-2_000) {
            private int calls;

            @Override
            public long clock() {
                Deadline.sleep(10);
                long theirs = super.clock();
                Deadline.sleep(10 + (calls < late.length ? late[calls] : 0));
                calls++;
                return theirs;
            }
        };
        StartSignal.Offset measured = StartSignal.offset(slave);
        assertTrue(Math.abs(measured.millis() - slave.offset) <= 5, "the slave's offset is -2000 ms: " + measured);
        assertTrue(measured.error() < 20, "half a round trip of one call on time: " + measured);
    }

    @Test
    void slavesWithoutARunFolderAreGivenTheInstantInTheirOwnClocksOnceTheyAndTheLocalOnesAreReady() throws Exception {
        Map<String, Path> folders = folders();
        SlaveClock ahead = new SlaveClock(60_000);
        SlaveClock behind = new SlaveClock(-3_000);
        Map<String, StartSignal.RemoteGate> remotes = new LinkedHashMap<>();
        remotes.put("10.213.1.3:1099", ahead);
        remotes.put("10.213.1.4:1099", behind);
        try (StartSignal signal = StartSignal.start(run.resolve("jmeter.log"), folders, remotes)) {
            for (Path folder : folders.values()) {
                Files.writeString(folder.resolve(RunFiles.START_READY), "1\n");
            }
            ahead.readyAt = ahead.clock();
            // one slave on another machine is not ready: no instant for anyone
            assertFalse(Deadline.await(() -> signal.instant() >= 0, Duration.ofMillis(300), Duration.ofMillis(20)));
            behind.readyAt = behind.clock();
            assertTrue(Deadline.await(() -> signal.instant() >= 0, Duration.ofSeconds(10), Duration.ofMillis(10)));
            for (SlaveClock slave : List.of(ahead, behind)) {
                StartSignal.Offset measured = signal.offsets().get(slave == ahead ? "10.213.1.3:1099" : "10.213.1.4:1099");
                // the runner's instant in the slave's clock, within the measure's error
                assertTrue(Math.abs(measured.millis() - slave.offset) <= measured.error() + 1, measured + " " + slave.offset);
                assertEquals(signal.instant() + measured.millis(), slave.given);
            }
            assertEquals(signal.instant(), Long.parseLong(Files.readString(folders.get("127.0.0.2:1099")
                    .resolve(RunFiles.START_AT)).trim()));
        }
    }

    @Test
    void aSlaveWhoseStoreDoesNotAnswerYetIsAskedAgain() throws Exception {
        SlaveClock later = new SlaveClock(0);
        StartSignal.RemoteGate notServingYet = new StartSignal.RemoteGate() {
            @Override
            public long readyAt() throws Exception {
                if (later.readyAt < 0) {
                    throw new java.rmi.ConnectException("Connection refused");
                }
                return later.readyAt;
            }

            @Override
            public long clock() {
                return later.clock();
            }

            @Override
            public void startAt(long instant) {
                later.startAt(instant);
            }
        };
        try (StartSignal signal = StartSignal.start(run.resolve("jmeter.log"), Map.of(), Map.of("10.213.1.3:1099",
                notServingYet))) {
            assertFalse(Deadline.await(() -> signal.instant() >= 0, Duration.ofMillis(200), Duration.ofMillis(20)));
            later.readyAt = later.clock();
            assertTrue(Deadline.await(() -> later.given >= 0, Duration.ofSeconds(10), Duration.ofMillis(10)));
        }
    }
}
