package org.dsload.core;

import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.AbstractThreadGroup;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.SetupThreadGroup;
import org.dsload.core.format.RunVerdict;

/**
 * A failed sample in a setUp thread group that stops the test (the group's "Stop Test" on a
 * sampler error, or a sample that stops the test by itself): the load or seed the run phase needs
 * is not there, so the run phase never starts. Such a run cannot have succeeded whatever its other
 * samples did, so it is marked failed for the runner ({@link RunVerdict}), with the sample's
 * sentence on the console, instead of ending as a short run that went well.
 */
public final class SetUpFailure {
    private static final OncePerTest RECORDED = new OncePerTest();

    private SetUpFailure() {
    }

    /** Judges a sample just taken on this thread; does nothing unless it is a setUp failure that stops the test. */
    public static void check(SampleResult result) {
        if (result == null || result.isSuccessful()) {
            return;
        }
        AbstractThreadGroup group = JMeterContextService.getContext().getThreadGroup();
        if (!(group instanceof SetupThreadGroup)) {
            return;
        }
        if (!(result.isStopTest() || result.isStopTestNow() || group.getOnErrorStopTest()
                || group.getOnErrorStopTestNow())) {
            return; // the plan lets its setUp go on after a failure
        }
        String source = "setUp thread group '" + group.getName() + "'";
        String failure = "failed at '" + result.getSampleLabel() + "': " + result.getResponseCode() + ": "
                + Errors.sentence(String.valueOf(result.getResponseMessage()));
        TestStop.stop(result, "dsload: the " + source + " " + failure + ", so the test stops before its run phase");
        if (RECORDED.first()) {
            verdict(source, failure + ", so the test stopped before its run phase");
        }
    }

    private static void verdict(String source, String reason) {
        EngineVerdict.record((dir, engine) -> RunVerdict.fail(dir, source, engine, reason));
    }
}
