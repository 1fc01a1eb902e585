package org.dsload.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The folder of a find-max search: never one that a search or a run before it made. */
class FindMaxFolderTest {
    @TempDir
    Path dir;

    private ResultsOptions results(String runId) {
        ResultsOptions results = new ResultsOptions();
        results.root = dir.resolve("results");
        results.runId = runId;
        return results;
    }

    @Test
    void aRunIdUsedBeforeGetsAFolderOfItsOwn() throws Exception {
        Path plan = Path.of("test-plans/redis-get-rate.jmx");
        Path first = FindMaxCommand.searchFolder(results("capacity"), plan);
        Files.writeString(first.resolve("find-max.txt"), "the first search's answer");
        Path second = FindMaxCommand.searchFolder(results("capacity"), plan);
        assertEquals(dir.resolve("results").resolve("capacity").toAbsolutePath(), first);
        assertEquals(dir.resolve("results").resolve("capacity-2").toAbsolutePath(), second);
        try (var files = Files.list(second)) {
            assertEquals(0, files.count(), "nothing of the first search in the second's folder");
        }
    }

    @Test
    void searchesOfOnePlanStartedInOneSecondTakeTwoFolders() throws Exception {
        Path plan = Path.of("test-plans/redis-get-rate.jmx");
        Path first = FindMaxCommand.searchFolder(results(null), plan);
        Path second = FindMaxCommand.searchFolder(results(null), plan);
        assertNotEquals(first, second);
        assertTrue(first.getFileName().toString().matches("\\d{8}-\\d{6}-find-max-redis-get-rate"), first.toString());
        assertTrue(second.getFileName().toString().matches("\\d{8}-\\d{6}-find-max-redis-get-rate(-2)?"), second.toString());
        assertTrue(Files.isDirectory(first) && Files.isDirectory(second));
    }
}
