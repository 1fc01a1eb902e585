package org.dsload.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;

import org.HdrHistogram.Recorder;
import org.junit.jupiter.api.Test;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;

class ScrapeCompilationTest {

    /** The JVM's pattern: {@code class.method}, each exact or a prefix ending in {@code *}; {@code *} alone is any. */
    private static boolean matches(String pattern, Class<?> type, String method) {
        int dot = pattern.lastIndexOf('.');
        return part(pattern.substring(0, dot), type.getName().replace('.', '/')) && part(pattern.substring(dot + 1), method);
    }

    private static boolean part(String pattern, String name) {
        return pattern.endsWith("*") ? name.startsWith(pattern.substring(0, pattern.length() - 1)) : name.equals(pattern);
    }

    private static boolean excluded(Class<?> type, String method) {
        return ScrapeCompilation.SCRAPE_ONLY.stream().anyMatch(p -> matches(p, type, method));
    }

    @Test
    void thisJvmTakesTheDirectiveOnce() {
        String answer = ScrapeCompilation.add();
        assertTrue(answer.equals("1 compiler directives added") || answer.equals("added before"), answer);
        assertEquals("added before", ScrapeCompilation.add());
    }

    @Test
    void everyPatternNamesCodeOfThisClassPath() throws Exception {
        // a client or JDK whose packages moved would leave a pattern that matches nothing: the scrape code
        // would then be compiled by C2 again, in silence
        List<Class<?>> scrapeOnly = List.of(OpenMetricsTextFormatWriter.class, HTTPServer.class, HistogramSnapshot.class,
                PrometheusRegistry.class, Counter.class, Class.forName("com.sun.net.httpserver.HttpServer"),
                Class.forName("sun.net.httpserver.ServerImpl"), ServerGaugeFiles.class, GeneratorFiles.class,
                LiveEndpoint.class, EndpointWarmUp.class, MetricsFetch.class, LatencyHistograms.class,
                LatencyHistograms.Buckets.class);
        for (String pattern : ScrapeCompilation.SCRAPE_ONLY) {
            boolean named = false;
            for (Class<?> type : scrapeOnly) {
                for (Method m : type.getDeclaredMethods()) {
                    named |= matches(pattern, type, m.getName());
                }
            }
            assertTrue(named, "no method of this class path matches " + pattern);
        }
    }

    @Test
    void theCodeTheLoadRunsIsNotExcluded() {
        assertTrue(excluded(OpenMetricsTextFormatWriter.class, "write"));
        assertTrue(excluded(LatencyHistograms.class, "collect"));
        assertTrue(excluded(Counter.class, "collect"));
        // counting a request: the client's counters, dsload's series and recorders, HdrHistogram
        for (Class<?> type : List.of(Counter.class, LiveMetrics.class, LatencyHistograms.class, Recorder.class)) {
            Arrays.stream(type.getDeclaredMethods()).map(Method::getName)
                    .filter(m -> m.equals("inc") || m.equals("requests") || m.startsWith("record"))
                    .forEach(m -> assertFalse(excluded(type, m), type.getName() + "." + m));
        }
        // a series' buckets are added to by drains and read by scrapes; its recorders are the load's
        assertTrue(excluded(LatencyHistograms.Buckets.class, "add"));
        for (Class<?> type : LatencyHistograms.class.getDeclaredClasses()) {
            if (type == LatencyHistograms.Buckets.class) {
                continue;
            }
            for (Method m : type.getDeclaredMethods()) {
                assertFalse(excluded(type, m.getName()), type.getName() + "." + m.getName());
            }
        }
    }

    @Test
    void theDirectiveExcludesC2Only() {
        String d = ScrapeCompilation.directive();
        assertTrue(d.startsWith("[ { match: [\"io/prometheus/metrics/expositionformats/*.*\", "), d);
        assertTrue(d.endsWith("], c2: { Exclude: true } } ]\n"), d);
    }
}
