package org.dsload.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.util.JMeterUtils;
import org.dsload.core.LiveFigures;
import org.dsload.core.SampleTiming;
import org.dsload.core.format.RunProperties;
import org.dsload.core.format.TimingValue;
import org.dsload.process.Ports;
import org.dsload.testing.JMeterRuntime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A test JMeter's GUI or Maven plugin runs: no listener of the runner, the metrics port as a property. */
class LiveServiceTest {
    private int port;

    @BeforeEach
    void aMetricsPort() {
        JMeterRuntime.init();
        port = Ports.free();
        JMeterUtils.setProperty(RunProperties.METRICS_PORT, Integer.toString(port));
        JMeterUtils.setProperty(RunProperties.METRICS_LINGER, "0");
    }

    @AfterEach
    void noMetricsPort() {
        JMeterUtils.getJMeterProperties().remove(RunProperties.METRICS_PORT);
        JMeterUtils.getJMeterProperties().remove(RunProperties.METRICS_LINGER);
    }

    @Test
    void withoutTheRunnersListenerTheEngineServesItsOwnSamples() throws Exception {
        LiveService service = new LiveService();
        try {
            service.started(RunProperties.MASTER, null);
            EndpointWarmUp.Done warmed = LiveListener.lastWarmUp();
            assertTrue(warmed != null && warmed.fetches() > 0, "an engine that runs the load warms the scrape path: " + warmed);
            JMeterRuntime.adopt(JMeterRuntime.freshVariables(), 1);
            for (int i = 0; i < 3; i++) {
                SampleResult r = new SampleResult();
                r.setSampleLabel("GET");
                r.setStampAndTime(1000 + i, 1);
                r.setSuccessful(i != 2);
                r.setResponseCode(i != 2 ? "OK" : "WRONGTYPE");
                org.apache.jmeter.threads.JMeterContextService.getContext().getVariables()
                        .put(SampleTiming.VARIABLE, TimingValue.format(1000 + i, 250));
                LiveFigures.note(r);
            }
            HttpResponse<String> scrape = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/metrics")).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            String text = scrape.body();
            assertEquals(200, scrape.statusCode());
            assertTrue(text.contains("dsload_requests_total{engine=\"master\",label=\"GET\"} 3.0"), text);
            assertTrue(text.contains("dsload_errors_total{code=\"WRONGTYPE\",engine=\"master\",label=\"GET\"} 1.0"), text);
            assertTrue(text.contains("dsload_latency_seconds_sum{engine=\"master\",label=\"GET\"} 7.5E-4"), text);
        } finally {
            service.ended(true);
        }
    }

    @Test
    void aMasterOfSlavesServesWithoutAWarmUp() throws Exception {
        String slave = RunProperties.engine("127.0.0.2:1099");
        try {
            assertTrue(LiveListener.hold(slave) != null, "the endpoint serves");
            assertEquals(null, LiveListener.lastWarmUp(), "no load runs on the master");
        } finally {
            LiveListener.release(slave);
        }
    }
}
