package org.dsload.live;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import org.HdrHistogram.Histogram;
import org.dsload.core.Completion;
import org.dsload.core.IntervalBuffer;
import org.dsload.core.format.TimingValue;

import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The figures of a run as its samples arrive, per label and engine: the Prometheus metrics of the
 * endpoint (counters and latency histograms, one series per engine, never summed across engines:
 * Prometheus sums them exactly, bucket by bucket) and the interval figures of the live line (an
 * histogram into which every engine's requests go, so its percentiles are exact over all engines).
 * Nothing takes a lock per request: the client's counters add up in striped cells, each series'
 * latencies go into an HdrHistogram recorder, wait-free for writers, which a scrape or the live line
 * drains ({@link LatencyHistograms}), and each label's series are looked up once per sample in a
 * concurrent map.
 */
public final class LiveMetrics {
    public static final String REQUESTS = "dsload_requests_total";
    public static final String ERRORS = "dsload_errors_total";
    public static final String LATENCY = "dsload_latency_seconds";
    public static final String LATE = "dsload_arrivals_late_total";
    public static final String DROPPED = "dsload_arrivals_dropped_total";
    public static final String ENGINE_RUNNING = "dsload_engine_running";
    public static final String CPU = "dsload_generator_cpu_percent";
    public static final String TARGET_RATE = "dsload_target_rate";
    public static final String FAULT_ACTIVE = "dsload_fault_active";
    public static final String FAULTS_APPLIED = "dsload_faults_applied_total";
    public static final String REVERTS_FAILED = "dsload_fault_reverts_failed_total";
    public static final String SERVER_GAUGE = "dsload_server_gauge";
    /** An hour in microseconds: longer latencies count as an hour in the live line. */
    private static final long HIGHEST_MICROS = 3_600_000_000L;
    /**
     * Classic bucket bounds: 8 per doubling from 2^-17 s (7.6 µs) to 2^6 s (64 s), so that
     * histogram_quantile, which interpolates inside a bucket, is off by a few per cent at most. Each
     * is 2^(1/8) (9.05 %) above the last rounded to a 32nd of its doubling's start (7.9 to 10.2 %
     * above it): a multiple of a power of two with at most 6 significant bits, which the JDK prints
     * from a long, not by its arbitrary-precision path, and a scrape prints every bound of every series.
     */
    static final double[] BOUNDS = bounds(-17, 23);

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Counter requests;
    private final Counter errors;
    private final LatencyHistograms latency = new LatencyHistograms(HIGHEST_MICROS);
    private final Counter late;
    private final Counter dropped;
    private final Gauge faultActive;
    private final Counter faultsApplied;
    private final Counter revertsFailed;
    /** Series by engine, then label: two lookups and no key to build per sample. */
    private final Map<String, Map<String, Series>> series = new ConcurrentHashMap<>();
    private final Set<String> running = ConcurrentHashMap.newKeySet();
    private final Set<String> seen = ConcurrentHashMap.newKeySet();
    private final LongAdder intervalErrors = new LongAdder();
    private final LongAdder intervalLate = new LongAdder();
    private final LongAdder totalRequests = new LongAdder();
    private final LongAdder totalErrors = new LongAdder();
    private final LongAdder totalLate = new LongAdder();
    private final LongAdder totalDropped = new LongAdder();
    private final GeneratorFiles generator;
    private final ServerGaugeFiles servers;

    /** The series of one label on one engine. */
    private final class Series {
        final String label;
        final String engine;
        final CounterDataPoint requests;
        final LatencyHistograms.Series latency;
        final CounterDataPoint late;
        final CounterDataPoint dropped;
        final Map<String, CounterDataPoint> errors = new ConcurrentHashMap<>();

        Series(String label, String engine) {
            this.label = label;
            this.engine = engine;
            this.requests = LiveMetrics.this.requests.labelValues(label, engine);
            this.latency = LiveMetrics.this.latency.series(label, engine);
            this.late = LiveMetrics.this.late.labelValues(label, engine);
            this.dropped = LiveMetrics.this.dropped.labelValues(label, engine);
        }

        CounterDataPoint errors(String code) {
            return errors.computeIfAbsent(code, c -> LiveMetrics.this.errors.labelValues(label, engine, c));
        }
    }

    /** @param generator where the engines' generator CPU and target rate are read, or null for none */
    public LiveMetrics(GeneratorFiles generator) {
        this(generator, null);
    }

    /** @param servers where the servers' own gauges are read, or null for none */
    public LiveMetrics(GeneratorFiles generator, ServerGaugeFiles servers) {
        this.generator = generator;
        this.servers = servers;
        requests = Counter.builder().name(REQUESTS).help("Requests that ended, by label and engine")
                .labelNames("label", "engine").withoutExemplars().register(registry);
        errors = Counter.builder().name(ERRORS).help("Requests that failed, by label, engine and response code")
                .labelNames("label", "engine", "code").withoutExemplars().register(registry);
        registry.register(latency);
        late = Counter.builder().name(LATE).help("Scheduled arrivals sent more than 10 ms after their time")
                .labelNames("label", "engine").withoutExemplars().register(registry);
        dropped = Counter.builder().name(DROPPED).help("Scheduled arrivals the generator skipped")
                .labelNames("label", "engine").withoutExemplars().register(registry);
        faultActive = Gauge.builder().name(FAULT_ACTIVE)
                .help("1 while a dsload Fault Schedule's fault is in force on the target (node), 0 once reverted")
                .labelNames("fault", "target").withoutExemplars().register(registry);
        faultsApplied = Counter.builder().name(FAULTS_APPLIED)
                .help("Faults a dsload Fault Schedule applied, by kind and target (a restart is over once applied)")
                .labelNames("fault", "target").withoutExemplars().register(registry);
        revertsFailed = Counter.builder().name(REVERTS_FAILED)
                .help("Reverts of a dsload Fault Schedule's faults that failed, by kind and target: the fault stays in"
                        + " force until 'dsload revert' undoes it")
                .labelNames("fault", "target").withoutExemplars().register(registry);
        GaugeWithCallback.builder().name(ENGINE_RUNNING).help("1 while the engine runs the test, 0 once it ended")
                .labelNames("engine").callback(cb -> {
                    for (String engine : seen) {
                        cb.call(running.contains(engine) ? 1 : 0, engine);
                    }
                }).register(registry);
        if (generator != null) {
            GaugeWithCallback.builder().name(CPU)
                    .help("CPU of the engine's JVM, per cent of all the machine's cores, over the last second")
                    .labelNames("engine").callback(cb -> generator.cpu().forEach((engine, percent) -> cb.call(percent, engine)))
                    .register(registry);
            GaugeWithCallback.builder().name(TARGET_RATE)
                    .help("Arrivals per second the engine's schedules (dsload Constant Arrival Rate) aim at")
                    .labelNames("engine").callback(cb -> generator.targetRate().forEach((engine, rate) -> cb.call(rate, engine)))
                    .register(registry);
        }
        if (servers != null) {
            GaugeWithCallback.builder().name(SERVER_GAUGE)
                    .help("The latest reading of a server's own gauge (Redis INFO, ZooKeeper mntr ...), as the run records"
                            + " them once a second, by store, server and gauge")
                    .labelNames("store", "server", "gauge").callback(cb -> servers.readings()
                            .forEach(r -> cb.call(r.value(), r.store(), r.server(), r.gauge())))
                    .register(registry);
        }
    }

    /** 8 bounds per doubling from 2^firstExponent, each 2^(i/8) of its doubling's start rounded to a 32nd of it. */
    static double[] bounds(int firstExponent, int doublings) {
        double[] b = new double[8 * doublings + 1];
        for (int i = 0; i < b.length; i++) {
            long thirtySeconds = Math.round(32 * Math.pow(2, (i % 8) / 8.0));
            b[i] = Math.scalb((double) thirtySeconds, firstExponent + i / 8 - 5);
        }
        return b;
    }

    public PrometheusRegistry registry() {
        return registry;
    }

    public void engineStarted(String engine) {
        seen.add(engine);
        running.add(engine);
    }

    public void engineEnded(String engine) {
        running.remove(engine);
    }

    /**
     * Requests that ended alike: {@code count} of them, each {@code micros} long.
     *
     * @param code    the response code of failed ones, ignored for successes
     * @param late    whether they started late: one late arrival, as the summary counts it (a pipeline
     *                of N requests is one arrival)
     * @param dropped arrivals skipped before them
     */
    public void requests(String label, String engine, long micros, long count, boolean success, String code,
            boolean late, long dropped) {
        Series s = series(label, engine);
        long n = Math.max(1, count);
        long value = clamp(micros);
        s.requests.inc(n);
        totalRequests.add(n);
        s.latency.record(value, n);
        if (!success) {
            failed(s, code, n);
        }
        if (late) {
            late(s, 1);
        }
        dropped(s, dropped);
    }

    /**
     * The requests of one row made in this JVM, each counted as {@link #requests(String, String, long,
     * long, boolean, String, boolean, long)} counts one, with one lookup of the series and of this
     * thread's recorder, and one critical section of the recorder, for the row.
     */
    public void requests(String label, String engine, List<Completion> completions, boolean success, String code) {
        Series s = series(label, engine);
        IntervalBuffer<Histogram> recorder = s.latency.recorder();
        long requests = 0;
        long sum = 0;
        long late = 0;
        long dropped = 0;
        long entered = recorder.enter();
        try {
            Histogram histogram = recorder.active();
            for (Completion c : completions) {
                long n = Math.max(1, c.count());
                long value = clamp(c.elapsedMicros());
                histogram.recordValueWithCount(value, n);
                sum += value * n;
                requests += n;
                late += c.delayMicros() > TimingValue.DEFAULT_LATE_MICROS ? 1 : 0;
                dropped += c.dropped();
            }
        } finally {
            recorder.exit(entered);
        }
        s.latency.addSum(sum);
        s.requests.inc(requests);
        totalRequests.add(requests);
        if (!success) {
            failed(s, code, requests);
        }
        late(s, late);
        dropped(s, dropped);
    }

    /** A latency as the histograms keep it: 0 to {@link #HIGHEST_MICROS}. */
    private static long clamp(long micros) {
        return Math.max(0, Math.min(HIGHEST_MICROS, micros));
    }

    private void late(Series s, long n) {
        if (n > 0) {
            s.late.inc(n);
            intervalLate.add(n);
            totalLate.add(n);
        }
    }

    private void dropped(Series s, long n) {
        if (n > 0) {
            s.dropped.inc(n);
            totalDropped.add(n);
        }
    }

    private void failed(Series s, String code, long n) {
        if (n > 0) {
            s.errors(code == null ? "" : code).inc(n);
            intervalErrors.add(n);
            totalErrors.add(n);
        }
    }

    /**
     * An interval of one label on one engine recorded as a histogram (histograms mode): every
     * request of it, exactly, with the interval's late and dropped arrivals and its failures by
     * response code as the engine counted them.
     *
     * <p>The cost is per distinct value of the interval's histogram, not per request.
     *
     * @param failures failed requests by response code
     */
    public void interval(String label, String engine, Histogram micros, Map<String, Long> failures, long late,
            long dropped) {
        Series s = series(label, engine);
        long n = micros.getTotalCount();
        s.requests.inc(n);
        totalRequests.add(n);
        micros.recordedValues().forEach(v -> {
            long value = Math.min(HIGHEST_MICROS, micros.highestEquivalentValue(v.getValueIteratedTo()));
            s.latency.record(value, v.getCountAtValueIteratedTo());
        });
        failures.forEach((code, count) -> failed(s, code, count));
        late(s, late);
        dropped(s, dropped);
    }

    /**
     * A fault schedule's apply or revert has ended.
     *
     * @param applied      whether it was an apply that worked (counted in {@value #FAULTS_APPLIED})
     * @param inForce      whether the fault is in force now ({@value #FAULT_ACTIVE} 1, else 0)
     * @param revertFailed whether it was a revert that failed (counted in {@value #REVERTS_FAILED})
     */
    public void fault(String kind, String target, boolean applied, boolean inForce, boolean revertFailed) {
        if (applied) {
            faultsApplied.labelValues(kind, target).inc();
        }
        if (revertFailed) {
            revertsFailed.labelValues(kind, target).inc();
        }
        faultActive.labelValues(kind, target).set(inForce ? 1 : 0);
    }

    /** The lines of a gauge file that a slave sent during the run ({@link ServerGaugeFiles#streamed}). */
    public void serverLines(String fileName, String text) {
        if (servers != null) {
            servers.streamed(fileName, text);
        }
    }

    private Series series(String label, String engine) {
        Map<String, Series> ofEngine = series.get(engine);
        if (ofEngine == null) {
            ofEngine = series.computeIfAbsent(engine, e -> new ConcurrentHashMap<>());
        }
        Series s = ofEngine.get(label);
        return s != null ? s : ofEngine.computeIfAbsent(label, l -> new Series(l, engine));
    }

    /** The figures since the last call: what the live line shows. */
    public LiveLine.Figures take() {
        Histogram h = latency.takeInterval();
        return new LiveLine.Figures(h.getTotalCount(), intervalErrors.sumThenReset(), intervalLate.sumThenReset(),
                h.getTotalCount() == 0 ? -1 : h.getValueAtPercentile(50),
                h.getTotalCount() == 0 ? -1 : h.getValueAtPercentile(99), totalRequests.sum(), totalErrors.sum(),
                totalLate.sum(), totalDropped.sum(), running.size(), seen.size(),
                generator == null ? Map.of() : generator.cpu(),
                generator == null ? 0 : generator.targetRate().values().stream().mapToDouble(Double::doubleValue).sum());
    }
}
