package org.dsload.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleListener;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.threads.JMeterThread;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.threads.SamplePackage;
import org.dsload.core.ArrivalSource;
import org.dsload.core.Completion;
import org.dsload.core.IntendedStart;
import org.dsload.core.RequestsResult;
import org.dsload.testing.JMeterRuntime;

/**
 * A JMeter thread's life in the calling thread, for Redis Commands with requests in flight: the
 * connection element started, samples taken the way JMeter takes them, the thread's end; and
 * every request reported, from the rows samples return and from the rows handed to the thread's
 * listeners when it ends.
 */
final class InFlightRuns implements AutoCloseable {
    final List<RequestsResult> rows = new ArrayList<>();
    final List<RequestsResult> atThreadEnd = new ArrayList<>();
    private final RedisConnection connection;
    private final Set<RedisSampler> used = new LinkedHashSet<>();
    private boolean ended;

    /**
     * Starts the connection element for a thread with fresh variables, holding the package JMeter
     * keeps there with a listener that collects rows.
     */
    InFlightRuns(RedisConnection connection) {
        JMeterVariables variables = JMeterRuntime.freshVariables();
        SampleListener collector = new Collector();
        variables.putObject(JMeterThread.PACKAGE_OBJECT, new SamplePackage(List.of(), List.of(collector), List.of(),
                List.of(), List.of(), List.of(), List.of()));
        this.connection = connection;
        connection.testStarted();
    }

    /** The thread ends: every sampler it used reports what it still had outstanding. */
    void endThread() {
        if (!ended) {
            ended = true;
            used.forEach(RedisSampler::threadFinished);
        }
    }

    /** Ends the thread, then the test. */
    @Override
    public void close() {
        try {
            endThread();
        } finally {
            connection.testEnded();
        }
    }

    /** One sample, as JMeter takes it. */
    RequestsResult sample(RedisSampler sampler) {
        used.add(sampler);
        RequestsResult r = (RequestsResult) sampler.sample(null);
        rows.add(r);
        return r;
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

    /** n arrivals with no intended start: the sampler sends n requests, then has nothing left. */
    static ArrivalSource arrivals(int n) {
        return new ArrivalSource() {
            private int left = n;

            @Override
            public Arrival take(long nowNanos) {
                return left-- > 0 ? new Arrival(Completion.UNSCHEDULED, 0) : null;
            }
        };
    }

    /** Samples with this source offered before each sample, until the sampler returns no row. */
    void drain(RedisSampler sampler, ArrivalSource source) {
        used.add(sampler);
        while (true) {
            IntendedStart.offer(sampler, source);
            SampleResult r = sampler.sample(null);
            if (r == null) {
                return;
            }
            rows.add((RequestsResult) r);
        }
    }

    /** Samples with no schedule (N outstanding at all times) for a while. */
    void loop(RedisSampler sampler, Duration time) {
        long end = System.nanoTime() + time.toNanos();
        while (System.nanoTime() - end < 0) {
            sample(sampler);
        }
    }

    /** Every request reported so far, from samples and from the thread's end. */
    List<Completion> requests() {
        List<Completion> all = new ArrayList<>();
        rows.forEach(r -> all.addAll(r.requests()));
        atThreadEnd.forEach(r -> all.addAll(r.requests()));
        return all;
    }

    long count(String code) {
        return requests().stream().filter(c -> c.outcome().code().equals(code)).count();
    }

}
