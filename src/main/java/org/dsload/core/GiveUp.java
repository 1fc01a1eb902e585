package org.dsload.core;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.util.JMeterUtils;
import org.dsload.core.format.RunProperties;
import org.dsload.core.format.RunVerdict;

/**
 * Stops a test in which no request of a dsload sampler has succeeded for a time (the JMeter
 * property {@value RunProperties#GIVE_UP_AFTER}, in seconds; {@value #DEFAULT_SECONDS} by default, 0 never), while
 * requests kept failing: a store that stopped answering for that long will not make the rest of
 * the run a measurement of anything, and each thread would only go on failing until the planned
 * end. The console gets one line, and the run folder a line for the runner's verdict
 * ({@link RunVerdict#gaveUp}). Every sampler thread of the engine counts: one success anywhere
 * starts the time again.
 */
public final class GiveUp {
    public static final long DEFAULT_SECONDS = 60;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());
    private static final OncePerTest RECORDED = new OncePerTest();

    /** The start time of the test the fields below are for. */
    private static volatile long test;
    private static volatile long limitMillis;
    /** The start of the first failure since the last success, in epoch ms; 0 when the last one succeeded. */
    private static final AtomicLong failingSince = new AtomicLong();

    private GiveUp() {
    }

    /**
     * Notes a sample (or a row of requests) of a dsload sampler just taken on this thread; stops the
     * test when it is time.
     *
     * @return whether the sample stops the test, for a sampler that goes on sampling within one sample
     */
    public static boolean check(SampleResult result) {
        long start = JMeterContextService.getTestStartTime();
        if (start != test) {
            begin(start);
        }
        if (result.isSuccessful()) {
            if (failingSince.get() != 0) {
                failingSince.set(0);
            }
            return result.isStopTest();
        }
        long limit = limitMillis;
        if (limit <= 0 || Results.CONFIG_ERROR.equals(result.getResponseCode())) {
            return result.isStopTest(); // never, or a refused configuration, which stops the test itself
        }
        long since = failingSince.get();
        // judged on the clock: a row of requests in flight ends, as JMeter reckons it, at its start plus
        // the time of all its requests together, which can lie seconds ahead of now
        long now = System.currentTimeMillis();
        if (since == 0) {
            failingSince.compareAndSet(0, Math.max(1, Math.min(result.getStartTime(), now)));
        } else if (now - since >= limit) {
            giveUp(result, since, limit, now);
        }
        return result.isStopTest();
    }

    private static synchronized void begin(long testStart) {
        if (testStart == test) {
            return;
        }
        limitMillis = limitSeconds() * 1000;
        failingSince.set(0);
        test = testStart;
    }

    /** The property's value, or the default when it is not set or not a whole number of seconds. */
    static long limitSeconds() {
        if (JMeterUtils.getJMeterProperties() == null) {
            return DEFAULT_SECONDS;
        }
        String text = JMeterUtils.getPropDefault(RunProperties.GIVE_UP_AFTER, "").trim();
        if (text.isEmpty()) {
            return DEFAULT_SECONDS;
        }
        try {
            return Math.max(0, Long.parseLong(text));
        } catch (NumberFormatException e) {
            return DEFAULT_SECONDS;
        }
    }

    private static void giveUp(SampleResult result, long since, long limit, long now) {
        String reason = "no request succeeded for " + limit / 1000 + " s (since " + TIME.format(Instant.ofEpochMilli(since))
                + "; the last failure: '" + result.getSampleLabel() + "' " + result.getResponseCode() + ": "
                + shortened(Errors.sentence(String.valueOf(result.getResponseMessage()))) + "), so the test stopped early at "
                + TIME.format(Instant.ofEpochMilli(now)) + " (" + RunProperties.GIVE_UP_AFTER + "=" + limit / 1000
                + "; 0 runs to the planned end)";
        TestStop.stop(result, "dsload: " + reason);
        if (RECORDED.first()) {
            EngineVerdict.record((dir, engine) -> RunVerdict.gaveUp(dir, "dsload", engine, reason));
        }
    }

    private static String shortened(String message) {
        String line = message.lines().findFirst().orElse("");
        return line.length() > 200 ? line.substring(0, 200) + " ..." : line;
    }
}
