package org.dsload.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.apache.jmeter.util.JMeterUtils;
import org.dsload.core.GeneratorMetrics;
import org.dsload.report.GeneratorCsv;
import org.dsload.testing.JMeterRuntime;
import org.dsload.run.PlanRunner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GeneratorMetricsElementTest {
    @TempDir
    Path run;

    @AfterEach
    void forgetRunDir() {
        JMeterUtils.getJMeterProperties().remove(PlanRunner.RUN_DIR_PROPERTY);
    }

    @Test
    void aSlaveRecordsItsFiguresEachSecondInAFolderNamedForIt() throws Exception {
        JMeterRuntime.init();
        JMeterUtils.setProperty(PlanRunner.RUN_DIR_PROPERTY, run.toString());
        GeneratorMetricsElement element = new GeneratorMetricsElement();
        element.testStarted("127.0.0.2:1099");
        assertEquals("slave-127.0.0.2_1099", JMeterUtils.getProperty(EngineMetrics.ENGINE_PROPERTY),
                "plans read the engine's name to keep the keys of several slaves apart");
        GeneratorMetrics.bytes(100, 2000);
        Thread.sleep(2200);
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
        long rows = Files.readAllLines(run.resolve("generator/slave-127.0.0.2_1099/jvm.cpu.process.csv")).size();
        Thread.sleep(1200);
        assertEquals(rows, Files.readAllLines(run.resolve("generator/slave-127.0.0.2_1099/jvm.cpu.process.csv")).size(),
                "reporting stopped with the test");
    }

    @Test
    void reportingRunsWhileAnyElementOfTheTestIsStillRunning() throws Exception {
        JMeterRuntime.init();
        JMeterUtils.setProperty(PlanRunner.RUN_DIR_PROPERTY, run.toString());
        GeneratorMetricsElement first = new GeneratorMetricsElement();
        GeneratorMetricsElement second = new GeneratorMetricsElement();
        first.testStarted();
        second.testStarted();
        assertEquals("master", JMeterUtils.getProperty(EngineMetrics.ENGINE_PROPERTY));
        first.testEnded();
        Path file = run.resolve("generator/master/jvm.cpu.process.csv");
        long before = Files.exists(file) ? Files.readAllLines(file).size() : 0;
        Thread.sleep(2200);
        assertTrue(Files.readAllLines(file).size() > before, "still reporting");
        second.testEnded();
    }
}
