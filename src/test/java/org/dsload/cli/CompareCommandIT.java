package org.dsload.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.dsload.chaos.proxy.FaultProxy;
import org.dsload.plans.PlanRuns;
import org.dsload.process.Ports;
import org.dsload.report.JUnitReportTest;
import org.dsload.targets.EmbeddedRedis;
import org.dsload.testing.DsloadProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.w3c.dom.Element;

/**
 * {@code dsload compare} and {@code dsload check --baseline --junit} on real runs: redis-get-rate.jmx
 * twice against a redis-server behind the fault proxy, then once more with the proxy adding 2 ms
 * to every request on its way to the server.
 */
@Timeout(180)
class CompareCommandIT {
    private static final Duration LIMIT = Duration.ofSeconds(60);

    private static Path run(String hosts) throws Exception {
        PlanRuns.Result result = PlanRuns.run("redis-get-rate.jmx", Map.of("hosts", hosts, "rate", "200",
                "threads", "4", "in_flight", "1", "warmup", "0", "duration", "12"), LIMIT, false);
        PlanRuns.assertRan(result.outcome(), result.console());
        return result.outcome().dir();
    }

    private static String dsload(int expected, String... args) throws Exception {
        try (DsloadProcess dsload = DsloadProcess.start(args)) {
            int code = dsload.exitCode(LIMIT);
            System.out.println("$ dsload " + String.join(" ", args) + "\n" + dsload.output() + "\n(exit " + code + ")");
            assertEquals(expected, code, dsload.output());
            return dsload.output();
        }
    }

    @Test
    void alikeRunsAreWithinNoiseAndADelayOnThePathIsARegressionTheJUnitReportShows() throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            int listen = Ports.free();
            FaultProxy proxy = FaultProxy.start(List.of(new FaultProxy.RouteSpec("redis",
                    new InetSocketAddress("127.0.0.1", listen), new InetSocketAddress(redis.host(), redis.port()))),
                    new InetSocketAddress("127.0.0.1", 0));
            Path a;
            Path b;
            Path delayed;
            try {
                String hosts = "127.0.0.1:" + listen;
                a = run(hosts);
                b = run(hosts);
                String applied = proxy.command("APPLY redis delay delay=2ms direction=up");
                assertTrue(applied.startsWith("OK"), applied);
                delayed = run(hosts);
            } finally {
                proxy.close();
            }

            String alike = dsload(0, "compare", a.toString(), b.toString());
            assertTrue(alike.contains("dsload compare: no label regressed beyond the noise (within noise)"), alike);
            assertTrue(Files.isRegularFile(b.resolve("compare.json")) && Files.isRegularFile(b.resolve("compare-latency.png")));

            String slower = dsload(1, "compare", a.toString(), delayed.toString());
            assertTrue(slower.matches("(?s).*\\nGET +p99 .* p99 p=\\S+ \\(\\d+ vs \\d+ s\\), REGRESSED\\n.*"), slower);
            assertTrue(slower.contains("dsload compare: REGRESSED beyond the noise: GET p99 +"), slower);

            Path xml = delayed.resolve("TEST-dsload-check.xml");
            String check = dsload(1, "check", delayed.toString(), "--baseline", a.toString(), "--max-p99-increase", "10%",
                    "--max-throughput-decrease", "5%", "--junit", xml.toString());
            assertTrue(check.contains("FAILED  GET: p99 "), check);
            assertTrue(check.contains("ok      GET: throughput "), check);
            String report = Files.readString(xml, StandardCharsets.UTF_8);
            JUnitReportTest.validate(report);
            Element suite = JUnitReportTest.parse(report).getDocumentElement();
            assertEquals("dsload.redis-get-rate", suite.getAttribute("name"));
            assertEquals("2", suite.getAttribute("tests"), report);
            assertEquals("1", suite.getAttribute("failures"), "the p99, not the throughput of a rate plan: " + report);
            Element failure = (Element) suite.getElementsByTagName("failure").item(0);
            assertTrue(failure.getAttribute("message").matches("GET: p99 \\S+ against \\S+ in the baseline: \\+\\d+(\\.\\d+)?%,"
                    + " above the limit \\+10%"), report);
        }
    }
}
