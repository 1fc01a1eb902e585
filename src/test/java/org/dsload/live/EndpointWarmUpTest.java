package org.dsload.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;

class EndpointWarmUpTest {

    private static String text(LiveMetrics metrics) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, metrics.registry().scrape());
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theSampleFiguresHaveTheShapeOfABusyRun() throws IOException {
        String text = text(EndpointWarmUp.sample());
        Matcher counts = Pattern.compile("dsload_latency_seconds_count\\{engine=\"master\",label=\"warm-up \\d\"} (\\d+)").matcher(text);
        long perSeries = 0;
        for (long micros = 100; micros < 400; micros++) {
            perSeries += 1 + micros % 7;
        }
        perSeries += 100 + 1 + 1; // the tail, the request under a microsecond, the failure
        int series = 0;
        while (counts.find()) {
            assertEquals(perSeries, Long.parseLong(counts.group(1)), counts.group());
            series++;
        }
        assertEquals(8, series, text);
        assertTrue(text.contains("dsload_errors_total{code=\"ERR\",engine=\"master\",label=\"warm-up 7\"} 1.0"), text);
        assertTrue(text.contains("dsload_arrivals_late_total{engine=\"master\",label=\"warm-up 0\"} 1.0"), text);
    }

    @Test
    void theSampleReadsAFolderShapedLikeARunsAtEachTickAndLeavesNoneBehind() throws IOException {
        EndpointWarmUp.Folder folder = EndpointWarmUp.Folder.create();
        assertNotNull(folder);
        try {
            LiveMetrics sample = EndpointWarmUp.sample(folder.dir);
            folder.tick();
            String first = text(sample);
            assertTrue(first.contains("dsload_server_gauge{gauge=\"gauge_3\",server=\"127.0.0.1:6379\",store=\"warmup\"} 4.0"),
                    first);
            assertTrue(first.contains("dsload_generator_cpu_percent{engine=\"master\"} 40.33"), first);
            assertTrue(first.contains("dsload_target_rate{engine=\"master\"} 5000.0"), first);
            folder.tick();
            String second = text(sample);
            assertTrue(second.contains("dsload_server_gauge{gauge=\"gauge_3\",server=\"127.0.0.1:6379\",store=\"warmup\"} 8.0"),
                    "the next line read at the next fetch: " + second);
        } finally {
            folder.delete();
        }
        assertFalse(Files.exists(folder.dir));
    }

    @Test
    void theWarmUpFetchesItsSampleInRoundsAndSaysWhatItDid() {
        EndpointWarmUp.Done done = EndpointWarmUp.run(40, 2, Duration.ofSeconds(60));
        assertEquals(40, done.fetches());
        assertTrue(done.took().compareTo(Duration.ofSeconds(60)) < 0, done.toString());
        assertTrue(!done.compiling().isNegative(), done.toString());
        assertEquals("true", System.getProperty("sun.net.httpserver.nodelay"), "replies without waiting for delayed ACKs");
    }

    @Test
    void aWarmUpOutOfTimeEndsAtOnceWithoutFailing() {
        EndpointWarmUp.Done done = EndpointWarmUp.run(1000, 4, Duration.ZERO);
        assertEquals(0, done.fetches());
    }

    @Test
    void aFetchAsksForGzipAndReadsWholeRepliesOnOneConnection() throws Exception {
        LiveMetrics sample = EndpointWarmUp.sample();
        int plain = text(sample).getBytes(StandardCharsets.UTF_8).length;
        LiveEndpoint endpoint = LiveEndpoint.start(0, sample.registry());
        try (MetricsFetch fetch = new MetricsFetch(endpoint.port(), 10_000)) {
            long first = fetch.fetch();
            long second = fetch.fetch();
            assertTrue(first > 0 && first < plain / 4, "gzipped: " + first + " bytes of " + plain);
            assertTrue(second > 0 && second < plain / 4, "the next reply on the same connection: " + second + " bytes");
        } finally {
            endpoint.close();
        }
    }

    @Test
    void aReplyOtherThan200IsAnIOExceptionThatSaysWhat() throws Exception {
        try (ServerSocket server = new ServerSocket(0)) {
            Thread answer = new Thread(() -> {
                try (Socket s = server.accept()) {
                    s.getInputStream().read(new byte[4096]);
                    OutputStream out = s.getOutputStream();
                    out.write("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                } catch (IOException e) {
                    // the test fails on the fetch's side
                }
            });
            answer.start();
            try (MetricsFetch fetch = new MetricsFetch(server.getLocalPort(), 10_000)) {
                IOException e = assertThrows(IOException.class, fetch::fetch);
                assertEquals("the endpoint answered HTTP/1.1 404 Not Found", e.getMessage());
            }
            answer.join(10_000);
        }
    }
}
