package org.dsload.recording;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.rmi.RemoteException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.jmeter.samplers.RemoteSampleListener;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class QueuedSampleSenderTest {

    /** What the master's side of the link was given, in order: batches of labels, and "ended <host>". */
    static class BusyMaster implements RemoteSampleListener, Serializable {
        final List<Object> calls = Collections.synchronizedList(new ArrayList<>());
        /** Each batch waits for it (as an RMI call waits for a busy master) until it is opened. */
        transient CountDownLatch open = new CountDownLatch(0);
        transient boolean refuse;

        @Override
        public void processBatch(List<SampleEvent> samples) throws RemoteException {
            try {
                if (open != null) {
                    open.await();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (refuse) {
                throw new RemoteException("connection refused");
            }
            calls.add(samples.stream().map(e -> e.getResult().getSampleLabel()).toList());
        }

        @Override
        public void testEnded(String host) {
            calls.add("ended " + host);
        }

        @Override
        public void testEnded() {
            calls.add("ended");
        }

        @Override
        public void testStarted() {
        }

        @Override
        public void testStarted(String host) {
        }

        @Override
        public void sampleOccurred(SampleEvent e) {
            throw new AssertionError("one sample at a time: the sender sends batches");
        }

        @Override
        public void sampleStarted(SampleEvent e) {
        }

        @Override
        public void sampleStopped(SampleEvent e) {
        }

        List<String> labels() {
            List<String> labels = new ArrayList<>();
            synchronized (calls) {
                for (Object call : calls) {
                    if (call instanceof List<?> batch) {
                        batch.forEach(l -> labels.add((String) l));
                    }
                }
            }
            return labels;
        }

        long batches() {
            return calls.stream().filter(c -> c instanceof List<?>).count();
        }
    }

    private static SampleEvent sample(String label, String body, boolean ok) {
        SampleResult r = new SampleResult();
        r.setSampleLabel(label);
        r.setResponseData(body, StandardCharsets.UTF_8.name());
        r.setSuccessful(ok);
        SampleResult sub = new SampleResult();
        sub.setSampleLabel(label + " part");
        sub.setResponseData(body + body, StandardCharsets.UTF_8.name());
        r.addRawSubResult(sub);
        return new SampleEvent(r, "group");
    }

    private static List<String> labels(int n) {
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            labels.add("s" + i);
        }
        return labels;
    }

    @Test
    void samplerThreadsQueueWhileTheMasterIsBusyAndEverySampleArrivesBeforeTheEnd() {
        BusyMaster master = new BusyMaster();
        master.open = new CountDownLatch(1);
        QueuedSampleSender sender = new QueuedSampleSender(master, 100, 100, 20_000).start();
        // the master takes nothing until it is opened: the 250 samples are queued, none waits for it
        for (String label : labels(250)) {
            sender.sampleOccurred(sample(label, "x", true));
        }
        assertEquals(List.of(), master.labels(), "nothing has reached the busy master");
        master.open.countDown();
        sender.testEnded("127.0.0.2:1099");
        assertEquals(labels(250), master.labels(), "every sample, in order, before the end");
        assertEquals("ended 127.0.0.2:1099", master.calls.get(master.calls.size() - 1), "the end comes last");
        assertTrue(master.batches() <= 3, "the samples queued behind a busy master go in one batch: "
                + master.batches() + " batches");
        assertEquals(0, sender.lost());
    }

    @Test
    void aFullQueueMakesTheSamplerThreadWaitForTheMasterAndLosesNothing() throws Exception {
        BusyMaster master = new BusyMaster();
        master.open = new CountDownLatch(1);
        QueuedSampleSender sender = new QueuedSampleSender(master, 10, 100, 10).start();
        CountDownLatch sent = new CountDownLatch(1);
        Thread sampler = new Thread(() -> {
            for (String label : labels(100)) {
                sender.sampleOccurred(sample(label, "x", true));
            }
            sent.countDown();
        });
        sampler.start();
        assertTrue(!sent.await(300, TimeUnit.MILLISECONDS), "with 10 places and a busy master, the sampler waits");
        master.open.countDown();
        assertTrue(sent.await(30, TimeUnit.SECONDS));
        sender.testEnded();
        assertEquals(labels(100), master.labels());
        assertEquals("ended", master.calls.get(master.calls.size() - 1));
    }

    @Test
    void aSamplerThreadInterruptedByAStoppingTestStillHandsOverItsSamples() throws Exception {
        BusyMaster master = new BusyMaster();
        master.open = new CountDownLatch(1);
        QueuedSampleSender sender = new QueuedSampleSender(master, 1, 0, 2).start();
        List<Boolean> stillInterrupted = Collections.synchronizedList(new ArrayList<>());
        Thread sampler = new Thread(() -> {
            // stopped at once, as JMeter's stop interrupts its threads; the master busy, so the queue fills
            Thread.currentThread().interrupt();
            for (String label : labels(6)) {
                sender.sampleOccurred(sample(label, "x", true));
            }
            stillInterrupted.add(Thread.currentThread().isInterrupted());
        });
        sampler.start();
        assertTrue(!awaitEnd(sampler, 300), "with 2 places and a busy master, the interrupted sampler waits too");
        master.open.countDown();
        assertTrue(awaitEnd(sampler, 30_000));
        sender.testEnded("h");
        assertEquals(labels(6), master.labels(), "no sample of the interrupted thread is lost");
        assertEquals(List.of(true), stillInterrupted, "and the thread still knows it was interrupted");
        assertEquals(0, sender.lost());
    }

    private static boolean awaitEnd(Thread thread, long millis) throws InterruptedException {
        thread.join(millis);
        return !thread.isAlive();
    }

    @Test
    void responseDataIsDroppedAndTheByteCountsKept() {
        List<SampleEvent> seen = Collections.synchronizedList(new ArrayList<>());
        RemoteSampleListener keeping = new BusyMaster() {
            @Override
            public void processBatch(List<SampleEvent> samples) throws RemoteException {
                seen.addAll(samples);
                super.processBatch(samples);
            }
        };
        QueuedSampleSender sender = new QueuedSampleSender(keeping, 100, 0, 100).start();
        sender.sampleOccurred(sample("ok", "four", true));
        sender.sampleOccurred(sample("failed", "error page", false));
        sender.testEnded("h");
        assertEquals(2, seen.size());
        SampleResult ok = seen.get(0).getResult();
        assertArrayEquals(new byte[0], ok.getResponseData());
        assertEquals(4, ok.getBytesAsLong(), "the bytes of the data that was dropped");
        assertArrayEquals(new byte[0], ok.getSubResults()[0].getResponseData());
        assertEquals(8, ok.getSubResults()[0].getBytesAsLong());
        SampleResult failed = seen.get(1).getResult();
        assertArrayEquals(new byte[0], failed.getResponseData(), "a results file holds no response data either way");
        assertEquals(10, failed.getBytesAsLong());
    }

    @Test
    void aMasterThatRefusesTheSamplesCostsThemButNeverHangsTheSamplersOrTheEnd() {
        BusyMaster master = new BusyMaster();
        master.refuse = true;
        QueuedSampleSender sender = new QueuedSampleSender(master, 5, 10, 5).start();
        for (String label : labels(50)) {
            sender.sampleOccurred(sample(label, "x", true));
        }
        sender.testEnded("h");
        assertEquals(50, sender.lost(), "every sample the master refused is counted");
        assertEquals(List.of("ended h"), master.calls, "and the master is still told of the end");
    }

    /** The master's side as it reaches a slave: a copy, which records where the test can see it. */
    static class TravellingMaster extends BusyMaster {
        static final List<String> RECEIVED = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void processBatch(List<SampleEvent> samples) throws RemoteException {
            samples.forEach(e -> RECEIVED.add(e.getResult().getSampleLabel()));
        }

        @Override
        public void testEnded(String host) {
            RECEIVED.add("ended " + host);
        }
    }

    @Test
    void theMastersSenderTravelsToTheSlaveWithItsSettingsAndStartsThere() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(new QueuedSampleSender(new TravellingMaster(), 2, 50, 10));
        }
        QueuedSampleSender onSlave;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            onSlave = (QueuedSampleSender) in.readObject();
        }
        TravellingMaster.RECEIVED.clear();
        for (String label : labels(7)) {
            onSlave.sampleOccurred(sample(label, "x", true));
        }
        onSlave.testEnded("slave");
        List<String> expected = new ArrayList<>(labels(7));
        expected.add("ended slave");
        assertEquals(expected, TravellingMaster.RECEIVED);
        assertEquals(0, onSlave.lost());
    }
}
