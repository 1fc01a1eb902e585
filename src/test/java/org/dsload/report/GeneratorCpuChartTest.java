package org.dsload.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

/** The generator CPU chart of a run with a master and two slaves: six lines a reader must tell apart. */
class GeneratorCpuChartTest {
    /** Below this distance in RGB two line colours read as one (XChart's orange and yellow are 43 apart). */
    private static final double DISTINCT = 80;

    @TempDir
    Path run;

    private void cpu(String engine) throws IOException {
        Path dir = Files.createDirectories(run.resolve("generator").resolve(engine));
        Files.writeString(dir.resolve("jvm.cpu.process.csv"), "t,value\n1000,10\n1001,20\n");
        Files.writeString(dir.resolve("jvm.cpu.system.csv"), "t,value\n1000,50\n1001,60\n");
    }

    @Test
    void everyLineHasAColourFarFromEveryOther() throws IOException {
        cpu("master");
        cpu("slave-127.0.0.2_1099");
        cpu("slave-127.0.0.3_1099");
        XYChart chart = RunCharts.generatorCpu(GeneratorCsv.read(run), 1000);
        List<XYSeries> series = new ArrayList<>(chart.getSeriesMap().values());
        assertEquals(6, series.size());
        for (int i = 0; i < series.size(); i++) {
            for (int j = i + 1; j < series.size(); j++) {
                Color a = series.get(i).getLineColor();
                Color b = series.get(j).getLineColor();
                double d = Math.sqrt(Math.pow(a.getRed() - b.getRed(), 2) + Math.pow(a.getGreen() - b.getGreen(), 2)
                        + Math.pow(a.getBlue() - b.getBlue(), 2));
                assertTrue(d >= DISTINCT, series.get(i).getName() + " " + a + " and " + series.get(j).getName() + " " + b
                        + " are only " + Math.round(d) + " apart");
            }
        }
    }
}
