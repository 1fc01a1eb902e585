package org.dsload.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunComparisonTest {
    @TempDir
    Path dir;

    private RunComparison.Run run(String name, SyntheticRuns runs) throws Exception {
        return RunComparison.Run.read(runs.write(dir.resolve(name), "plan").getParent());
    }

    private RunComparison compare(SyntheticRuns a, SyntheticRuns b) throws Exception {
        return RunComparison.of(run("a", a), run("b", b), RunComparison.DEFAULT_ALPHA, RunComparison.DEFAULT_MIN_CHANGE);
    }

    @Test
    void alikeRunsAreWithinNoise() throws Exception {
        RunComparison c = compare(new SyntheticRuns(1).label("GET", 12, 200, 100, 100),
                new SyntheticRuns(2).label("GET", 12, 200, 100, 100));
        assertFalse(c.regressed(), c.text());
        RunComparison.Label get = c.labels().get(0);
        assertEquals(10, get.latency().test().n1(), "the first and last second are left out");
        assertTrue(get.latency().judged());
        assertTrue(c.text().contains("dsload compare: no label regressed beyond the noise (within noise)"), c.text());
        assertTrue(c.text().contains("two-sided Mann-Whitney U test"), c.text());
    }

    @Test
    void aSlowerRunRegressesOnItsP99() throws Exception {
        RunComparison c = compare(new SyntheticRuns(1).label("GET", 12, 200, 100, 100),
                new SyntheticRuns(2).label("GET", 12, 200, 2100, 100));
        assertTrue(c.regressed(), c.text());
        RunComparison.Label get = c.labels().get(0);
        assertTrue(get.latency().regressed(), get.latency().verdict());
        assertFalse(get.throughput().regressed(), get.throughput().verdict());
        assertTrue(get.figure("p99").change() > 9, "p99 went from about 0.2 ms to 2.2 ms: " + get.figure("p99"));
        assertTrue(c.text().matches("(?s).*GET +p99 +198µs +2\\.19\\dms +\\+\\d+\\.\\d+% +p99 p=\\S+ \\(10 vs 10 s\\), "
                + "REGRESSED.*"), c.text());
        assertTrue(c.json().contains("\"regressed\":true"), c.json());
    }

    @Test
    void aFasterRunIsBetterNotRegressed() throws Exception {
        RunComparison c = compare(new SyntheticRuns(1).label("GET", 12, 200, 2100, 100),
                new SyntheticRuns(2).label("GET", 12, 200, 100, 100));
        assertFalse(c.regressed(), c.text());
        assertTrue(c.labels().get(0).latency().verdict().endsWith("better beyond noise"), c.text());
        assertTrue(c.text().endsWith("dsload compare: no label regressed beyond the noise\n"), c.text());
    }

    @Test
    void aRunWithLessThroughputRegressesOnIt() throws Exception {
        RunComparison c = compare(new SyntheticRuns(1).label("GET", 12, 200, 100, 100).label("SET", 12, 50, 300, 100),
                new SyntheticRuns(2).label("GET", 12, 200, 100, 100).label("SET", 12, 25, 300, 100));
        RunComparison.Label set = c.labels().get(1);
        assertEquals("SET", set.label());
        assertTrue(set.throughput().regressed(), set.throughput().verdict());
        assertFalse(c.labels().get(0).regressed(), c.text());
        assertTrue(c.text().contains("REGRESSED beyond the noise: SET throughput -49."), c.text());
    }

    @Test
    void aSmallChangeTheTestFindsIsNoRegression() throws Exception {
        // 5 % slower in every second: beyond the noise, not beyond the 10 % that counts
        RunComparison c = compare(new SyntheticRuns(1).label("GET", 12, 200, 1000, 20),
                new SyntheticRuns(2).label("GET", 12, 200, 1050, 20));
        assertFalse(c.regressed(), c.text());
        assertTrue(c.labels().get(0).latency().verdict().endsWith("worse beyond noise but by less than 10%"), c.text());
    }

    @Test
    void runsTooShortForTheTestSaySo() throws Exception {
        RunComparison c = compare(new SyntheticRuns(1).label("GET", 5, 200, 100, 100),
                new SyntheticRuns(2).label("GET", 5, 200, 2100, 100));
        assertFalse(c.regressed(), "three whole seconds each cannot reach alpha 0.01");
        assertTrue(c.labels().get(0).latency().verdict().startsWith("cannot tell: too few whole seconds (3 vs 3 s)"),
                c.text());
    }

    @Test
    void runsWithoutALabelInCommonAreRefusedNamingTheLabels() throws Exception {
        RunComparison.Run a = run("a", new SyntheticRuns(1).label("GET", 12, 10, 100, 100));
        RunComparison.Run b = run("b", new SyntheticRuns(2).label("SET", 12, 10, 100, 100).label("DEL", 12, 10, 1, 1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RunComparison.of(a, b, 0.01, 0.1));
        assertTrue(e.getMessage().contains("no label in common") && e.getMessage().contains("has 'GET'")
                && e.getMessage().contains("has 'SET', 'DEL'"), e.getMessage());
    }

    @Test
    void aRunFolderIsFoundByItsRecordAndAFolderWithoutResultsIsNamed() throws Exception {
        Path jtl = new SyntheticRuns(1).label("GET", 3, 10, 100, 100).write(dir.resolve("run"), "my-plan");
        Files.writeString(dir.resolve("run").resolve("other.jtl"), "timeStamp,elapsed,label,success\n");
        assertEquals(jtl, RunResults.find(dir.resolve("run")), "run.properties names the plan");
        assertEquals(jtl, RunResults.find(jtl));
        Files.createDirectories(dir.resolve("empty"));
        java.io.IOException e = assertThrows(java.io.IOException.class, () -> RunResults.find(dir.resolve("empty")));
        assertTrue(e.getMessage().startsWith("no results in " + dir.resolve("empty")), e.getMessage());
    }

    @Test
    void theChartOverlaysBothRuns() throws Exception {
        RunComparison c = compare(new SyntheticRuns(1).label("GET", 12, 200, 100, 100),
                new SyntheticRuns(2).label("GET", 12, 200, 2100, 100));
        Path png = ComparisonChart.write(c, dir.resolve("out"));
        assertTrue(Files.size(png) > 1000, "a PNG was drawn: " + png);
    }
}
