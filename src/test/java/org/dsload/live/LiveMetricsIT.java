package org.dsload.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.dsload.cli.ExitCodes;
import org.dsload.core.format.GaugeTable;
import org.dsload.core.format.RunFiles;
import org.dsload.process.Deadline;
import org.dsload.process.Folders;
import org.dsload.process.ManagedProcess;
import org.dsload.process.Ports;
import org.dsload.report.LabelStats;
import org.dsload.report.Summary;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedRedis;
import org.dsload.testing.DsloadProcess;
import org.dsload.testing.Prerequisites;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * One distributed run (2 local slaves in histograms mode, embedded Redis, a constant arrival rate) with its metrics
 * endpoint scraped every second
 * by a real Prometheus: what Prometheus holds grows during the run, names both engines and the
 * labels, ends equal to the summary's counts, gives the summary's p99 within a bucket's width, holds
 * the Redis server's own gauges the slaves recorded, and answers every query of the Grafana dashboard
 * with the series its panel shows.
 */
@Timeout(300)
class LiveMetricsIT {
    public static final String REQUIRED_ENV = "DSLOAD_REQUIRE_PROMETHEUS";
    private static final Duration LIMIT = Duration.ofMinutes(3);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The widest classic bucket's upper bound over its lower: the estimate and the exact p99 share a bucket. */
    private static final double BUCKET_RATIO = java.util.stream.IntStream.range(1, LiveMetrics.BOUNDS.length)
            .mapToDouble(i -> LiveMetrics.BOUNDS[i] / LiveMetrics.BOUNDS[i - 1]).max().orElseThrow();
    private static final Pattern LEGEND_LABEL = Pattern.compile("\\{\\{(\\w+)}}");

    private static Optional<Path> prometheus() {
        for (String dir : (System.getenv().getOrDefault("PATH", "") + ":/usr/bin:/usr/local/bin").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "prometheus"))) {
                return Optional.of(Path.of(dir, "prometheus"));
            }
        }
        return Optional.empty();
    }

    @Test
    void prometheusFollowsADistributedRunAndEndsWithTheSummarysFigures() throws Exception {
        Optional<Path> binary = prometheus();
        if (binary.isEmpty()) {
            Prerequisites.missing("no prometheus is installed (on Debian: apt-get install prometheus)", REQUIRED_ENV, "true");
        }
        Path dir = Files.createTempDirectory("dsload-live-it-");
        int metricsPort = Ports.free();
        int promPort = Ports.free();
        Files.writeString(dir.resolve("prometheus.yml"), """
                global:
                  scrape_interval: 1s
                  scrape_timeout: 1s
                scrape_configs:
                  - job_name: dsload
                    static_configs:
                      - targets: ['127.0.0.1:%d']
                """.formatted(metricsPort));
        Path results = Checkout.basedir().resolve("target/it-results/live-metrics");
        Folders.deleteTree(results);
        try (EmbeddedRedis redis = EmbeddedRedis.start();
             ManagedProcess prom = ManagedProcess.start("prometheus", List.of(binary.get().toString(),
                     "--config.file=" + dir.resolve("prometheus.yml"), "--storage.tsdb.path=" + dir.resolve("data"),
                     "--web.listen-address=127.0.0.1:" + promPort), dir, dir.resolve("prometheus.log"))) {
            prom.awaitPort("127.0.0.1", promPort, Duration.ofSeconds(30));
            Ports.release(metricsPort);
            long start = System.currentTimeMillis() / 1000;
            try (DsloadProcess run = DsloadProcess.start("run", Checkout.basedir().resolve("test-plans/redis-get-rate.jmx")
                    .toString(), "--slaves", "2", "--record", "histograms", "--no-dashboard", "--results", results.toString(), "--metrics-port",
                    Integer.toString(metricsPort), "--metrics-linger", "3", "-Jhosts=" + redis.address(), "-Jduration=8",
                    "-Jwarmup=2", "-Jrate=300", "-Jserver_gauges=true")) {
                String total = "sum(dsload_requests_total)";
                assertTrue(Deadline.await(() -> value(promPort, total) > 0, LIMIT, Duration.ofMillis(500)),
                        "Prometheus scraped requests:\n" + run.output());
                double first = value(promPort, total);
                assertTrue(Deadline.await(() -> value(promPort, total) > first, LIMIT, Duration.ofMillis(500)),
                        "the count grew during the run:\n" + run.output());
                // the slaves' gauge files are in their own folders, which the master does not read (as on other
                // machines): the slaves send each reading to the master while the engines run
                String whileRunning = LiveMetrics.SERVER_GAUGE + "{store=\"redis\",gauge=\"connected_clients\"} and on() "
                        + "(sum(" + LiveMetrics.ENGINE_RUNNING + ") > 0)";
                AtomicBoolean seen = new AtomicBoolean();
                Deadline.await(() -> {
                    if (value(promPort, "count(" + whileRunning + ")") > 0) {
                        seen.set(true);
                    }
                    return seen.get() || ProcessHandle.of(run.pid()).map(p -> !p.isAlive()).orElse(true);
                }, LIMIT, Duration.ofMillis(500));
                assertTrue(seen.get(), "a server gauge the slaves read, scraped while the engines ran:\n" + run.output());
                assertEquals(ExitCodes.OK, run.exitCode(LIMIT), run.output());
                assertTrue(run.output().contains("dsload: metrics at http://"), run.output());
                // the live line's target is the sum of the schedules of the engines it has figures of: 600/s
                // while both slaves run; on a busy machine they start seconds apart and a line may see one
                List<String> live = run.output().lines().filter(l -> l.startsWith(LiveLine.PREFIX)).toList();
                assertTrue(live.stream().anyMatch(l -> l.contains(" of 300/s") || l.contains(" of 600/s")),
                        "the live line, with the target of the slaves' schedules:\n" + run.output());
                assertTrue(live.stream().filter(l -> l.contains("/s of ")).allMatch(l -> l.matches(".*/s of [36]00/s .*")),
                        "the target is one slave's schedule or both's, never another figure:\n" + run.output());
                Path runDir = run.resultsDir();
                assertFalse(run.output().contains("summary ="), "JMeter's summariser leaves the console:\n" + run.output());
                assertTrue(Files.readString(runDir.resolve("jmeter.log"), StandardCharsets.UTF_8).contains("summary ="),
                        "and stays in jmeter.log");

                Path jtl = runDir.resolve("redis-get-rate.jtl");
                assertFalse(Files.readString(jtl, StandardCharsets.UTF_8).contains(GaugeTable.STREAM_PREFIX),
                        "the slaves' gauge lines are no row of the results file");
                gaugeCost(runDir);
                Summary summary = Summary.of(jtl);
                long end = System.currentTimeMillis() / 1000 + 1;
                // the endpoint is gone: its series are stale now, their last values still in range queries
                Map<String, Double> scraped = byLabel(promPort, "sum by (label) (max_over_time(dsload_requests_total[10m]))");
                Map<String, Double> counted = new TreeMap<>();
                for (LabelStats label : summary.labels()) {
                    counted.put(label.label(), (double) label.requests());
                }
                assertEquals(counted, scraped, "Prometheus's last counts are the summary's, label by label");
                Set<String> engines = labelValues(promPort, "max_over_time(dsload_requests_total[10m])", "engine");
                assertEquals(2, engines.size(), engines.toString());
                assertTrue(engines.stream().allMatch(e -> e.startsWith("slave-127.0.0.")), engines.toString());

                double p99 = value(promPort, "histogram_quantile(0.99, sum by (le) (max_over_time("
                        + "dsload_latency_seconds_bucket{label=\"GET\"}[10m])))") * 1e6;
                long exact = summary.label("GET").latencies().percentile(99);
                System.out.printf(java.util.Locale.ROOT, "LiveMetricsIT: GET p99 of the whole run: %.1f µs from Prometheus's"
                        + " buckets, %d µs exact in the summary; requests %s%n", p99, exact, scraped);
                assertTrue(p99 <= exact * BUCKET_RATIO + 1 && p99 >= exact / BUCKET_RATIO - 1,
                        "p99 from Prometheus's buckets " + p99 + " µs, the summary's exact " + exact + " µs");

                // the server's own gauges, as the slaves' recorders read them: one series per server and gauge
                JsonNode clients = query(promPort, "max_over_time(" + LiveMetrics.SERVER_GAUGE
                        + "{store=\"redis\",gauge=\"connected_clients\"}[10m])");
                assertEquals(1, clients.size(), clients.toString());
                assertEquals(redis.address(), clients.get(0).get("metric").get("server").asText(), clients.toString());
                assertTrue(Double.parseDouble(clients.get(0).get("value").get(1).asText()) >= 2,
                        "the slaves' load connections and the recorder's own were counted: " + clients);
                JsonNode gauges = data(promPort, "/api/v1/label/gauge/values?match%5B%5D=" + LiveMetrics.SERVER_GAUGE);
                assertTrue(gauges.toString().contains("\"connected_clients\""), "the dashboard's gauge choice: " + gauges);
                assertFalse(gauges.toString().contains("\"role\""), "a gauge that is no number has no series: " + gauges);

                dashboardQueriesAnswer(promPort, start, end);
            }
        } finally {
            Folders.deleteTree(dir);
        }
    }

    /** What a slave's Redis gauges cost on the way to the master: a sample a second of a header and a line per server. */
    private static void gaugeCost(Path runDir) throws IOException {
        for (Path file : RunFiles.find(runDir, "redis-info.tsv")) {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            double line = lines.stream().skip(1).mapToInt(String::length).average().orElse(0);
            System.out.printf(java.util.Locale.ROOT, "LiveMetricsIT: %s: %d readings of one Redis server; sent to the master"
                    + " as a sample a second of %d bytes of header and %.0f of line%n", runDir.relativize(file),
                    lines.size() - 1, lines.get(0).length(), line);
        }
    }

    /** Each query of each panel, over the run, gives series with the labels its legend names. */
    private static void dashboardQueriesAnswer(int port, long start, long end) throws Exception {
        JsonNode dashboard = JSON.readTree(Checkout.basedir().resolve("examples/grafana/dsload-dashboard.json").toFile());
        // a query variable (the server gauges to show) as its "All" choice
        Map<String, String> all = new TreeMap<>();
        for (JsonNode variable : dashboard.get("templating").get("list")) {
            if (variable.has("allValue")) {
                all.put("$" + variable.get("name").asText(), variable.get("allValue").asText());
            }
        }
        int queries = 0;
        for (JsonNode panel : dashboard.get("panels")) {
            for (JsonNode target : panel.get("targets")) {
                String expr = target.get("expr").asText().replace("$__rate_interval", "4s");
                for (Map.Entry<String, String> variable : all.entrySet()) {
                    expr = expr.replace(variable.getKey(), variable.getValue());
                }
                String legend = target.get("legendFormat").asText();
                JsonNode series = rangeQuery(port, expr, start, end);
                String what = "panel '" + panel.get("title").asText() + "': " + expr + " -> " + series;
                assertTrue(series.size() > 0, what);
                Matcher m = LEGEND_LABEL.matcher(legend);
                while (m.find()) {
                    String name = m.group(1);
                    Set<String> values = new HashSet<>();
                    series.forEach(s -> values.add(s.get("metric").path(name).asText("")));
                    assertFalse(values.contains(""), name + " in every series of " + what);
                    if (name.equals("label")) {
                        assertTrue(values.contains("GET"), what);
                    }
                    if (name.equals("gauge")) {
                        assertTrue(values.contains("connected_clients"), what);
                    }
                    if (name.equals("engine")) {
                        assertTrue(values.stream().filter(v -> v.startsWith("slave-")).count() == 2, what);
                    }
                }
                queries++;
            }
        }
        assertEquals(13, queries, "every query of the dashboard was run");
        // the faults' annotation: a query Prometheus takes, with no fault in force in a run without a schedule
        JsonNode annotations = dashboard.get("annotations").get("list");
        assertEquals(1, annotations.size());
        for (JsonNode annotation : annotations) {
            String expr = annotation.get("expr").asText();
            assertTrue(expr.contains(LiveMetrics.FAULT_ACTIVE), expr);
            assertEquals(0, rangeQuery(port, expr, start, end).size(), expr);
        }
    }

    /** The result of a query. */
    private static JsonNode api(int port, String path) throws IOException, InterruptedException {
        return data(port, path).get("result");
    }

    /** What Prometheus's API answers, when it succeeds. */
    private static JsonNode data(int port, String path) throws IOException, InterruptedException {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        JsonNode body = JSON.readTree(r.body());
        assertEquals("success", body.path("status").asText(), path + ": " + r.body());
        return body.get("data");
    }

    private static JsonNode query(int port, String promQl) throws IOException, InterruptedException {
        return api(port, "/api/v1/query?query=" + URLEncoder.encode(promQl, StandardCharsets.UTF_8));
    }

    private static JsonNode rangeQuery(int port, String promQl, long start, long end) throws IOException, InterruptedException {
        return api(port, "/api/v1/query_range?step=1&start=" + start + "&end=" + end + "&query="
                + URLEncoder.encode(promQl, StandardCharsets.UTF_8));
    }

    /** The value of a query of one series, 0 when it has none yet. */
    private static double value(int port, String promQl) {
        try {
            JsonNode result = query(port, promQl);
            return result.size() == 0 ? 0 : Double.parseDouble(result.get(0).get("value").get(1).asText());
        } catch (IOException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    private static Map<String, Double> byLabel(int port, String promQl) throws IOException, InterruptedException {
        Map<String, Double> values = new TreeMap<>();
        for (JsonNode s : query(port, promQl)) {
            values.put(s.get("metric").get("label").asText(), Double.parseDouble(s.get("value").get(1).asText()));
        }
        return values;
    }

    private static Set<String> labelValues(int port, String promQl, String name) throws IOException, InterruptedException {
        List<String> values = new ArrayList<>();
        query(port, promQl).forEach(s -> values.add(s.get("metric").get(name).asText()));
        return new HashSet<>(values);
    }
}
