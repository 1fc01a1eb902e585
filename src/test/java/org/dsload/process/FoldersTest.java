package org.dsload.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FoldersTest {

    @Test
    void aTakenNameGetsTheNextNumber(@TempDir Path root) throws Exception {
        assertEquals(root.resolve("20261204-120000-plan").toAbsolutePath(), Folders.fresh(root, "20261204-120000-plan"));
        assertEquals(root.resolve("20261204-120000-plan-2").toAbsolutePath(), Folders.fresh(root, "20261204-120000-plan"));
        Files.createDirectory(root.resolve("20261204-120000-plan-3"));
        assertEquals(root.resolve("20261204-120000-plan-4").toAbsolutePath(), Folders.fresh(root, "20261204-120000-plan"));
    }

    /** Runs started in the same second into one results root, as two bin/dsload run side by side. */
    @Test
    void runsStartedTogetherEachGetAFolderOfTheirOwn(@TempDir Path root) throws Exception {
        int runs = 16;
        for (int round = 0; round < 20; round++) {
            String base = "20261204-120000-round" + round;
            ExecutorService pool = Executors.newFixedThreadPool(runs);
            CountDownLatch go = new CountDownLatch(1);
            try {
                List<Future<Path>> made = new ArrayList<>();
                for (int i = 0; i < runs; i++) {
                    made.add(pool.submit(() -> {
                        go.await();
                        return Folders.fresh(root, base);
                    }));
                }
                go.countDown();
                Set<Path> folders = new HashSet<>();
                for (Future<Path> f : made) {
                    folders.add(f.get(10, TimeUnit.SECONDS));
                }
                assertEquals(runs, folders.size(), "one folder each: " + folders);
                assertTrue(folders.stream().allMatch(Files::isDirectory), folders.toString());
            } finally {
                pool.shutdownNow();
            }
        }
    }
}
