package org.dsload.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.jmeter.samplers.RemoteListenerWrapper;
import org.apache.jmeter.samplers.RemoteSampleListener;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.util.JMeterUtils;
import org.dsload.core.format.GaugeTable;
import org.dsload.core.format.RunProperties;
import org.dsload.gauges.GaugeFile;
import org.dsload.gauges.GaugeRecorder;
import org.dsload.gauges.GaugeSource;
import org.dsload.testing.HeardSamples;
import org.dsload.testing.JMeterRuntime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A slave's gauge lines on their way to the master: each reading of a recorder goes, as one sample of
 * the reserved label, to the listeners that send to the master (JMeter's wrapper of a remote
 * listener, here over JMeter's Standard sender), never to a listener of the slave itself; the lines
 * carry no note and no user name, which the file keeps.
 */
class GaugeStreamTest {
    private static final GaugeFile REDIS = new GaugeFile("Redis", "redis-stream-info.tsv", "redis-stream-sent.tsv",
            List.of("role", "connected_clients"));
    private static final String SLAVE = "127.0.0.1:1099";

    @TempDir
    Path run;

    @AfterEach
    void off() {
        new GaugeStream().ended(true);
        JMeterUtils.getJMeterProperties().remove(RunProperties.METRICS_PORT);
    }

    /** The master's side of a remote listener: what reaches it. */
    private static final class Master implements RemoteSampleListener {
        final List<SampleResult> samples = new CopyOnWriteArrayList<>();

        @Override
        public void testStarted() {
            // nothing to start
        }

        @Override
        public void testStarted(String host) {
            // nothing to start
        }

        @Override
        public void testEnded() {
            // nothing to end
        }

        @Override
        public void testEnded(String host) {
            // nothing to end
        }

        @Override
        public void processBatch(List<SampleEvent> events) {
            events.forEach(this::sampleOccurred);
        }

        @Override
        public void sampleOccurred(SampleEvent e) {
            samples.add(e.getResult());
        }

        @Override
        public void sampleStarted(SampleEvent e) {
            // counted when it ends
        }

        @Override
        public void sampleStopped(SampleEvent e) {
            // counted when it ends
        }
    }

    /** A server that answers, named with a user as a source may name it, and one that refuses, saying why. */
    private static List<GaugeSource> sources() {
        GaugeSource answers = new GaugeSource() {
            @Override
            public String name() {
                return "admin@127.0.0.1:6379";
            }

            @Override
            public List<Reading> read(long now) {
                return List.of(new Reading(name(), now, Map.of("role", "master", "connected_clients", "3")));
            }
        };
        GaugeSource refuses = new GaugeSource() {
            @Override
            public String name() {
                return "127.0.0.1:6380";
            }

            @Override
            public List<Reading> read(long now) throws Refused {
                throw new Refused("NOPERM this user has no permissions to run the 'info' command");
            }
        };
        return List.of(answers, refuses);
    }

    @Test
    void aSlavesReadingsReachTheMastersListenersAsSamplesWithoutNoteOrUser() throws Exception {
        JMeterRuntime.init();
        JMeterUtils.setProperty(RunProperties.METRICS_PORT, "9464");
        JMeterUtils.setProperty("mode", "Standard");
        Master master = new Master();
        RemoteListenerWrapper toMaster = new RemoteListenerWrapper(master);
        toMaster.testStarted(SLAVE);
        // a sampler thread's listeners on a slave: the wrapper of a master's listener and one of the slave's own
        HeardSamples own = new HeardSamples();
        HeardSamples.samplerThreadWith(own, toMaster);
        List<SampleResult> onSlave = own.results();
        new GaugeStream().started(RunProperties.engine(SLAVE), SLAVE);
        assertTrue(GaugeStream.on(), "a slave of a run that serves metrics");
        GaugeStream.keepListeners();

        // the first reading when the lease is taken, the last when it is closed
        try (GaugeRecorder.Lease lease = GaugeRecorder.lease(REDIS, run, sources(), Map::of)) {
            assertEquals(1, master.samples.size(), master.samples.toString());
        }
        toMaster.testEnded(SLAVE);
        assertTrue(onSlave.isEmpty(), "a listener of the slave itself gets none: " + onSlave);
        assertTrue(master.samples.size() >= 2, master.samples.toString());
        SampleResult first = master.samples.get(0);
        assertEquals(GaugeTable.STREAM_PREFIX + REDIS.name(), first.getSampleLabel());
        String[] lines = first.getSamplerData().split("\n");
        assertEquals(REDIS.header(), lines[0]);
        assertEquals(3, lines.length, first.getSamplerData());
        assertTrue(lines[1].matches("\\d+\t127\\.0\\.0\\.1:6379\tok\tmaster\t3\t"), lines[1]);
        assertTrue(lines[2].matches("\\d+\t127\\.0\\.0\\.1:6380\trefused\t\t\t"), lines[2]);
        String file = Files.readString(run.resolve(REDIS.name()), StandardCharsets.UTF_8);
        assertTrue(file.contains("\tadmin@127.0.0.1:6379\tok\t") && file.contains("NOPERM"),
                "the file keeps the source's name and the note: " + file);
        // what a sample costs on the way: Java's serialisation, as RMI sends a batch (class descriptions once)
        ByteArrayOutputStream serialized = new ByteArrayOutputStream();
        int alone;
        try (ObjectOutputStream out = new ObjectOutputStream(serialized)) {
            out.writeObject(first);
            out.flush();
            alone = serialized.size();
            out.writeObject(master.samples.get(1));
        }
        System.out.printf("GaugeStreamTest: one reading of 2 servers of %d gauges: %d bytes of request text; serialised,"
                + " %d bytes alone and %d for a further one in the same batch%n", REDIS.columns().size(),
                first.getSamplerData().length(), alone, serialized.size() - alone);
    }

    @Test
    void theMasterAndTheEngineOfALocalRunSendNothingAndSlavesSendInEitherMode() {
        JMeterRuntime.init();
        JMeterUtils.setProperty(RunProperties.METRICS_PORT, "9464");
        new GaugeStream().started(RunProperties.MASTER, null);
        assertFalse(GaugeStream.on(), "the master reads its own machine's files");
        JMeterUtils.getJMeterProperties().remove(RunProperties.METRICS_PORT);
        new GaugeStream().started(RunProperties.engine(SLAVE), SLAVE);
        assertFalse(GaugeStream.on(), "a slave of a run that serves no metrics");
        JMeterUtils.setProperty(RunProperties.METRICS_PORT, "9464");
        JMeterUtils.setProperty(RunProperties.RECORD, "histograms");
        try {
            new GaugeStream().started(RunProperties.engine(SLAVE), SLAVE);
            assertTrue(GaugeStream.on(), "histograms mode too: dsload's results writer leaves the samples out of the file");
            assertTrue(GaugeStream.slavesSend(), "and the master reads no slave's files");
        } finally {
            JMeterUtils.getJMeterProperties().remove(RunProperties.RECORD);
            new GaugeStream().ended(true);
        }
    }
}
