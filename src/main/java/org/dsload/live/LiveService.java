package org.dsload.live;

import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.dsload.core.EngineProperty;
import org.dsload.core.EngineService;
import org.dsload.core.LiveFigures;
import org.dsload.core.SampleTiming;
import org.dsload.core.format.RunProperties;

/**
 * The metrics endpoint of a test the dsload runner did not start (JMeter's GUI, the JMeter Maven
 * plugin), which has no {@link LiveListener} in its plan: on an engine that runs its test itself
 * (not a slave, whose master serves the run) with {@value RunProperties#METRICS_PORT} set, it takes
 * every sample of the dsload samplers as they end. A plan the runner gave its listener leaves the
 * samples to it.
 */
public final class LiveService implements EngineService {
    private static LiveMetrics metrics;
    private static String engine;

    /** Started and ended with the test by core ({@code META-INF/services/org.dsload.core.EngineService}). */
    public LiveService() {
    }

    @Override
    public void started(String engineName, String remoteHost) {
        if (remoteHost != null || EngineProperty.wholeNumber(RunProperties.METRICS_PORT, 0) <= 0) {
            return;
        }
        synchronized (LiveService.class) {
            if (metrics != null) {
                return;
            }
            engine = engineName;
            metrics = LiveListener.hold(engineName);
            LiveMetrics m = metrics;
            if (m != null) {
                LiveFigures.tap(result -> count(m, engineName, result));
            }
        }
    }

    private static void count(LiveMetrics m, String engineName, SampleResult result) {
        if (LiveListener.listened()) {
            return;
        }
        if (LiveListener.countRequests(m, engineName, result.getSampleLabel(), result)) {
            return;
        }
        JMeterVariables variables = JMeterContextService.getContext().getVariables();
        String timing = variables == null ? null : variables.get(SampleTiming.VARIABLE);
        LiveListener.countTimed(m, engineName, result.getSampleLabel(), result, timing == null ? "" : timing);
    }

    @Override
    public void ended(boolean last) {
        if (!last) {
            return;
        }
        synchronized (LiveService.class) {
            if (engine == null) {
                return;
            }
            LiveFigures.tap(null);
            LiveListener.release(engine);
            metrics = null;
            engine = null;
        }
    }
}
