package org.dsload.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.apache.jmeter.util.JMeterUtils;
import org.dsload.core.GeneratorMetrics;
import org.dsload.core.format.RunProperties;
import org.dsload.process.Deadline;
import org.dsload.report.GeneratorCsv;
import org.dsload.testing.JMeterRuntime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GeneratorMetricsElementTest {
    @TempDir
    Path run;

    @AfterEach
    void forgetRunDir() {
        JMeterUtils.getJMeterProperties().remove(RunProperties.RUN_DIR);
    }

    @Test
    void aSlaveRecordsItsFiguresEachSecondInAFolderNamedForIt() throws Exception {
        JMeterRuntime.init();
        JMeterUtils.setProperty(RunProperties.RUN_DIR, run.toString());
        GeneratorMetricsElement element = new GeneratorMetricsElement();
        element.testStarted("127.0.0.2:1099");
        assertEquals("slave-127.0.0.2_1099", JMeterUtils.getProperty(RunProperties.ENGINE),
                "plans read the engine's name to keep the keys of several slaves apart");
        GeneratorMetrics.bytes(100, 2000);
        Path cpu = run.resolve("generator/slave-127.0.0.2_1099/jvm.cpu.process.csv");
        assertTrue(Deadline.await(() -> lines(cpu) >= 3, Duration.ofSeconds(20), Duration.ofMillis(50)),
                "a header and a reading each second: " + lines(cpu) + " lines");
        assertTrue(reporterThreads("slave-127.0.0.2_1099") > 0, "the engine's reporter runs in a thread of its own");
        element.testEnded("127.0.0.2:1099");

        List<GeneratorCsv.Engine> engines = GeneratorCsv.read(run);
        assertEquals(List.of("slave-127.0.0.2_1099"), engines.stream().map(GeneratorCsv.Engine::name).toList());
        GeneratorCsv.Engine slave = engines.get(0);
        assertTrue(slave.series(GeneratorCsv.PROCESS_CPU).size() >= 3, "a reading each second and a last one");
        assertEquals(100, slave.last(GeneratorCsv.BYTES_SENT));
        assertEquals(2000, slave.last(GeneratorCsv.BYTES_RECEIVED));
        assertEquals(Runtime.getRuntime().availableProcessors(), slave.last(GeneratorCsv.CORES));
        assertTrue(slave.peak(GeneratorCsv.HEAP_USED) > 0);
        assertTrue(slave.peak(GeneratorCsv.JVM_THREADS) > 1);
        long rows = lines(cpu);
        assertTrue(Deadline.await(() -> reporterThreads("slave-127.0.0.2_1099") == 0, Duration.ofSeconds(10),
                Duration.ofMillis(20)), "reporting stopped with the test: its reporter thread is gone");
        assertEquals(rows, lines(cpu), "and wrote nothing after the test's end");
    }

    private static long lines(Path file) {
        try {
            return Files.exists(file) ? Files.readAllLines(file).size() : 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The live threads of the engine's metrics reporter (Dropwizard names them for the reporter). */
    private static long reporterThreads(String engine) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().contains("dsload-generator-metrics-" + engine)).count();
    }

    @Test
    void reportingRunsWhileAnyElementOfTheTestIsStillRunning() throws Exception {
        JMeterRuntime.init();
        JMeterUtils.setProperty(RunProperties.RUN_DIR, run.toString());
        GeneratorMetricsElement first = new GeneratorMetricsElement();
        GeneratorMetricsElement second = new GeneratorMetricsElement();
        first.testStarted();
        second.testStarted();
        assertEquals("master", JMeterUtils.getProperty(RunProperties.ENGINE));
        first.testEnded();
        Path file = run.resolve("generator/master/jvm.cpu.process.csv");
        long before = lines(file);
        assertTrue(Deadline.await(() -> lines(file) > before, Duration.ofSeconds(10), Duration.ofMillis(50)),
                "still reporting");
        second.testEnded();
    }
}
