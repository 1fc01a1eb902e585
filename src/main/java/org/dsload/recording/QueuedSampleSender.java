package org.dsload.recording;

import java.io.ObjectStreamException;
import java.io.Serial;
import java.io.Serializable;
import java.rmi.RemoteException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.jmeter.samplers.AbstractSampleSender;
import org.apache.jmeter.samplers.RemoteSampleListener;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.dsload.core.EngineProperty;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a slave hands its samples to the master in a dsload run (JMeter's {@code mode} property names
 * this class): the sampler thread strips the sample's response data (a results file never holds it)
 * and queues it; a thread of its own sends what is queued to the master in batches over RMI. So a
 * sampler thread never waits for the master: JMeter's batch senders make the RMI call from the
 * sampler thread that fills the batch, and a call of 10 to 20 ms on a busy machine made an arrival
 * schedule's next arrivals late. At the end of the test every queued sample is sent before the
 * master is told that this slave is done, so that nothing is lost (JMeter's asynchronous senders
 * tell it first).
 *
 * <p>A batch goes as soon as {@value #BATCH_PROPERTY} samples are queued (100) or its first sample
 * has waited {@value #LINGER_PROPERTY} ms (100); it takes whatever is queued by then. The queue
 * holds {@value #QUEUE_PROPERTY} samples (20,000): a sampler thread waits only when it is full,
 * which is when the master cannot take the samples as fast as they come. A batch the master does
 * not take (the link is down) is counted, logged and dropped, so the sampler threads never hang on
 * a lost master. The settings are the master's, as the object the master builds travels to the
 * slave with them.
 */
public final class QueuedSampleSender extends AbstractSampleSender implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(QueuedSampleSender.class);
    /** JMeter properties of the settings, read on the master. */
    public static final String BATCH_PROPERTY = "dsload.sender.batch";
    public static final String LINGER_PROPERTY = "dsload.sender.linger_ms";
    public static final String QUEUE_PROPERTY = "dsload.sender.queue";
    /** How long the end of the test waits for the queue to reach the master before it gives up on the rest. */
    private static final long END_WAIT_MILLIS = 120_000;
    private static final byte[] EMPTY = new byte[0];

    private final RemoteSampleListener listener;
    private final int batch;
    private final long lingerMillis;
    private final int capacity;

    private transient BlockingQueue<SampleEvent> queue;
    private transient Thread worker;
    /** Set by the end of the test: the worker sends what is queued and stops. */
    private transient volatile boolean ending;
    private transient AtomicLong lost;

    /** JMeter's factory builds the sender on the master with the listener the slave calls back. */
    public QueuedSampleSender(RemoteSampleListener listener) {
        this(listener, EngineProperty.wholeNumber(BATCH_PROPERTY, 100), EngineProperty.wholeNumber(LINGER_PROPERTY, 100),
                EngineProperty.wholeNumber(QUEUE_PROPERTY, 20_000));
    }

    QueuedSampleSender(RemoteSampleListener listener, int batch, long lingerMillis, int capacity) {
        this.listener = listener;
        this.batch = Math.max(1, batch);
        this.lingerMillis = Math.max(0, lingerMillis);
        this.capacity = Math.max(this.batch, capacity);
    }

    /** On the slave, as RMI brings the master's sender: the queue and the thread that empties it. */
    @Serial
    private Object readResolve() throws ObjectStreamException {
        start();
        return this;
    }

    /** Starts the queue and its thread (the slave's side; tests call it directly). */
    QueuedSampleSender start() {
        queue = new ArrayBlockingQueue<>(capacity);
        lost = new AtomicLong();
        worker = new Thread(this::sendQueued, "dsload-sample-sender");
        worker.setDaemon(true);
        worker.start();
        log.info("Samples go to the master from a queue of {} in batches of {} or every {} ms", capacity, batch,
                lingerMillis);
        return this;
    }

    @Override
    public void sampleOccurred(SampleEvent event) {
        strip(event.getResult(), 3);
        if (queue.offer(event)) {
            return;
        }
        // a full queue waits for the sending thread; one that has ended takes nothing more. A thread
        // interrupted by a test that stops still hands its sample over: the master is to have every row
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    if (queue.offer(event, 1, TimeUnit.SECONDS)) {
                        return;
                    }
                    if (!worker.isAlive()) {
                        lost.incrementAndGet();
                        return;
                    }
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Drops the response data of a sample and of its sub-samples, keeping its byte count. */
    private static void strip(SampleResult result, int depth) {
        // the sizes JMeter would have counted from the data, kept before it goes
        result.setBodySize(result.getBodySizeAsLong());
        result.setBytes(result.getBytesAsLong());
        result.setResponseData(EMPTY);
        if (depth > 0) {
            for (SampleResult sub : result.getSubResults()) {
                strip(sub, depth - 1);
            }
        }
    }

    private void sendQueued() {
        try {
            while (true) {
                SampleEvent first = queue.poll(50, TimeUnit.MILLISECONDS);
                if (first == null) {
                    if (ending && queue.isEmpty()) {
                        return;
                    }
                    continue;
                }
                List<SampleEvent> events = new ArrayList<>();
                events.add(first);
                long due = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(lingerMillis);
                while (events.size() < batch && !ending) {
                    long left = due - System.nanoTime();
                    SampleEvent next = left > 0 ? queue.poll(left, TimeUnit.NANOSECONDS) : null;
                    if (next == null) {
                        break;
                    }
                    events.add(next);
                }
                queue.drainTo(events);
                send(events);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void send(List<SampleEvent> events) {
        try {
            listener.processBatch(events);
        } catch (RemoteException | RuntimeException e) {
            long before = lost.getAndAdd(events.size());
            if (before == 0) {
                log.error("The master did not take {} samples; samples it cannot take are dropped", events.size(), e);
            }
        }
    }

    @Override
    public void testEnded() {
        flush();
        try {
            listener.testEnded();
        } catch (RemoteException e) {
            log.warn("The master was not told that the test ended", e);
        }
    }

    @Override
    public void testEnded(String host) {
        flush();
        try {
            listener.testEnded(host);
        } catch (RemoteException e) {
            log.warn("The master was not told that the test ended on {}", host, e);
        }
    }

    /** Sends every queued sample before the master hears of the end. */
    private void flush() {
        ending = true;
        try {
            worker.join(END_WAIT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        int left = queue.size();
        if (worker.isAlive() || left > 0) {
            log.error("{} samples were still queued for the master {} s after the test ended; they are dropped", left,
                    END_WAIT_MILLIS / 1000);
            lost.addAndGet(left);
        }
        if (lost.get() > 0) {
            log.error("{} samples of this slave did not reach the master", lost.get());
        }
    }

    /** Samples that did not reach the master (tests). */
    long lost() {
        return lost.get();
    }
}
