package org.dsload.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

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

/**
 * Drives a Redis Command with requests in flight in the calling thread the way a JMeter thread
 * does, and collects every request it reports: from the rows its samples return, and from the
 * rows it hands to the thread's listeners when the thread ends.
 */
final class InFlightRuns {
    final List<RequestsResult> rows = new ArrayList<>();
    final List<RequestsResult> atThreadEnd = new ArrayList<>();

    /** Gives the thread's variables the package JMeter keeps there, with a listener that collects rows. */
    InFlightRuns(JMeterVariables variables) {
        SampleListener collector = new Collector();
        variables.putObject(JMeterThread.PACKAGE_OBJECT, new SamplePackage(List.of(), List.of(collector), List.of(),
                List.of(), List.of(), List.of(), List.of()));
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
            rows.add((RequestsResult) sampler.sample(null));
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

    static Duration millis(long ms) {
        return Duration.ofMillis(ms);
    }
}
