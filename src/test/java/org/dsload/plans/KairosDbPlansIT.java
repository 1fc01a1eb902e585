package org.dsload.plans;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.dsload.cli.ExitCodes;
import org.dsload.process.Ports;
import org.dsload.report.JtlSample;
import org.dsload.report.LabelStats;
import org.dsload.run.Ending;
import org.dsload.targets.EmbeddedKairosDb;
import org.dsload.testing.SharedKairosDb;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;

/** test-plans/kairosdb-write.jmx and kairosdb-read.jmx, headless, against a real KairosDB on H2. */
@Timeout(400)
@ExtendWith(SharedKairosDb.class)
class KairosDbPlansIT {
    private static EmbeddedKairosDb kairos;

    @BeforeAll
    static void shared() {
        kairos = SharedKairosDb.server();
    }

    @Test
    void theWritePlanReportsPointsPerMinuteAndKairosDbHoldsEveryPoint() throws Exception {
        PlanRuns.Result result = PlanRuns.run("kairosdb-write.jmx", Map.of("urls", kairos.url(), "threads", "3",
                "ramp_step", "0", "repeats", "8", "paced", "false", "metric_name", "plan.write.#{m}"),
                Duration.ofMinutes(3), false);
        assertTrue(result.outcome().ok(), result.outcome().problem() + "\n" + result.console());
        List<JtlSample> samples = PlanRuns.samples(result.outcome().jtl());
        assertEquals(24, samples.size(), "3 resources x 8 batches");
        assertTrue(samples.stream().allMatch(JtlSample::success), "every batch written");
        assertEquals(600, samples.stream().mapToInt(JtlSample::sampleCount).sum(), "24 batches of 25 points");
        assertEquals(Set.of("204"), samples.stream().map(JtlSample::responseCode).collect(Collectors.toSet()));

        String text = Files.readString(result.outcome().dir().resolve("summary.txt"), StandardCharsets.UTF_8);
        assertTrue(text.contains("== KairosDB capacity =="), text);
        assertTrue(text.matches("(?s).*Writes\\s+\\[points, duration, points/min]\\s+600, .*"), text);
        assertTrue(text.matches("(?s).*Resources\\s+\\[100 metrics/15 s, /180 s]\\s+\\d+, \\d+.*"), text);
        assertTrue(text.matches("(?s).*\\[dsload reported, KairosDB holds]\\s+600, 600 \\(match.*"), text);
        assertFalse(text.contains("Capacity "), "a capacity earned is stated, not excused: " + text);
        assertFalse(Files.exists(result.outcome().dir().resolve("run-verdict")), "no element found the run failed");
        // 8 batches of 25 are two rounds of a resource's 100 metrics: metric 0 has 2 points per resource
        assertEquals(6, kairos.count("plan.write.0", 1, System.currentTimeMillis() + 60_000));
    }

    @Test
    void aRunWhereHalfThePointsFailedCountsThemAsErrorsAndStatesNoCapacity() throws Exception {
        // two nodes taken in turn, one of them down: every other batch fails
        String down = "http://127.0.0.1:" + Ports.free();
        PlanRuns.Result result = PlanRuns.run("kairosdb-write.jmx", Map.of("urls", kairos.url() + "," + down,
                "check_on_start", "false", "threads", "3", "ramp_step", "0", "repeats", "8", "paced", "false",
                "metric_name", "plan.half.#{m}"), Duration.ofMinutes(3), false);
        assertTrue(result.outcome().ok(), result.outcome().problem() + "\n" + result.console());
        List<String> rows = Files.readAllLines(result.outcome().jtl(), StandardCharsets.UTF_8);
        List<String> header = List.of(rows.get(0).split(","));
        int success = header.indexOf("success");
        int count = header.indexOf("SampleCount");
        int errors = header.indexOf("ErrorCount");
        long failedPoints = 0;
        for (String row : rows.subList(1, rows.size())) {
            String[] cells = row.split(",");
            boolean ok = Boolean.parseBoolean(cells[success]);
            assertEquals("25", cells[count], row);
            assertEquals(ok ? "0" : "25", cells[errors], "a failed batch is 25 failed points: " + row);
            failedPoints += ok ? 0 : 25;
        }
        assertEquals(300, failedPoints, "12 of 24 batches went to the node that is down");
        String text = Files.readString(result.outcome().dir().resolve("summary.txt"), StandardCharsets.UTF_8);
        assertTrue(text.matches("(?s).*Failed\\s+\\[points, share]\\s+300, 50\\.00%.*"), text);
        assertTrue(text.contains("not stated: 50.00% of the points written failed"), text);
        assertFalse(text.contains("Resources "), "no resources for a load KairosDB did not carry: " + text);
        assertTrue(text.matches("(?s).*\\[dsload reported, KairosDB holds]\\s+300, 300 \\(match.*"), text);
        // the Error Set counts the 12 failed requests, not the 300 points they carried
        String port = down.substring(down.lastIndexOf(':') + 1);
        String errorSet = text.substring(text.indexOf("Error Set:"));
        assertTrue(errorSet.lines().anyMatch(l -> l.contains(":" + port) && l.endsWith(" (12)")), errorSet);
        assertFalse(errorSet.lines().anyMatch(l -> l.endsWith(" (300)")), errorSet);
    }

    @Test
    void pacedReportersSendTheirMetricsOncePerInterval() throws Exception {
        // 100 metrics in batches of 25 every 1 s: 4 requests a second per resource
        PlanRuns.Result result = PlanRuns.run("kairosdb-write.jmx", Map.of("urls", kairos.url(), "threads", "2",
                "ramp_step", "0", "repeats", "8", "interval", "1", "metric_name", "plan.paced.#{m}"),
                Duration.ofMinutes(3), false);
        assertTrue(result.outcome().ok(), result.outcome().problem() + "\n" + result.console());
        List<JtlSample> samples = PlanRuns.samples(result.outcome().jtl());
        assertEquals(16, samples.size());
        Map<String, List<JtlSample>> byThread = samples.stream().collect(Collectors.groupingBy(JtlSample::threadName));
        assertEquals(2, byThread.size());
        for (List<JtlSample> thread : byThread.values()) {
            long first = thread.stream().mapToLong(JtlSample::start).min().orElseThrow();
            long last = thread.stream().mapToLong(JtlSample::start).max().orElseThrow();
            // 7 gaps of 250 ms; unpaced, 8 small batches take a fraction of that
            assertTrue(last - first >= 1500, "8 batches of one reporter spread over " + (last - first) + " ms");
        }
    }

    @Test
    void theReadPlanSeedsHistoryAndQueriesItAtTheTargetRate() throws Exception {
        PlanRuns.Result result = PlanRuns.run("kairosdb-read.jmx", Map.of("urls", kairos.url(), "seed_resources", "2",
                "threads", "2", "queries_per_min", "240", "duration", "5", "warmup", "0", "metric_name", "plan.read.#{m}"),
                Duration.ofMinutes(3), false);
        // runs side by side: a machine busy with other test JVMs may leave an arrival due at the end unsent (the
        // schedule is the alone test's subject below)
        PlanRuns.assertRan(result.outcome(), result.console());
        List<JtlSample> samples = PlanRuns.samples(result.outcome().jtl());
        List<JtlSample> queries = samples.stream().filter(s -> s.label().equals("dashboard query")).toList();
        assertEquals(queries, samples, "the seed is the setup phase: its successful batches are not results");
        assertTrue(samples.stream().allMatch(JtlSample::success), "every sample succeeds");
        assertTrue(queries.size() >= 10 && queries.size() <= 25, "about 4 queries/s for 5 s: " + queries.size());
        for (JtlSample q : queries) {
            // 10 metrics x 2 resources x one point per 15 s over the last 15 minutes (60, or 59 to 61 at the edges)
            long size = Long.parseLong(q.responseMessage().replaceAll(".*sample_size (\\d+).*", "$1"));
            assertTrue(size >= 10 * 2 * 58 && size <= 10 * 2 * 61, q.responseMessage());
            assertTrue(q.responseMessage().contains("results 10"), q.responseMessage());
        }
        String text = Files.readString(result.outcome().dir().resolve("summary.txt"), StandardCharsets.UTF_8);
        assertTrue(text.matches("(?s).*Queries\\s+\\[total, queries/min, points each]\\s+" + queries.size() + ", .*"),
                text);
        assertTrue(text.matches("(?s).*\\[dsload reported, KairosDB holds]\\s+24000, 24000 \\(match.*"), text);
        assertTrue(text.matches("(?s).*Setup writes\\s+\\[points, failed points]\\s+24000, 0 .*"),
                "2 resources x 100 metrics x 30 min at 15 s: " + text);
        assertFalse(text.contains("Writes "), "the seed is no write capacity: " + text);
        assertFalse(text.contains("Resources "), text);
        assertFalse(text.contains("== All labels =="), "the headline is the queries: " + text);
        assertTrue(text.contains("== dashboard query =="), text);
    }

    /**
     * kairosdb-read.jmx with its defaults but a measured window of 6 s: seeded history, 10 s of warm-up
     * and the measured queries at 30 a minute. Run once, by whichever of the two tests that judge it
     * comes first: a run of its own for each cost the alone stage 23 s more.
     */
    private static PlanRuns.Result defaultsRun;

    private static synchronized PlanRuns.Result defaultsRun() throws Exception {
        if (defaultsRun == null) {
            defaultsRun = PlanRuns.run("kairosdb-read.jmx", Map.of("urls", kairos.url(), "duration", "6"),
                    Duration.ofMinutes(3), false);
        }
        return defaultsRun;
    }

    // judges the rate a run achieved (30 queries a minute), after a set-up that seeds history with all the
    // machine has: no other test JVM beside it (a paired test beside the seeding lost its schedule)
    @org.junit.jupiter.api.Tag("alone")
    @Test
    void aQueryRateBelowOnePerSecondReadsAsThePlanSetsItPerMinute() throws Exception {
        PlanRuns.Result result = defaultsRun();
        assertTrue(result.outcome().ok(), result.outcome().problem() + "\n" + result.console());
        String text = Files.readString(result.outcome().dir().resolve("summary.txt"), StandardCharsets.UTF_8);
        // the measured label's section: the warm-up's comes before it
        assertTrue(text.contains("== dashboard query =="), text);
        String measured = text.substring(text.indexOf("== dashboard query =="));
        java.util.regex.Matcher rate = java.util.regex.Pattern.compile(
                "Rate +\\[target, achieved, ratio] +([0-9.]+)/min, ([0-9.]+)/min, ([0-9.]+)%").matcher(measured);
        assertTrue(rate.find(), text);
        assertEquals(30.0, Double.parseDouble(rate.group(1)), 0.5, "the plan's 30 queries a minute: " + rate.group());
        double ratio = Double.parseDouble(rate.group(3));
        assertTrue(ratio > 80 && ratio < 120, "achieved / target: " + rate.group());
    }

    // judges schedule keeping at 30 queries a minute after seeding history: no other test JVM beside it; the
    // others judge what a run does and run side by side
    @org.junit.jupiter.api.Tag("alone")
    @Test
    void withItsDefaultsTheReadPlanKeepsItsScheduleAfterItsWarmUpAndKairosDbHoldsTheSeed() throws Exception {
        PlanRuns.Result result = defaultsRun();
        PlanRuns.assertKeptSchedule(result);
        LabelStats warmUp = result.outcome().summary().label("dashboard query (warm-up)");
        LabelStats measured = result.outcome().summary().label("dashboard query");
        // 30 a minute: 5 in the 10 s of warm-up, 3 in the 6 s measured
        assertEquals(5, warmUp.requests(), 1, "the warm-up's queries");
        assertEquals(3, measured.requests(), 1, "the measured queries");
        String text = Files.readString(result.outcome().dir().resolve("summary.txt"), StandardCharsets.UTF_8);
        assertTrue(text.matches("(?s).*Queries\\s+\\[total, queries/min, points each]\\s+" + measured.successes()
                + ", .*"), "the capacity figures are the measured queries': " + text);
        // 10 resources x 100 metrics x 30 minutes at 15 s
        assertTrue(text.matches("(?s).*\\[dsload reported, KairosDB holds]\\s+120000, 120000 \\(match.*"), text);
    }

    @Test
    void aSeedThatFailsStopsTheReadPlanBeforeItsQueries() throws Exception {
        // two nodes taken in turn, one of them down: the second seed batch fails
        String down = "http://127.0.0.1:" + Ports.free();
        PlanRuns.Result result = PlanRuns.run("kairosdb-read.jmx", Map.of("urls", kairos.url() + "," + down,
                "check_on_start", "false", "seed_resources", "2", "threads", "2", "queries_per_min", "240",
                "duration", "30", "warmup", "0", "metric_name", "plan.seedfail.#{m}"), Duration.ofMinutes(3), false);
        List<JtlSample> samples = PlanRuns.samples(result.outcome().jtl());
        assertFalse(samples.isEmpty(), result.console());
        assertTrue(samples.stream().noneMatch(s -> s.label().equals("dashboard query")),
                "no query ran on a history that was not written: " + samples.size() + " samples");
        assertTrue(samples.stream().allMatch(s -> s.label().equals("seed batch") && !s.success()), samples.toString());
        assertFalse(result.outcome().ok(), result.outcome().problem());
        assertTrue(result.console().contains("dsload: the setUp thread group 'seed history' failed at 'seed batch': "),
                result.console());
    }

    @Test
    void theReadPlanFailsAQueryThatFindsNoPoints() throws Exception {
        PlanRuns.Result result = PlanRuns.run("kairosdb-read.jmx", Map.of("urls", kairos.url(), "seed_resources", "0",
                "threads", "1", "queries_per_min", "120", "duration", "3", "warmup", "0", "metric_name", "plan.nothing.#{m}"),
                Duration.ofMinutes(3), false);
        assertEquals(Ending.NO_SUCCESS, result.outcome().ending(), "a run of nothing but empty answers measured nothing: "
                + result.outcome().problem() + "\n" + result.console());
        List<JtlSample> samples = PlanRuns.samples(result.outcome().jtl());
        assertFalse(samples.isEmpty());
        for (JtlSample q : samples) {
            assertFalse(q.success(), "a dashboard without data was not served: " + q.responseMessage());
            assertEquals("NO_DATA", q.responseCode());
        }
    }

    /**
     * kairosdb-write.jmx's capacity in hosts by find-max's search, against the shared KairosDB on H2: each
     * step a run of -Jthreads hosts (all from the start, -Jramp_step=0), each reporting 25 metrics every
     * second in one batch. Limits this small load keeps: the steps double up to --max-steps, and the answer
     * is said in hosts.
     */
    @Test
    void theSearchCountsHostsAndEachStepRunsItsHosts() throws Exception {
        FindMaxIT.FindMax run = FindMaxIT.findMax("kairosdb-write.jmx", List.of("-Jurls=" + kairos.url(),
                "-Jramp_step=0", "-Jinterval=1", "-Jmetrics=25", "-Jrepeats=100000", "-Jcross_check=false",
                "-Jmetric_name=find.max.#{m}", "--rate-property=threads", "--unit=hosts", "--start=1", "--max-steps=3",
                "--step-seconds=4", "--settle-seconds=2", "--max-p99=10s", "--max-error-rate=1%"));
        JsonNode json = run.json();
        assertEquals(ExitCodes.OK, run.exit(), run.output());
        List<Integer> hosts = new ArrayList<>();
        for (JsonNode step : json.get("steps")) {
            hosts.add(step.get("rate").asInt());
            // a host sends one batch of 25 points a second, and a point counts as a request: a step's points per
            // second are 25 per host (measured from the window's first batch to its last answer: roughly)
            double perHost = step.get("achievedRate").asDouble() / step.get("rate").asInt();
            assertTrue(perHost > 25 * 0.5 && perHost < 25 * 2, perHost + " points/s per host in " + step);
        }
        assertEquals(List.of(1, 2, 4), hosts, "doubled while kept, up to --max-steps");
        JsonNode answer = json.get("answer");
        assertEquals(4, answer.get("rate").asInt(), json.toString());
        assertEquals("hosts", answer.get("unit").asText());
        String text = Files.readString(run.dir().resolve("find-max.txt"), StandardCharsets.UTF_8);
        assertTrue(text.contains("Answer: threads=4 (4 hosts) kept every limit"), text);
        // a step's summary: the plan's capacity line says how to get the search's answer
        Path step = Path.of(json.get("steps").get(0).get("run").asText());
        String summary = Files.readString(step.resolve("summary.txt"), StandardCharsets.UTF_8);
        assertTrue(summary.contains("dsload find-max test-plans/kairosdb-write.jmx --rate-property=threads --unit=hosts"),
                summary);
        System.out.println("dsload: find-max of kairosdb-write.jmx in hosts:\n" + text);
    }
}
