package org.dsload.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.dsload.report.SyntheticRuns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompareCommandTest {
    @TempDir
    Path dir;

    private String console;
    private String errors;

    private int compare(String... args) {
        List<String> all = new ArrayList<>(List.of("compare"));
        all.addAll(List.of(args));
        ConsoleRun run = ConsoleRun.of(all.toArray(String[]::new));
        console = run.out();
        errors = run.err();
        return run.code();
    }

    private Path run(String name, SyntheticRuns runs) throws IOException {
        return runs.write(dir.resolve(name), "plan").getParent();
    }

    @Test
    void alikeRunsExitZeroAndTheFilesGoBesideTheSecondRun() throws Exception {
        Path a = run("a", new SyntheticRuns(1).label("GET", 12, 200, 100, 100));
        Path b = run("b", new SyntheticRuns(2).label("GET", 12, 200, 100, 100));
        assertEquals(0, compare(a.toString(), b.toString()), console + errors);
        assertTrue(console.contains("within noise"), console);
        assertEquals(console.substring(0, console.indexOf("dsload: wrote")),
                Files.readString(b.resolve("compare.txt"), StandardCharsets.UTF_8));
        assertTrue(Files.readString(b.resolve("compare.json"), StandardCharsets.UTF_8).contains("\"regressed\":false"));
        assertTrue(Files.size(b.resolve("compare-latency.png")) > 1000);
    }

    @Test
    void aRegressionExitsOneAndOutPutsTheFilesWhereAsked() throws Exception {
        Path a = run("a", new SyntheticRuns(1).label("GET", 12, 200, 100, 100));
        Path b = run("b", new SyntheticRuns(2).label("GET", 12, 200, 2100, 100));
        Path out = dir.resolve("out");
        assertEquals(1, compare(a.resolve("plan.jtl").toString(), b.toString(), "--out", out.toString()), console);
        assertTrue(console.contains("dsload compare: REGRESSED beyond the noise: GET p99 +10"), console);
        assertTrue(Files.readString(out.resolve("compare.json"), StandardCharsets.UTF_8)
                .contains("\"test\":\"Mann-Whitney U\""));
        assertTrue(!Files.exists(b.resolve("compare.txt")));
    }

    @Test
    void badInputIsAUsageError() throws Exception {
        Path a = run("a", new SyntheticRuns(1).label("GET", 3, 10, 100, 100));
        Path b = run("b", new SyntheticRuns(2).label("SET", 3, 10, 100, 100));
        assertEquals(2, compare(a.toString(), b.toString()));
        assertTrue(errors.contains("the runs have no label in common: " + a.resolve("plan.jtl") + " has 'GET', "
                + b.resolve("plan.jtl") + " has 'SET'"), errors);
        Files.createDirectories(dir.resolve("empty"));
        assertEquals(2, compare(a.toString(), dir.resolve("empty").toString()));
        assertTrue(errors.contains("no results in " + dir.resolve("empty")), errors);
        assertEquals(2, compare(a.toString(), dir.resolve("missing").toString()));
        assertTrue(errors.contains("no results file at " + dir.resolve("missing")), errors);
        assertEquals(2, compare(a.toString(), a.toString(), "--alpha", "2"));
        assertTrue(errors.contains("--alpha lies between 0 and 1"), errors);
        assertTrue(console.isEmpty(), console);
    }
}
