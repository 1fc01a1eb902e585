package org.dsload.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.HdrHistogram.Histogram;
import org.dsload.process.Ports;
import org.junit.jupiter.api.Test;

class LiveEndpointTest {

    private static String scrape(int port) throws IOException, InterruptedException {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/metrics")).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode());
        return r.body();
    }

    @Test
    void servesEachEnginesSeriesApartWithTheirCountsAndBuckets() throws Exception {
        LiveMetrics metrics = new LiveMetrics(null);
        metrics.engineStarted("slave-a");
        metrics.engineStarted("slave-b");
        metrics.requests("GET", "slave-a", 150, 1, true, "OK", false, 0);
        metrics.requests("GET", "slave-a", 90_000, 2, false, "TIMEOUT", true, 3);
        Histogram h = new Histogram(3_600_000_000L, 3);
        h.recordValueWithCount(200, 4);
        metrics.interval("GET", "slave-b", h, java.util.Map.of("ERR", 1L), 0, 0);
        metrics.engineEnded("slave-b");
        LiveEndpoint endpoint = LiveEndpoint.start(Ports.free(), metrics.registry());
        try {
            String text = scrape(endpoint.port());
            assertTrue(text.contains("dsload_requests_total{engine=\"slave-a\",label=\"GET\"} 3.0"), text);
            assertTrue(text.contains("dsload_requests_total{engine=\"slave-b\",label=\"GET\"} 4.0"), text);
            assertTrue(text.contains("dsload_errors_total{code=\"TIMEOUT\",engine=\"slave-a\",label=\"GET\"} 2.0"), text);
            assertTrue(text.contains("dsload_errors_total{code=\"ERR\",engine=\"slave-b\",label=\"GET\"} 1.0"), text);
            assertTrue(text.contains("dsload_arrivals_late_total{engine=\"slave-a\",label=\"GET\"} 1.0"), text);
            assertTrue(text.contains("dsload_arrivals_dropped_total{engine=\"slave-a\",label=\"GET\"} 3.0"), text);
            assertTrue(text.contains("dsload_latency_seconds_count{engine=\"slave-b\",label=\"GET\"} 4"), text);
            assertTrue(text.contains("dsload_engine_running{engine=\"slave-a\"} 1.0"), text);
            assertTrue(text.contains("dsload_engine_running{engine=\"slave-b\"} 0.0"), text);
            // 150 µs lies in the bucket from 145.0 to 156.4 µs (38 and 41 32nds of 2^-13 s)
            assertTrue(text.contains("dsload_latency_seconds_bucket{engine=\"slave-a\",label=\"GET\",le=\"1.4495849609375E-4\"} 0\n"), text);
            assertTrue(text.contains("dsload_latency_seconds_bucket{engine=\"slave-a\",label=\"GET\",le=\"1.56402587890625E-4\"} 1\n"), text);

            LiveLine.Figures f = metrics.take();
            assertEquals(7, f.requests());
            assertEquals(3, f.errors());
            assertEquals(1, f.late(), "a late row of 2 requests is one late arrival");
            assertEquals(1, f.enginesRunning());
            assertEquals(2, f.engines());
            assertEquals(200, f.p50Micros(), 1, "p50 of the merged interval: 4 of 7 took 200 µs");
        } finally {
            endpoint.close();
        }
    }

    @Test
    void aPortInUseIsRefusedWithAMessageThatSaysSo() throws Exception {
        try (ServerSocket taken = new ServerSocket(0)) {
            IOException e = assertThrows(IOException.class,
                    () -> LiveEndpoint.start(taken.getLocalPort(), new LiveMetrics(null).registry()));
            assertTrue(e.getMessage().startsWith("cannot serve metrics on port " + taken.getLocalPort() + " ("), e.getMessage());
            assertTrue(e.getMessage().contains("is it in use? Choose another with --metrics-port"), e.getMessage());
        }
    }

    @Test
    void theClassicBucketsAreAbout9PerCentApartFrom7MicrosecondsTo64SecondsWithShortMantissas() {
        double[] b = LiveMetrics.BOUNDS;
        assertEquals(Math.pow(2, -17), b[0]);
        assertEquals(64.0, b[b.length - 1]);
        assertEquals(8 * 23 + 1, b.length);
        for (int i = 1; i < b.length; i++) {
            double ratio = b[i] / b[i - 1];
            assertTrue(ratio > 1.078 && ratio < 1.103, i + ": " + b[i - 1] + " to " + b[i]);
            assertEquals(Math.pow(2, (i % 8) / 8.0), b[i] / b[i - i % 8], 1 / 64.0, "2^(1/8) steps rounded to a 32nd of the doubling");
            long fraction = Double.doubleToRawLongBits(b[i]) & ((1L << 52) - 1);
            assertTrue(Long.numberOfTrailingZeros(fraction) >= 52 - 5, "at most 6 significant bits: " + b[i]);
        }
    }
}
