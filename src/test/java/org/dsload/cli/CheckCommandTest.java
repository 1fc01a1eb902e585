package org.dsload.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.dsload.report.JUnitReportTest;
import org.dsload.report.SyntheticRuns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckCommandTest {
    @TempDir
    Path dir;

    private String console;

    /**
     * 100 "get" samples of 1..100 µs (so p95 is 95µs, p99 99µs), and 4 "set" samples of 2 ms of
     * which one failed.
     */
    private Path results() throws IOException {
        List<String> rows = new ArrayList<>();
        rows.add("timeStamp,elapsed,label,responseCode,responseMessage,success,bytes,sentBytes,SampleCount,dsload_timing");
        for (int i = 1; i <= 100; i++) {
            long start = 1_000_000 + i;
            rows.add(start + ",0,get,OK,OK,true,10,5,1," + start + ":" + i);
        }
        for (int i = 0; i < 4; i++) {
            long start = 2_000_000 + i;
            boolean ok = i != 3;
            rows.add(start + ",2,set," + (ok ? "OK,OK" : "ERR,ERR out of memory") + "," + ok + ",0,5,1,"
                    + start + ":2000");
        }
        Path file = dir.resolve("run.jtl");
        Files.write(file, rows, StandardCharsets.UTF_8);
        return file;
    }

    private String errors;

    private int check(String... args) {
        List<String> all = new ArrayList<>(List.of("check"));
        all.addAll(List.of(args));
        ConsoleRun run = ConsoleRun.of(all.toArray(String[]::new));
        console = run.out();
        errors = run.err();
        return run.code();
    }

    @Test
    void passesWhenEveryLimitIsKept() throws Exception {
        Path jtl = results();
        assertEquals(0, check(jtl.toString(), "--max-p99", "2ms", "--max-error-rate", "1%"), console);
        assertTrue(console.contains("ok      All labels: p99 2ms, within 2ms"), console);
        assertTrue(console.contains("ok      All labels: error rate 0.9615% (1 of 104 requests failed), within 1%"),
                console);
        assertTrue(console.endsWith("dsload check: passed\n"), console);
    }

    @Test
    void withoutALabelTheMeasuredWindowIsJudgedAndTheWarmUpLeftOut() throws Exception {
        Path jtl = results();
        // a slow, failing warm-up before the measured requests: it would fail both limits
        List<String> rows = new ArrayList<>(Files.readAllLines(jtl, StandardCharsets.UTF_8));
        for (int i = 0; i < 50; i++) {
            rows.add((900_000 + i) + ",900,get (warm-up),ERR,ERR cold,false,0,5,1," + (900_000 + i) + ":900000");
        }
        Files.write(jtl, rows, StandardCharsets.UTF_8);
        assertEquals(0, check(jtl.toString(), "--max-p99", "2ms", "--max-error-rate", "1%"), console);
        assertTrue(console.contains("ok      Measured (all labels but the warm-up): p99 2ms, within 2ms"), console);
        assertEquals(1, check(jtl.toString(), "--label", "get (warm-up)", "--max-p99", "2ms"), console);
    }

    @Test
    void failsNamingThePercentileItsValueAndTheLimit() throws Exception {
        Path jtl = results();
        assertEquals(1, check(jtl.toString(), "--label", "get", "--max-p95", "95us", "--max-p99", "98us"), console);
        assertTrue(console.contains("ok      get: p95 95µs, within 95µs"), console);
        assertTrue(console.contains("FAILED  get: p99 99µs is above the limit 98µs"), console);
        assertTrue(console.contains("dsload check: FAILED, 1 limit not kept: get p99 99µs is above the limit 98µs"),
                console);
    }

    @Test
    void failsOnTheErrorRateOfOneLabel() throws Exception {
        Path jtl = results();
        assertEquals(1, check(jtl.toString(), "--label", "set", "--max-error-rate", "10%"), console);
        assertTrue(console.contains("FAILED  set: error rate 25% (1 of 4 requests failed) is above the limit 10%"),
                console);
    }

    @Test
    void lateArrivalsAreALimitToo() throws Exception {
        // 100 arrivals under a schedule: 3 started 20 ms after their intended start, 1 was dropped before one
        List<String> rows = new ArrayList<>();
        rows.add("timeStamp,elapsed,label,responseCode,responseMessage,success,bytes,sentBytes,SampleCount,dsload_timing");
        for (int i = 1; i <= 99; i++) {
            long start = 1_000_000 + i;
            rows.add(start + ",0,get,OK,OK,true,10,5,1," + start + ":50:" + (i <= 3 ? 20_000 : 100) + (i == 50 ? ":1" : ""));
        }
        Path jtl = dir.resolve("late.jtl");
        Files.write(jtl, rows, StandardCharsets.UTF_8);
        assertEquals(1, check(jtl.toString(), "--label", "get", "--max-late", "3%"), console);
        assertTrue(console.contains("FAILED  get: late arrivals 4% (4 of 100 late by more than 10ms or dropped) is above"
                + " the limit 3%"), console);
        assertEquals(0, check(jtl.toString(), "--label", "get", "--max-late", "4%", "--max-p99", "1ms"), console);
        // a run without an arrival schedule keeps it
        assertEquals(0, check(results().toString(), "--label", "get", "--max-late", "0%"), console);
    }

    @Test
    void aLabelWithoutRequestsFailsInsteadOfPassingUnseen() throws Exception {
        Path jtl = results();
        assertEquals(1, check(jtl.toString(), "--label", "GET", "--max-p99", "1s"), console);
        assertTrue(console.contains("FAILED  GET: no requests"), console);
    }

    @Test
    void anyPercentileMayBeLimited() throws Exception {
        Path jtl = results();
        assertEquals(0, check(jtl.toString(), "--label", "get", "--max-p50", "50us", "--max-p99.9", "100us"), console);
        assertEquals(1, check(jtl.toString(), "--label", "get", "--max-p50", "49.9us"), console);
    }

    @Test
    void limitsWithoutAUnitAreRefused() throws Exception {
        Path jtl = results();
        assertEquals(2, check(jtl.toString(), "--max-p99", "20"));
        assertTrue(errors.contains("Invalid value for option '--max-p99': '20' is not a duration with its unit:"
                + " write 500us, 20ms or 1.5s"), errors);
        assertEquals(2, check(jtl.toString(), "--max-error-rate", "0.01"));
        assertTrue(errors.contains("Invalid value for option '--max-error-rate': '0.01' is not a percentage:"
                + " write it with its % sign, such as 1% or 0.5%"), errors);
        assertEquals(2, check(jtl.toString()));
        assertTrue(errors.contains("check needs at least one limit"), errors);
        assertEquals(2, check(jtl.toString(), "--max-p0", "1ms"));
        assertTrue(errors.contains("--max-p0: the percentile must lie above 0 and at most 100"), errors);
        assertTrue(console.isEmpty(), "a refused command line judges nothing: " + console);
    }

    @Test
    void aMissingResultsFileFailsWithItsName() {
        assertEquals(1, check(dir.resolve("none.jtl").toString(), "--max-p99", "1s"));
        assertTrue(errors.contains("dsload: no results file at " + dir.resolve("none.jtl")), errors);
    }

    private Path run(String name, SyntheticRuns runs) throws IOException {
        return runs.write(dir.resolve(name), "plan").getParent();
    }

    @Test
    void aRunFolderIsJudgedByTheResultsItsRunWrote() throws Exception {
        Path folder = run("run", new SyntheticRuns(1).label("GET", 3, 100, 100, 100));
        assertEquals(0, check(folder.toString(), "--label", "GET", "--max-p99", "1ms"), console + errors);
        assertTrue(console.startsWith("dsload check of " + folder.resolve("plan.jtl")), console);
        Files.createDirectories(dir.resolve("empty"));
        assertEquals(1, check(dir.resolve("empty").toString(), "--max-p99", "1ms"));
        assertTrue(errors.contains("no results in " + dir.resolve("empty")), errors);
    }

    @Test
    void aBaselineLimitsTheChangeOfEachLabelBothRunsHave() throws Exception {
        Path before = run("before", new SyntheticRuns(1).label("GET", 12, 200, 100, 100).label("SET", 12, 50, 300, 100));
        Path after = run("after", new SyntheticRuns(2).label("GET", 12, 200, 2100, 100).label("SET", 12, 25, 300, 100));
        assertEquals(1, check(after.toString(), "--baseline", before.toString(), "--max-p99-increase", "10%",
                "--max-throughput-decrease", "5%"), console + errors);
        assertTrue(console.contains("Baseline: " + before.resolve("plan.jtl")), console);
        assertTrue(console.matches("(?s).*FAILED  GET: p99 2\\.19\\dms against 198µs in the baseline: \\+10\\d\\d\\.\\d+%,"
                + " above the limit \\+10%.*"), console);
        assertTrue(console.contains("ok      GET: throughput "), console);
        assertTrue(console.contains("FAILED  SET: throughput 25"), console);
        assertTrue(console.contains("in the baseline: -49.") && console.contains("below the limit -5%"), console);
        assertTrue(console.matches("(?s).*ok      SET: p99 \\S+ against \\S+ in the baseline: [+-]\\d+(\\.\\d+)?%, within"
                + " \\+10%.*"), console);
        assertTrue(console.contains("dsload check: FAILED, 2 limits not kept"), console);

        Path same = run("same", new SyntheticRuns(3).label("GET", 12, 200, 100, 100).label("SET", 12, 50, 300, 100));
        assertEquals(0, check(same.toString(), "--baseline", before.toString(), "--max-p99-increase", "10%",
                "--max-p50-increase", "10%", "--max-throughput-decrease", "5%"), console);
        assertEquals(0, check(same.toString(), "--baseline", before.toString(), "--label", "SET",
                "--max-p99.9-increase", "5%"), console);
        assertTrue(console.contains("ok      SET: p99.9") && !console.contains("GET"), console);
        assertEquals(1, check(after.toString(), "--baseline", before.toString(), "--label", "GET",
                "--max-p99-increase", "1000%"), console);
        assertEquals(0, check(after.toString(), "--baseline", before.toString(), "--label", "GET",
                "--max-p99-increase", "1200%"), console);
        assertTrue(console.contains("within +1200%"), console);
    }

    @Test
    void aBaselineWithoutALabelInCommonIsAUsageErrorBeforeJudging() throws Exception {
        Path before = run("before", new SyntheticRuns(1).label("HGET", 3, 10, 100, 100));
        Path after = run("after", new SyntheticRuns(2).label("GET", 3, 10, 100, 100).label("SET", 3, 10, 100, 100));
        assertEquals(2, check(after.toString(), "--baseline", before.toString(), "--max-p99-increase", "10%",
                "--junit", dir.resolve("report.xml").toString()));
        assertTrue(errors.contains("the run and the baseline have no label in common: " + after.resolve("plan.jtl")
                + " has 'GET', 'SET', the baseline " + before.resolve("plan.jtl") + " has 'HGET'"), errors);
        assertTrue(console.isEmpty(), console);
        assertTrue(!Files.exists(dir.resolve("report.xml")), "nothing judged, nothing written");
    }

    @Test
    void aBaselineWithoutResultsOrLimitsIsAUsageError() throws Exception {
        Path after = run("after", new SyntheticRuns(2).label("GET", 3, 10, 100, 100));
        Files.createDirectories(dir.resolve("empty"));
        assertEquals(2, check(after.toString(), "--baseline", dir.resolve("empty").toString(), "--max-p99-increase",
                "10%"));
        assertTrue(errors.contains("--baseline: no results in " + dir.resolve("empty")), errors);
        assertEquals(2, check(after.toString(), "--max-p99-increase", "10%"));
        assertTrue(errors.contains("judge against a baseline: add --baseline <run>"), errors);
        assertEquals(2, check(after.toString(), "--baseline", after.toString(), "--max-p99", "1s"));
        assertTrue(errors.contains("--baseline needs a limit on the change"), errors);
        assertEquals(2, check(after.toString(), "--baseline", after.toString(), "--max-p99-increase", "10"));
        assertTrue(errors.contains("'10' is not a percentage"), errors);
        assertTrue(console.isEmpty(), console);
    }

    @Test
    void junitWritesOneCaseALimitAndLabelWithTheMeasuredValueInEachFailure() throws Exception {
        Path before = run("before", new SyntheticRuns(1).label("GET", 12, 200, 100, 100));
        Path after = run("after", new SyntheticRuns(2).label("GET", 12, 200, 2100, 100));
        Path xml = dir.resolve("reports/TEST-dsload.xml");
        assertEquals(1, check(after.toString(), "--label", "GET", "--max-p99", "20ms", "--max-error-rate", "1%",
                "--baseline", before.toString(), "--max-p99-increase", "10%", "--junit", xml.toString()), console);
        assertTrue(console.contains("dsload check: JUnit report " + xml), console);
        String text = Files.readString(xml, StandardCharsets.UTF_8);
        JUnitReportTest.validate(text);
        org.w3c.dom.Element suite = JUnitReportTest.parse(text).getDocumentElement();
        assertEquals("dsload.plan", suite.getAttribute("name"));
        assertEquals("3", suite.getAttribute("tests"));
        assertEquals("1", suite.getAttribute("failures"));
        org.w3c.dom.NodeList cases = suite.getElementsByTagName("testcase");
        assertEquals("GET p99 <= 20ms", ((org.w3c.dom.Element) cases.item(0)).getAttribute("name"));
        assertEquals("GET error rate <= 1%", ((org.w3c.dom.Element) cases.item(1)).getAttribute("name"));
        org.w3c.dom.Element breached = (org.w3c.dom.Element) cases.item(2);
        assertEquals("GET p99 increase <= 10%", breached.getAttribute("name"));
        String message = ((org.w3c.dom.Element) breached.getElementsByTagName("failure").item(0)).getAttribute("message");
        assertTrue(message.matches("GET: p99 2\\.19\\dms against 198µs in the baseline: \\+10\\d\\d\\.\\d+%, above the"
                + " limit \\+10%"), message);
    }

    @Test
    void durationsAndPercentagesParse() {
        assertEquals(20_000, new OptionValues.Micros().convert("20ms"));
        assertEquals(1_500_000, new OptionValues.Micros().convert("1.5s"));
        assertEquals(500, new OptionValues.Micros().convert("500µs"));
        assertEquals(0.005, new OptionValues.Ratio().convert("0.5%"), 1e-12);
    }
}
