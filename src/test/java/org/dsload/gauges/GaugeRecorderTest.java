package org.dsload.gauges;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.dsload.core.format.GaugeTable;
import org.dsload.process.Deadline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The recorder's bookkeeping, with sources that answer from memory (no store is involved). */
class GaugeRecorderTest {
    private static final GaugeFile SPEC = new GaugeFile("Test", "test-gauges.tsv", "test-sent.tsv", List.of("calls"));

    @TempDir
    Path run;

    /** A server whose counter goes up by ten per reading. */
    private static class Counting implements GaugeSource {
        final String name;
        final AtomicInteger reads = new AtomicInteger();

        Counting(String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public List<Reading> read(long now) {
            return List.of(new Reading(name, now, Map.of("calls", Integer.toString(10 * reads.incrementAndGet()))));
        }
    }

    private List<GaugeTable.Row> rows() throws IOException {
        return GaugeRows.read(run, SPEC);
    }

    @Test
    void aLeaseReadsItsServersWhenTakenAndWhenClosedSoTheLoadIsEnclosed() throws IOException {
        Counting server = new Counting("a:1");
        try (GaugeRecorder.Lease lease = GaugeRecorder.lease(SPEC, run, List.of(server), () -> Map.of("get", 5L))) {
            assertEquals(1, rows().size(), "the first reading is written before the lease is returned");
        }
        List<GaugeTable.Row> rows = rows();
        assertTrue(rows.size() >= 2, rows.toString());
        assertEquals("10", rows.get(0).text("calls"));
        assertEquals(Map.of("get", 5L), GaugeRows.counts(run, SPEC));
    }

    @Test
    void aRefusingServerIsWrittenOnceWithItsReasonAndNotAskedAgain() throws IOException, InterruptedException {
        AtomicInteger asked = new AtomicInteger();
        GaugeSource refusing = new GaugeSource() {
            @Override
            public String name() {
                return "b:2";
            }

            @Override
            public List<Reading> read(long now) throws Refused {
                asked.incrementAndGet();
                throw new Refused("NOPERM no INFO for you");
            }
        };
        // a server beside it shows the recorder's rounds: two after the first reading, without a fixed wait
        Counting witness = new Counting("a:1");
        try (GaugeRecorder.Lease lease = GaugeRecorder.lease(SPEC, run, List.of(refusing, witness), null)) {
            assertTrue(Deadline.await(() -> witness.reads.get() >= 3, Duration.ofSeconds(20), Duration.ofMillis(20)),
                    "the recorder reads its servers each second: " + witness.reads.get() + " readings");
        }
        assertEquals(1, asked.get());
        List<GaugeTable.Row> rows = rows().stream().filter(r -> r.node().equals("b:2")).toList();
        assertEquals(1, rows.size(), rows.toString());
        assertEquals(GaugeFile.REFUSED, rows.get(0).state());
        assertEquals("NOPERM no INFO for you", rows.get(0).note());
        assertTrue(Files.notExists(run.resolve(SPEC.countsName())), "nothing counted, no counts file");
    }

    @Test
    void anUnreachableServerIsTriedForAWhileFirstThenWrittenAsUnreachableEachTime() throws IOException {
        AtomicInteger asked = new AtomicInteger();
        GaugeSource down = new GaugeSource() {
            @Override
            public String name() {
                return "c:3";
            }

            @Override
            public List<Reading> read(long now) throws IOException {
                asked.incrementAndGet();
                throw new IOException("Connection refused");
            }
        };
        try (GaugeRecorder.Lease lease = GaugeRecorder.lease(SPEC, run, List.of(down), null)) {
            assertTrue(asked.get() > 5, "retried before giving up on the first reading: " + asked.get());
        }
        List<GaugeTable.Row> rows = rows();
        assertTrue(rows.size() >= 2, rows.toString());
        assertTrue(rows.stream().allMatch(r -> r.state().equals(GaugeFile.UNREACHABLE)
                && r.note().equals("Connection refused")), rows.toString());
    }

    @Test
    void twoElementsNamingOneServerHaveItReadOnceAndTheirCountsAdded() throws IOException {
        Counting first = new Counting("d:4");
        Counting second = new Counting("d:4");
        GaugeRecorder.Lease one = GaugeRecorder.lease(SPEC, run, List.of(first), () -> Map.of("set", 2L));
        GaugeRecorder.Lease two = GaugeRecorder.lease(SPEC, run, List.of(second), () -> Map.of("set", 3L, "get", 1L));
        assertEquals(0, second.reads.get(), "the server is already read for the first element");
        one.close();
        assertEquals(Map.of("set", 5L, "get", 1L), GaugeRows.counts(run, SPEC), "a closed lease's counts stay");
        two.close();
        assertTrue(second.reads.get() >= 1, "read by the second element once the first is gone");
        assertEquals(Map.of("set", 5L, "get", 1L), GaugeRows.counts(run, SPEC));
    }

    @Test
    void aServerDownAtItsLastPollIsReadAgainAfterTheLoadOnceItIsBack() throws Exception {
        // down for two tries after the load (as a server still restarting), then back
        AtomicInteger reads = new AtomicInteger();
        java.util.concurrent.atomic.AtomicBoolean down = new java.util.concurrent.atomic.AtomicBoolean();
        AtomicInteger triesWhileDown = new AtomicInteger();
        GaugeSource flaky = new GaugeSource() {
            @Override
            public String name() {
                return "c:3";
            }

            @Override
            public List<Reading> read(long now) throws IOException {
                if (down.get() && triesWhileDown.incrementAndGet() <= 3) {
                    throw new IOException("Connection refused");
                }
                return List.of(new Reading("c:3", now, Map.of("calls", Integer.toString(10 * reads.incrementAndGet()))));
            }
        };
        try (GaugeRecorder.Lease lease = GaugeRecorder.lease(SPEC, run, List.of(flaky), null)) {
            down.set(true);
            assertTrue(Deadline.await(() -> {
                try {
                    return rows().stream().anyMatch(r -> !r.ok());
                } catch (IOException e) {
                    return false;
                }
            }, Duration.ofSeconds(20), Duration.ofMillis(20)), "a poll found the server down");
        }
        List<GaugeTable.Row> rows = rows();
        GaugeTable.Row last = rows.get(rows.size() - 1);
        assertTrue(last.ok(), "the reading after the load waited for the server: " + rows);
        NodeGauges node = NodeGauges.of(rows).get("c:3");
        assertEquals(-1, node.downSince(), "counted from the reading after the load");
        assertEquals(null, node.notCounted());
    }

    @Test
    void aServerStillDownAfterTheLoadIsNotCountedFromItsLastAnswer() throws Exception {
        java.util.concurrent.atomic.AtomicBoolean down = new java.util.concurrent.atomic.AtomicBoolean();
        Counting server = new Counting("d:4") {
            @Override
            public List<Reading> read(long now) {
                if (down.get()) {
                    throw new IllegalStateException("Connection refused");
                }
                return super.read(now);
            }
        };
        long killed;
        try (GaugeRecorder.Lease lease = GaugeRecorder.lease(SPEC, run, List.of(server), () -> Map.of("get", 25L))) {
            killed = System.currentTimeMillis();
            down.set(true);
        }
        Map<String, NodeGauges> nodes = NodeGauges.of(rows());
        assertTrue(nodes.get("d:4").downSince() >= killed, "down since the first poll it missed");
        String line = GaugeText.crossCheck(nodes, 25, List.of("calls"), "calls");
        assertTrue(line.startsWith("Cross-check [dsload reported, server counted] 25, - (not counted: d:4 down since "),
                line);
    }
}
