package org.dsload.report;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import org.dsload.core.format.TimingValue;

/**
 * What the summary reports for one label (or for all labels together): the figures of vegeta's
 * report, computed from every sample. Requests count what the samples stand for: a pipeline of N
 * commands in one sample is N requests and one latency.
 */
public final class LabelStats {
    /** Distinct error message shapes kept ({@link ErrorShapes}); more are counted under one line. */
    static final int MAX_ERROR_MESSAGES = 100;
    static final String OTHER_ERRORS = "(other error messages)";

    private final String label;
    private final long lateMicros;
    /** Latencies in microseconds. */
    private final Latencies latencies = new Latencies();
    /** Latencies from the intended start, in microseconds, of samples under an arrival schedule. */
    private final Latencies corrected = new Latencies();
    /** Samples counted from aggregate rows of an engine whose interval logs are not at hand. */
    private long withoutLatency;
    private final Map<String, Long> statusCodes = new LinkedHashMap<>();
    private final ErrorShapes errors = new ErrorShapes(MAX_ERROR_MESSAGES, OTHER_ERRORS);
    private long samples;
    private long microTimed;
    private long requests;
    private long successes;
    private long bytesIn;
    private long bytesOut;
    private long firstStart = Long.MAX_VALUE;
    private long lastStart = Long.MIN_VALUE;
    private long lastEnd = Long.MIN_VALUE;
    private long scheduled;
    private long late;
    private long dropped;
    private long firstIntended = Long.MAX_VALUE;
    private long lastIntended = Long.MIN_VALUE;
    /** Arrivals (sent and dropped) by the second of their intended start. */
    private final TreeMap<Long, Long> arrivalsPerSecond = new TreeMap<>();
    /** Arrivals a window of the target rate's median should hold at least, below one per second. */
    static final int ARRIVALS_PER_WINDOW = 10;
    private long firstScheduledStart = Long.MAX_VALUE;
    private long lastScheduledStart = Long.MIN_VALUE;

    public LabelStats(String label) {
        this(label, TimingValue.DEFAULT_LATE_MICROS);
    }

    /** @param lateMicros an arrival that starts more than this after its intended start is late */
    public LabelStats(String label, long lateMicros) {
        this.label = label;
        this.lateMicros = lateMicros;
    }

    public void add(JtlSample s) {
        samples++;
        requests += s.sampleCount();
        if (s.success()) {
            successes += s.sampleCount();
        } else {
            String message = TransportErrors.message(s.responseCode(),
                    s.responseMessage().isEmpty() ? s.failureMessage() : s.responseMessage());
            // requests sent: a failed batch of points is one failure, as the server saw it
            errors.add(message, s.wireRequests());
        }
        statusCodes.merge(TransportErrors.code(s.responseCode()), (long) s.sampleCount(), Long::sum);
        latencies.record(s.elapsedMicros());
        dropped += s.droppedBefore();
        if (s.scheduled()) {
            scheduled++;
            corrected.record(s.correctedMicros());
            if (s.intendedDelayMicros() > lateMicros) {
                late++;
            }
            arrivalsPerSecond.merge(Math.floorDiv(s.intendedStartMicros(), 1_000_000), 1 + s.droppedBefore(), Long::sum);
            firstIntended = Math.min(firstIntended, s.intendedStartMicros());
            lastIntended = Math.max(lastIntended, s.intendedStartMicros());
            firstScheduledStart = Math.min(firstScheduledStart, s.start());
            lastScheduledStart = Math.max(lastScheduledStart, s.start());
        }
        if (s.timedInMicros()) {
            microTimed++;
        }
        bytesIn += s.bytes();
        bytesOut += s.sentBytes();
        firstStart = Math.min(firstStart, s.start());
        lastStart = Math.max(lastStart, s.start());
        lastEnd = Math.max(lastEnd, s.end());
    }

    /**
     * Adds an interval that histograms mode recorded: its counts, codes and messages, and its
     * latency histograms (none when only the results file's aggregate row told of it).
     */
    public void add(RecordedInterval interval) {
        RecordedInterval.Counts c = interval.counts();
        samples += c.samples();
        requests += c.requests();
        successes += c.requests() - c.failures();
        for (RecordedInterval.Code code : interval.codes()) {
            statusCodes.merge(TransportErrors.code(code.code()), code.requests(), Long::sum);
            if (!code.success()) {
                // requests sent: a failed batch of points is one failure, as the server saw it
                errors.add(TransportErrors.message(code.code(), code.message()), code.wireRequests());
            }
        }
        if (interval.hasLatencies()) {
            latencies.add(interval.raw());
            microTimed += c.samples();
        } else {
            withoutLatency += c.samples();
        }
        if (interval.corrected() != null) {
            corrected.add(interval.corrected());
        }
        dropped += c.dropped();
        if (c.scheduled() > 0) {
            scheduled += c.scheduled();
            late += c.late();
            c.arrivalsPerSecond().forEach((second, n) -> arrivalsPerSecond.merge(second, n, Long::sum));
            firstIntended = Math.min(firstIntended, c.firstIntendedMicros());
            lastIntended = Math.max(lastIntended, c.lastIntendedMicros());
            firstScheduledStart = Math.min(firstScheduledStart, c.firstScheduled());
            lastScheduledStart = Math.max(lastScheduledStart, c.lastScheduled());
        }
        bytesIn += c.bytesReceived();
        bytesOut += c.bytesSent();
        if (c.samples() > 0) {
            firstStart = Math.min(firstStart, c.firstStart());
            lastStart = Math.max(lastStart, c.lastStart());
            lastEnd = Math.max(lastEnd, c.lastEnd());
        }
    }

    public void merge(LabelStats other) {
        samples += other.samples;
        withoutLatency += other.withoutLatency;
        microTimed += other.microTimed;
        requests += other.requests;
        successes += other.successes;
        bytesIn += other.bytesIn;
        bytesOut += other.bytesOut;
        latencies.merge(other.latencies);
        corrected.merge(other.corrected);
        scheduled += other.scheduled;
        late += other.late;
        dropped += other.dropped;
        other.arrivalsPerSecond.forEach((k, v) -> arrivalsPerSecond.merge(k, v, Long::sum));
        firstIntended = Math.min(firstIntended, other.firstIntended);
        lastIntended = Math.max(lastIntended, other.lastIntended);
        firstScheduledStart = Math.min(firstScheduledStart, other.firstScheduledStart);
        lastScheduledStart = Math.max(lastScheduledStart, other.lastScheduledStart);
        other.statusCodes.forEach((k, v) -> statusCodes.merge(k, v, Long::sum));
        errors.merge(other.errors);
        firstStart = Math.min(firstStart, other.firstStart);
        lastStart = Math.max(lastStart, other.lastStart);
        lastEnd = Math.max(lastEnd, other.lastEnd);
    }

    public String label() {
        return label;
    }

    public long samples() {
        return samples;
    }

    public long requests() {
        return requests;
    }

    public long successes() {
        return successes;
    }

    public double successRatio() {
        return requests == 0 ? 0 : (double) successes / requests;
    }

    /** From the first request's start to the last request's start, in ms. */
    public long attackMillis() {
        return samples == 0 ? 0 : lastStart - firstStart;
    }

    /** From the last request's start to the end of the last response, in ms. */
    public long waitMillis() {
        return samples == 0 ? 0 : lastEnd - lastStart;
    }

    public long totalMillis() {
        return attackMillis() + waitMillis();
    }

    /** Requests per second over the attack; over the whole duration if every request started at once. */
    public double rate() {
        long span = attackMillis() > 0 ? attackMillis() : totalMillis();
        return span == 0 ? 0 : requests * 1000.0 / span;
    }

    /** Successful requests per second over the whole duration. */
    public double throughput() {
        return totalMillis() == 0 ? 0 : successes * 1000.0 / totalMillis();
    }

    /** Latencies in microseconds: exact, or HdrHistogram's precision where interval logs contributed. */
    public Latencies latencies() {
        return latencies;
    }

    /**
     * Samples whose latency is not known: counted from the results file's aggregate rows of an engine
     * whose interval logs are not at hand. Percentiles leave them out.
     */
    public long samplesWithoutLatency() {
        return withoutLatency;
    }

    /** Samples whose latency was timed in microseconds by a dsload sampler. */
    public long microTimedSamples() {
        return microTimed;
    }

    public long bytesIn() {
        return bytesIn;
    }

    public long bytesOut() {
        return bytesOut;
    }

    public double meanBytesIn() {
        return requests == 0 ? 0 : (double) bytesIn / requests;
    }

    public double meanBytesOut() {
        return requests == 0 ? 0 : (double) bytesOut / requests;
    }

    public Map<String, Long> statusCodes() {
        return statusCodes;
    }

    /** Failed requests by error message, messages that differ only in numbers and ids on one line. */
    public Map<String, Long> errors() {
        return errors.lines();
    }

    public long firstStart() {
        return firstStart;
    }

    public long lastEnd() {
        return lastEnd;
    }

    /** Samples that ran under an arrival schedule (and so have a corrected latency). */
    public long scheduledSamples() {
        return scheduled;
    }

    /** Latencies from the intended start, in microseconds, of the scheduled samples. */
    public Latencies corrected() {
        return corrected;
    }

    /** Scheduled samples that started more than {@link #lateMicros()} after their intended start. */
    public long lateArrivals() {
        return late;
    }

    public long lateMicros() {
        return lateMicros;
    }

    /** Scheduled arrivals the generator skipped instead of sending them late. */
    public long droppedArrivals() {
        return dropped;
    }

    /** Arrivals the schedule asked for: those sent and those dropped. */
    public long arrivals() {
        return scheduled + dropped;
    }

    /**
     * The rate the schedule asked for: the median of the arrivals per window of intended start
     * over the whole windows between the first and the last second (robust to a stray timestamp,
     * which JMeter's clock can give on an overloaded machine), a window being one second, or as
     * many as hold some {@value #ARRIVALS_PER_WINDOW} arrivals at a rate below that (30 a minute
     * would give seconds of 0 and 1 arrivals, whose median says nothing); with fewer than three
     * whole windows, arrivals per second between the first and the last intended start. 0 with
     * fewer than two scheduled samples.
     */
    public double targetRate() {
        if (scheduled < 2) {
            return 0;
        }
        long span = lastIntended - firstIntended;
        double overall = span <= 0 ? 0 : (arrivals() - 1) * 1_000_000.0 / span;
        long first = arrivalsPerSecond.firstKey();
        long last = arrivalsPerSecond.lastKey();
        long window = overall <= 0 ? 1 : Math.max(1, (long) Math.ceil(ARRIVALS_PER_WINDOW / overall));
        long windows = (last - first - 1) / window;
        if (last - first >= 3 && windows >= 3) {
            long[] counts = new long[(int) Math.min(Integer.MAX_VALUE - 8, windows)];
            for (int i = 0; i < counts.length; i++) {
                long from = first + 1 + i * window;
                for (long second = from; second < from + window; second++) {
                    counts[i] += arrivalsPerSecond.getOrDefault(second, 0L);
                }
            }
            java.util.Arrays.sort(counts);
            int mid = counts.length / 2;
            double median = counts.length % 2 == 1 ? counts[mid] : (counts[mid - 1] + counts[mid]) / 2.0;
            return median / window;
        }
        return overall;
    }

    /** The rate the scheduled samples actually started at, measured the same way. */
    public double achievedRate() {
        long span = lastScheduledStart - firstScheduledStart;
        return scheduled < 2 || span <= 0 ? 0 : (scheduled - 1) * 1000.0 / span;
    }

    /** achieved / target, or 0 when there is no target. */
    public double achievedRatio() {
        double target = targetRate();
        return target == 0 ? 0 : achievedRate() / target;
    }
}
