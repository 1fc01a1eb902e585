package org.dsload.kairosdb;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What one connection's samplers wrote and read during a test, kept so that the points dsload
 * reports can be counted again in KairosDB at the end: the series written (metric name and
 * tags), the time range of their points, and the points and queries per sampler label.
 */
public final class WriteLedger {
    /** Beyond this many series the written data is not queried back (the queries would be a load of their own). */
    static final int MAX_SERIES = 200_000;

    /** One time series: a metric name and its tags. */
    public record Series(String name, Map<String, String> tags) {
        public Series {
            tags = Map.copyOf(tags);
        }
    }

    private final Map<String, LongAdder> writtenByLabel = new ConcurrentHashMap<>();
    /** Labels of the writers of the setup phase: their points prepare the test and are no capacity figure. */
    private final Set<String> setupLabels = ConcurrentHashMap.newKeySet();
    private final LongAdder setupPoints = new LongAdder();
    private final Map<String, LongAdder> queriesByLabel = new ConcurrentHashMap<>();
    private final LongAdder points = new LongAdder();
    private final LongAdder queryPoints = new LongAdder();
    private final AtomicLong firstPoint = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong lastPoint = new AtomicLong(Long.MIN_VALUE);
    /** Points of writes sent whose answer never came: KairosDB may have stored them (a frozen node stores them once it runs again). */
    private final LongAdder unanswered = new LongAdder();
    private final AtomicLong firstUnanswered = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong lastUnanswered = new AtomicLong(Long.MIN_VALUE);
    private final Set<Series> series = ConcurrentHashMap.newKeySet();
    private volatile boolean tooManySeries;

    /** Notes series a sampler writes to (called when its batch is built, before any write). */
    public void series(String name, Map<String, String> tags) {
        if (tooManySeries) {
            return;
        }
        if (series.size() >= MAX_SERIES) {
            tooManySeries = true;
            return;
        }
        series.add(new Series(name, new TreeMap<>(tags)));
    }

    /** A successful write of {@code count} points with time stamps from {@code first} to {@code last}. */
    public void written(String label, long count, long first, long last) {
        writtenByLabel.computeIfAbsent(label, k -> new LongAdder()).add(count);
        points.add(count);
        if (setupLabels.contains(label)) {
            setupPoints.add(count);
        }
        firstPoint.accumulateAndGet(first, Math::min);
        lastPoint.accumulateAndGet(last, Math::max);
    }

    /**
     * A write of {@code count} points that was sent but got no answer (the response timeout ran
     * out, or the connection closed first): a failed sample, whose points KairosDB may still store.
     */
    public void unanswered(long count, long first, long last) {
        unanswered.add(count);
        firstUnanswered.accumulateAndGet(first, Math::min);
        lastUnanswered.accumulateAndGet(last, Math::max);
    }

    /** Points of the writes that got no answer. */
    public long unansweredPoints() {
        return unanswered.sum();
    }

    /** The first time stamp a count back must cover: of the points written, or of those whose writes got no answer. */
    long countFrom() {
        return Math.min(firstPoint.get(), firstUnanswered.get());
    }

    /** The last time stamp a count back must cover. */
    long countTo() {
        return Math.max(lastPoint.get(), lastUnanswered.get());
    }

    /**
     * A write sampler's label, noted even before its first success so that the report finds its
     * failures too; {@code setup} when its writes prepare the test rather than being measured.
     */
    public void writer(String label, boolean setup) {
        writtenByLabel.computeIfAbsent(label, k -> new LongAdder());
        if (setup) {
            setupLabels.add(label);
        }
    }

    /** A successful query returning {@code returned} points. */
    public void queried(String label, long returned) {
        queriesByLabel.computeIfAbsent(label, k -> new LongAdder()).increment();
        queryPoints.add(returned);
    }

    public void reader(String label) {
        queriesByLabel.computeIfAbsent(label, k -> new LongAdder());
    }

    public long points() {
        return points.sum();
    }

    public long firstPoint() {
        return firstPoint.get();
    }

    public long lastPoint() {
        return lastPoint.get();
    }

    public Set<String> writeLabels() {
        return new java.util.TreeSet<>(writtenByLabel.keySet());
    }

    public Set<String> setupLabels() {
        return new java.util.TreeSet<>(setupLabels);
    }

    /** Points written by the setup phase's writers. */
    public long setupPoints() {
        return setupPoints.sum();
    }

    public Set<String> queryLabels() {
        return new java.util.TreeSet<>(queriesByLabel.keySet());
    }

    public long queries() {
        return queriesByLabel.values().stream().mapToLong(LongAdder::sum).sum();
    }

    public long queryPoints() {
        return queryPoints.sum();
    }

    public Set<Series> series() {
        return Set.copyOf(series);
    }

    public boolean tooManySeries() {
        return tooManySeries;
    }

    public boolean isEmpty() {
        return writtenByLabel.isEmpty() && queriesByLabel.isEmpty();
    }
}
