package org.dsload.live;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Serializable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.engine.util.NoThreadClone;
import org.apache.jmeter.samplers.Remoteable;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleListener;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestStateListener;
import org.apache.jmeter.util.JMeterUtils;
import org.dsload.core.EngineProperty;
import org.dsload.core.GaugeStream;
import org.dsload.core.RequestsResult;
import org.dsload.core.SampleTiming;
import org.dsload.core.format.BatchTiming;
import org.dsload.core.format.GaugeTable;
import org.dsload.core.format.RunProperties;
import org.dsload.core.format.TimingValue;
import org.dsload.report.AggregateRowText;
import org.dsload.report.FaultWindows;
import org.dsload.report.JtlReader;
import org.dsload.report.RecordingFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live figures' listener, which dsload's results writer ({@code recording.ResultsWriter}, in the
 * plan the runner runs) feeds when the run is watched: it gets every sample of every engine (on the
 * master of a distributed run, one copy of it per slave, told the slave by {@link #testStarted(String)})
 * and counts it into the one
 * {@link LiveMetrics} of this JVM, which the Prometheus endpoint ({@value RunProperties#METRICS_PORT})
 * serves and the live line ({@value RunProperties#PROGRESS}) prints.
 *
 * <p>Rows mode: each row's requests with their own microseconds, late arrivals and drops from the
 * {@code dsload_timing} value. Histograms mode: each engine's aggregate row of a label and second
 * carries that interval's histogram, merged as it is, and its late and dropped arrivals and failures
 * by code. A fault schedule's samples ({@code fault:<kind>:<target>}) set whether the fault is in force;
 * a slave's gauge lines ({@code core.GaugeStream}) are its servers' latest readings.
 */
public class LiveListener extends AbstractTestElement
        implements SampleListener, TestStateListener, Remoteable, NoThreadClone, Serializable {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(LiveListener.class);
    /** The host a local engine's test start comes with. */
    private static final String LOCAL = "*local*";
    static final int DEFAULT_LINGER_SECONDS = 5;
    /** Seconds between live lines written as plain lines (off a terminal). */
    static final int PLAIN_SECONDS = 10;

    private static final Object LOCK = new Object();
    /** What the test of this JVM shows, while one runs (guarded by LOCK). */
    private static Live live;
    /** Listener copies and engine services that hold {@link #live} (guarded by LOCK). */
    private static int holders;
    /** Listener copies whose test runs: the engine service then leaves the samples to them. */
    private static volatile int listeners;
    private static LiveEndpoint lingering;

    /** What the last endpoint's warm-up did, null when it had none. */
    private static volatile EndpointWarmUp.Done warmUp;
    /** The engine whose samples this copy gets. */
    private transient String engine;

    /** What one test shows: its figures, the endpoint serving them, the clock of the live line. */
    private static final class Live {
        final LiveMetrics metrics;
        final LiveEndpoint endpoint;
        final ScheduledExecutorService clock;
        final long startNanos = System.nanoTime();
        long lastNanos = startNanos;
        final boolean tty;

        Live(LiveMetrics metrics, LiveEndpoint endpoint, String progress) {
            this.metrics = metrics;
            this.endpoint = endpoint;
            this.tty = "tty".equals(progress);
            if ("tty".equals(progress) || "plain".equals(progress)) {
                clock = Executors.newSingleThreadScheduledExecutor(r -> {
                    Thread t = new Thread(r, "dsload-live-line");
                    t.setDaemon(true);
                    return t;
                });
                int every = tty ? 1 : PLAIN_SECONDS;
                clock.scheduleAtFixedRate(this::print, every, every, TimeUnit.SECONDS);
            } else {
                clock = null;
            }
        }

        synchronized void print() {
            long now = System.nanoTime();
            LiveLine.Figures f = metrics.take();
            double interval = (now - lastNanos) / 1e9;
            lastNanos = now;
            System.out.println(LiveLine.format(TimeUnit.NANOSECONDS.toSeconds(now - startNanos), plannedSeconds(),
                    interval, f)); // NOSONAR the console is where the run is watched
        }
    }

    public LiveListener() {
        super();
    }

    @Override
    public void testStarted() {
        testStarted(LOCAL);
    }

    @Override
    public void testStarted(String host) {
        engine = LOCAL.equals(host) || host == null ? RunProperties.MASTER : RunProperties.engine(host);
        synchronized (LOCK) {
            listeners++;
            hold(engine);
        }
    }

    /** Holds this JVM's live figures for an engine that starts, starting them with the first holder. */
    static LiveMetrics hold(String engine) {
        synchronized (LOCK) {
            if (holders++ == 0) {
                live = start(RunProperties.MASTER.equals(engine));
            }
            if (live == null) {
                return null;
            }
            live.metrics.engineStarted(engine);
            return live.metrics;
        }
    }

    /** What the warm-up of the last endpoint started did, or null when it had none (a master of slaves). */
    static EndpointWarmUp.Done lastWarmUp() {
        return warmUp;
    }

    /** Whether a listener of the plan gets this test's samples. */
    static boolean listened() {
        return listeners > 0;
    }

    /**
     * The figures, endpoint and live line of the test that starts; null when the endpoint cannot start.
     *
     * @param loadHere whether this JVM runs the load (a local engine, not a master of slaves): the
     *                 endpoint's scrape path is then warmed before the load ({@link EndpointWarmUp})
     */
    private static Live start(boolean loadHere) {
        if (lingering != null) {
            lingering.close();
            lingering = null;
        }
        warmUp = null;
        String runDir = JMeterUtils.getProperty(RunProperties.RUN_DIR);
        Path folder = runDir == null || runDir.isBlank() ? null : Path.of(runDir.trim());
        LiveMetrics metrics = new LiveMetrics(new GeneratorFiles(folder),
                new ServerGaugeFiles(folder, !GaugeStream.slavesSend()));
        int port = EngineProperty.wholeNumber(RunProperties.METRICS_PORT, 0);
        LiveEndpoint endpoint = null;
        if (port > 0) {
            try {
                endpoint = LiveEndpoint.start(port, metrics.registry());
                say(System.out, "dsload: metrics at " + endpoint.address());
                log.info("dsload: the scrape path compiled by C1 alone: {}", ScrapeCompilation.add());
                if (loadHere) {
                    EndpointWarmUp.Done w = EndpointWarmUp.run(EndpointWarmUp.FETCHES, EndpointWarmUp.ROUNDS, EndpointWarmUp.LIMIT);
                    warmUp = w;
                    log.info("dsload: the metrics endpoint's scrape path warmed before the load: {} fetches of sample figures in {} ms,"
                            + " {} ms of compilation", w.fetches(), w.took().toMillis(), w.compiling().toMillis());
                }
            } catch (IOException e) {
                say(System.err, "dsload: " + e.getMessage() + "; the test is stopped before its load");
                log.error("dsload: {}", e.getMessage(), e);
                StandardJMeterEngine.stopEngineNow();
                return null;
            }
        }
        return new Live(metrics, endpoint, JMeterUtils.getPropDefault(RunProperties.PROGRESS, "off").trim());
    }

    private static void say(PrintStream to, String line) {
        to.println(line); // NOSONAR the console is where the user looks for it
        log.info(line);
    }

    @Override
    public void sampleOccurred(SampleEvent event) {
        Live l = live;
        if (l == null) {
            return;
        }
        SampleResult r = event.getResult();
        String name = engine == null ? RunProperties.MASTER : engine;
        if (!countRequests(l.metrics, name, r.getSampleLabel(), r)) {
            countTimed(l.metrics, name, r.getSampleLabel(), r, SampleTiming.of(event));
        }
    }

    /**
     * Counts a row made in this JVM, which keeps its requests, as they are and in one go; false for
     * any other row, whose timing text tells its requests ({@link #count}).
     */
    static boolean countRequests(LiveMetrics metrics, String engine, String label, SampleResult r) {
        if (label == null || !(r instanceof RequestsResult rr) || rr.requests().isEmpty() || JtlReader.isFaultMarker(label)
                || GaugeTable.isStreamLabel(label)) {
            return false;
        }
        metrics.requests(label, engine, rr.requests(), r.isSuccessful(), r.getResponseCode());
        return true;
    }

    /** Counts one row of {@code engine} into the metrics, its timing text given. */
    static void count(LiveMetrics metrics, String engine, String label, SampleResult r, String timing) {
        if (!countRequests(metrics, engine, label, r)) {
            countTimed(metrics, engine, label, r, timing);
        }
    }

    /** Counts a row by its timing text: a row of another JVM, or one that does not keep its requests. */
    static void countTimed(LiveMetrics metrics, String engine, String label, SampleResult r, String timing) {
        if (label == null) {
            return;
        }
        if (JtlReader.isFaultMarker(label)) {
            String code = r.getResponseCode();
            metrics.fault(FaultWindows.kind(label), FaultWindows.target(label), FaultWindows.applied(code),
                    FaultWindows.inForceAfter(label, code), FaultWindows.revertFailed(code));
            return;
        }
        if (GaugeTable.isStreamLabel(label)) {
            metrics.serverLines(label.substring(GaugeTable.STREAM_PREFIX.length()), r.getSamplerData());
            return;
        }
        String aggregateEngine = RecordingFormat.aggregateEngine(timing);
        if (aggregateEngine != null) {
            String text = r.getSamplerData();
            Histogram h = AggregateRowText.raw(text);
            long requests = Math.max(1, r.getSampleCount());
            if (h != null && h.getTotalCount() == requests) {
                AggregateRowText.Counts counts = AggregateRowText.counts(text);
                if (counts != null) {
                    metrics.interval(label, aggregateEngine, h, counts.failures(), counts.late(), counts.dropped());
                } else {
                    // an engine that sends no counts: its failures under the row's code
                    metrics.interval(label, aggregateEngine, h, Map.of(r.getResponseCode(), (long) r.getErrorCount()), 0, 0);
                }
            } else {
                // the histogram stripped on the way: the row's mean stands for each request
                long failures = Math.min(requests, r.getErrorCount());
                long mean = r.getTime() * 1000 / requests;
                metrics.requests(label, aggregateEngine, mean, requests - failures, true, "", false, 0);
                if (failures > 0) {
                    metrics.requests(label, aggregateEngine, mean, failures, false, r.getResponseCode(), false, 0);
                }
            }
            return;
        }
        boolean ok = r.isSuccessful();
        String code = r.getResponseCode();
        List<BatchTiming.Entry> batch = BatchTiming.parse(timing, r.getTimeStamp(), r.getTime());
        if (batch != null) {
            for (BatchTiming.Entry e : batch) {
                metrics.requests(label, engine, e.elapsedMicros(), e.count(), ok, code, late(e.delayMicros()),
                        e.dropped());
            }
            return;
        }
        TimingValue t = TimingValue.parse(timing, r.getTimeStamp(), r.getTime());
        long micros = t != null && t.hasElapsed() ? t.elapsedMicros() : r.getTime() * 1000;
        metrics.requests(label, engine, micros, Math.max(1, r.getSampleCount()), ok, code,
                t != null && late(t.delayMicros()), t == null ? 0 : t.dropped());
    }

    private static boolean late(long delayMicros) {
        return delayMicros > TimingValue.DEFAULT_LATE_MICROS;
    }

    @Override
    public void sampleStarted(SampleEvent e) {
        // counted when it ends
    }

    @Override
    public void sampleStopped(SampleEvent e) {
        // counted when it ends
    }

    @Override
    public void testEnded() {
        testEnded(LOCAL);
    }

    @Override
    public void testEnded(String host) {
        synchronized (LOCK) {
            listeners = Math.max(0, listeners - 1);
            release(engine);
        }
    }

    /** An engine ended: the last holder ends the live line and has the endpoint linger, then close. */
    static void release(String engine) {
        synchronized (LOCK) {
            if (live != null && engine != null) {
                live.metrics.engineEnded(engine);
            }
            if (--holders > 0) {
                return;
            }
            holders = 0;
            if (live == null) {
                return;
            }
            Live ended = live;
            live = null;
            if (ended.clock != null) {
                ended.clock.shutdownNow();
                ended.print();
            }
            if (ended.endpoint != null) {
                int linger = EngineProperty.wholeNumber(RunProperties.METRICS_LINGER, DEFAULT_LINGER_SECONDS);
                ended.endpoint.closeAfter(Duration.ofSeconds(linger));
                lingering = ended.endpoint;
            }
        }
    }

    /**
     * The plan's length in seconds from its {@code duration} property and the {@code warmup} before it
     * (the shipped plans'), or -1 without a duration.
     */
    static long plannedSeconds() {
        return plannedSeconds(JMeterUtils.getProperty("duration"), JMeterUtils.getProperty("warmup"));
    }

    static long plannedSeconds(String duration, String warmUp) {
        try {
            long measured = duration == null ? -1 : Long.parseLong(duration.trim());
            long before = warmUp == null ? 0 : Long.parseLong(warmUp.trim());
            return measured < 0 || before < 0 ? -1 : measured + before;
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
