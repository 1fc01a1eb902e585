package org.dsload.core;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.util.JMeterUtils;
import org.dsload.core.format.RunProperties;
import org.dsload.core.format.RunVerdict;
import org.dsload.core.format.StopConditions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends a test on this engine when one of the stop conditions of the JMeter property
 * {@value RunProperties#STOP_WHEN} is broken ({@link StopConditions}): once a second it judges the
 * requests of this engine's dsload samplers that ended in that second ({@link LiveFigures}); the
 * first condition broken long enough prints one console line, leaves a {@code limits-broken} line
 * for the runner ({@link RunVerdict#limitsBroken}) and stops the test as JMeter's Stop does (the
 * samples under way end first). Each engine of a distributed run judges its own requests.
 */
public final class StopWhen implements EngineService {
    private static final Logger log = LoggerFactory.getLogger(StopWhen.class);
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());

    private static ScheduledExecutorService ticker;

    /** Started and ended by core with the test ({@code META-INF/services/org.dsload.core.EngineService}). */
    public StopWhen() {
    }

    @Override
    public void started(String engine, String remoteHost) {
        synchronized (StopWhen.class) {
            if (ticker != null || JMeterUtils.getJMeterProperties() == null) {
                return;
            }
            String text = JMeterUtils.getPropDefault(RunProperties.STOP_WHEN, "");
            StopConditions conditions;
            try {
                conditions = StopConditions.parse(text);
            } catch (IllegalArgumentException e) {
                String line = "dsload: " + RunProperties.STOP_WHEN + " ignored: " + e.getMessage();
                log.error(line);
                System.err.println(line); // NOSONAR the console is where a headless user looks
                return;
            }
            if (conditions.isEmpty()) {
                return;
            }
            LiveFigures.enable();
            StopConditions.Judge judge = conditions.judge();
            ticker = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "dsload-stop-when");
                t.setDaemon(true);
                return t;
            });
            ticker.scheduleAtFixedRate(() -> tick(judge), 1, 1, TimeUnit.SECONDS);
            log.info("dsload: engine {} stops the test when {}", engine, text);
        }
    }

    @Override
    public void ended(boolean last) {
        synchronized (StopWhen.class) {
            if (last && ticker != null) {
                ticker.shutdownNow();
                ticker = null;
                LiveFigures.disable();
            }
        }
    }

    private static void tick(StopConditions.Judge judge) {
        try {
            LiveFigures.Interval interval = LiveFigures.take();
            long now = System.currentTimeMillis();
            StopConditions.Breach breach = judge.second(now / 1000, new Figures(interval));
            if (breach != null) {
                stop(breach, now);
            }
        } catch (RuntimeException e) {
            log.warn("dsload: stop conditions not judged this second: {}", e.toString());
        }
    }

    private static void stop(StopConditions.Breach breach, long now) {
        synchronized (StopWhen.class) {
            if (ticker == null) {
                return;
            }
            ticker.shutdown(); // this tick is the last
            ticker = null;
        }
        String reason = breach.text() + " (since " + TIME.format(Instant.ofEpochSecond(breach.sinceEpochSecond() - 1))
                + "), so the test stopped early at " + TIME.format(Instant.ofEpochMilli(now)) + " ("
                + RunProperties.STOP_WHEN + ")";
        String line = "dsload: " + reason;
        log.error(line);
        System.err.println(line); // NOSONAR the console is where a headless user looks
        EngineVerdict.record((dir, name) -> RunVerdict.limitsBroken(dir, "dsload", name, reason));
        TestStop.markStopping(reason);
        StandardJMeterEngine.stopEngine();
    }

    /** One interval's figures as the conditions read them. */
    private record Figures(LiveFigures.Interval interval) implements StopConditions.Second {
        @Override
        public long requests() {
            return interval.requests();
        }

        @Override
        public long failed() {
            return interval.failed();
        }

        @Override
        public long percentileMicros(double percentile) {
            Histogram h = interval.latencies();
            return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile);
        }
    }
}
