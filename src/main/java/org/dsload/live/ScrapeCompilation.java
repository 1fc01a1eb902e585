package org.dsload.live;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import javax.management.JMException;
import javax.management.ObjectName;

/**
 * Keeps the code only a scrape runs out of the JVM's optimising compiler (C2): the Prometheus
 * client's writers, snapshots and HTTP server, the JDK's HTTP server, and dsload's reads of a run
 * folder for the endpoint. Such code runs once a second at most, some 2 ms a scrape, and C2 compiles
 * it on the cores the load runs on; the client compiler (C1) compiles it in a fraction of that time,
 * into slower code. With it, the endpoint's warm-up compiled for 1.4 to 1.8 s instead of 2.3 to 2.6
 * (docs/benchmarks.md). A compiler directive, added through the JVM's diagnostic command (the one {@code jcmd
 * Compiler.directives_add} sends), so that it holds for the JMeter JVMs that serve an endpoint and for
 * no other. The code the load runs (the counting into the live figures, the HdrHistogram recorders,
 * the selectors) stays where the JVM puts it.
 */
final class ScrapeCompilation {
    /** Turns the directive off ({@code -Ddsload.live.scrape_c2=true}): the JVM compiles a scrape as any code. */
    static final String C2_PROPERTY = "dsload.live.scrape_c2";
    /** Classes (and methods) only a scrape runs, in the directive's pattern syntax. */
    static final List<String> SCRAPE_ONLY = List.of(
            "io/prometheus/metrics/expositionformats/*.*",
            "io/prometheus/metrics/exporter/*.*",
            "io/prometheus/metrics/model/snapshots/*.*",
            "io/prometheus/metrics/model/registry/*.*",
            "io/prometheus/metrics/core/metrics/*.collect",
            "com/sun/net/httpserver/*.*",
            "sun/net/httpserver/*.*",
            "org/dsload/live/ServerGaugeFiles*.*",
            "org/dsload/live/GeneratorFiles*.*",
            "org/dsload/live/LiveEndpoint*.*",
            "org/dsload/live/EndpointWarmUp*.*",
            "org/dsload/live/MetricsFetch*.*",
            "org/dsload/live/LatencyHistograms.collect",
            "org/dsload/live/LatencyHistograms.point",
            "org/dsload/live/LatencyHistograms.halve",
            "org/dsload/live/LatencyHistograms$Buckets.*",
            "org/dsload/live/LatencyHistograms.nativeIndex",
            "org/dsload/live/LatencyHistograms.classicIndex");
    private static boolean added;

    private ScrapeCompilation() {
    }

    /** The directive, in the JVM's compiler directive format. */
    static String directive() {
        return SCRAPE_ONLY.stream().map(p -> '"' + p + '"')
                .collect(Collectors.joining(", ", "[ { match: [", "], c2: { Exclude: true } } ]\n"));
    }

    /**
     * Adds the directive to this JVM once; what the JVM answered, or why it was not added (a JVM
     * without the diagnostic command, a temporary file that cannot be written: the scrape code is then
     * compiled as any other, which costs CPU, not correctness), for the caller's log.
     */
    static synchronized String add() {
        if (added) {
            return "added before";
        }
        if (Boolean.getBoolean(C2_PROPERTY)) {
            return "not added (" + C2_PROPERTY + "=true)";
        }
        Path file = null;
        try {
            file = Files.createTempFile("dsload-scrape-", ".json");
            Files.writeString(file, directive(), StandardCharsets.UTF_8);
            Object answer = ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"), "compilerDirectivesAdd",
                    new Object[] {new String[] {file.toString()}}, new String[] {String[].class.getName()});
            added = true;
            return String.valueOf(answer).trim();
        } catch (IOException | JMException | RuntimeException e) {
            return "not added: " + e;
        } finally {
            if (file != null) {
                file.toFile().delete(); // read by the JVM in the call: a file left in the temporary folder is harmless
            }
        }
    }
}
