package org.dsload.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;

import org.apache.jmeter.samplers.Interruptible;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleListener;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.samplers.Sampler;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestStateListener;
import org.apache.jmeter.testelement.ThreadListener;
import org.apache.jmeter.threads.JMeterThread;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.threads.SamplePackage;
import org.dsload.core.ArrivalSource;
import org.dsload.core.Completion;
import org.dsload.core.IntendedStart;
import org.dsload.core.RequestsResult;

/**
 * A JMeter thread's life in the calling thread, for samplers with requests in flight: the
 * connection element started, samples taken the way JMeter takes them, the thread's end; and every
 * request reported, from the rows samples return and from the rows handed to the thread's
 * listeners when it ends.
 */
public class SamplerThread implements AutoCloseable {
    public final List<RequestsResult> rows = new ArrayList<>();
    public final List<RequestsResult> atThreadEnd = new ArrayList<>();
    private final TestStateListener connection;
    private final Set<ThreadListener> used = new LinkedHashSet<>();
    private boolean ended;
    private volatile long samples;

    /** Starts the connection element for a thread with fresh variables and a listener that collects rows. */
    public SamplerThread(TestStateListener connection) {
        JMeterVariables variables = JMeterRuntime.freshVariables();
        variables.putObject(JMeterThread.PACKAGE_OBJECT, new SamplePackage(List.of(), List.of(new Collector()),
                List.of(), List.of(), List.of(), List.of(), List.of()));
        this.connection = connection;
        connection.testStarted();
    }

    /**
     * The test is stopped, as JMeter's Stop does it: every sampler the thread used is interrupted,
     * then the thread ends (what was outstanding is cancelled, not waited for).
     */
    public void stopTest() {
        used.stream().filter(Interruptible.class::isInstance).map(Interruptible.class::cast)
                .forEach(Interruptible::interrupt);
        endThread();
    }

    /**
     * The thread ends (its duration or loops are over): every sampler it used waits for what it
     * still had outstanding, each request up to its own timeout, and reports it.
     */
    public void endThread() {
        if (!ended) {
            ended = true;
            used.forEach(ThreadListener::threadFinished);
        }
    }

    @Override
    public void close() {
        try {
            endThread();
        } finally {
            connection.testEnded();
        }
    }

    /** One sample, as JMeter takes it; a sampler that keeps requests in flight returns a row of requests. */
    public SampleResult sample(Sampler sampler) {
        if (sampler instanceof ThreadListener listener) {
            used.add(listener);
        }
        SampleResult r = sampler.sample(null);
        if (r instanceof RequestsResult row) {
            rows.add(row);
        }
        samples++;
        return r;
    }

    /** Samples taken so far; another thread may read it to wait for the load to be under way. */
    public long samples() {
        return samples;
    }

    /**
     * Samples with no schedule until the condition holds (checked in this thread between samples);
     * fails when it does not within the limit.
     */
    public void loopUntil(Sampler sampler, BooleanSupplier done, Duration limit) {
        long end = System.nanoTime() + limit.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - end > 0) {
                throw new AssertionError("the condition to end the load did not hold within " + limit.toMillis()
                        + " ms");
            }
            sample(sampler);
        }
    }

    /**
     * From another thread: waits until this one has taken n samples, so that a fault lands on a load
     * under way however late the machine let it start.
     */
    public void awaitSamples(long n, Duration limit) throws InterruptedException {
        if (!org.dsload.process.Deadline.await(() -> samples >= n, limit, Duration.ofMillis(5))) {
            throw new AssertionError("the load took " + samples + " samples in " + limit.toMillis() + " ms, not " + n);
        }
    }

    /** Requests reported so far that were sent after the instant (System.nanoTime). */
    public long sentAfter(long nanos) {
        return requests().stream().filter(c -> c.sendNanos() > nanos).count();
    }

    /** Samples with this source offered before each, until the sampler returns no row. */
    public void drain(Sampler sampler, ArrivalSource source) {
        while (true) {
            IntendedStart.offer(sampler, source);
            if (sample(sampler) == null) {
                return;
            }
        }
    }

    /** Samples with no schedule for a while. */
    public void loop(Sampler sampler, Duration time) {
        long end = System.nanoTime() + time.toNanos();
        while (System.nanoTime() - end < 0) {
            sample(sampler);
        }
    }

    /** n arrivals with no intended start: the sampler sends n requests, then has nothing left. */
    public static ArrivalSource arrivals(int n) {
        return new ArrivalSource() {
            private int left = n;

            @Override
            public Arrival take(long nowNanos) {
                return left-- > 0 ? new Arrival(Completion.UNSCHEDULED, 0) : null;
            }
        };
    }

    /** Every request reported so far, from samples and from the thread's end. */
    public List<Completion> requests() {
        List<Completion> all = new ArrayList<>();
        rows.forEach(r -> all.addAll(r.requests()));
        atThreadEnd.forEach(r -> all.addAll(r.requests()));
        return all;
    }

    public long count(String code) {
        return requests().stream().filter(c -> c.outcome().code().equals(code)).count();
    }

    /** A listener as JMeter has them: a test element. */
    private final class Collector extends AbstractTestElement implements SampleListener {
        private static final long serialVersionUID = 1L;

        @Override
        public void sampleOccurred(SampleEvent e) {
            atThreadEnd.add((RequestsResult) e.getResult());
        }

        @Override
        public void sampleStarted(SampleEvent e) {
        }

        @Override
        public void sampleStopped(SampleEvent e) {
        }
    }
}
