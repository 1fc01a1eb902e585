package org.dsload.live;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.dsload.core.GeneratorMetrics;
import org.dsload.core.format.RunFiles;
import org.dsload.report.GeneratorCsv;

/**
 * The generator's figures of every engine that records them under the run folder (the engine of
 * a local run, the master and the local slaves of a distributed one, each in
 * {@code generator/<engine>/<figure>.csv}), from the last line of each file: its CPU
 * ({@value #CPU}) and the arrivals per second its schedules aim at ({@value #TARGET_RATE}). Slaves
 * on other machines keep theirs until the run ends, so they have none here.
 */
public final class GeneratorFiles {
    static final String CPU = "jvm.cpu.process.csv";
    static final String TARGET_RATE = GeneratorMetrics.ARRIVALS_TARGET_RATE + ".csv";
    private final Path runDir;

    public GeneratorFiles(Path runDir) {
        this.runDir = runDir;
    }

    /** CPU in per cent of all cores by engine, as last written; empty when none could be read. */
    public Map<String, Double> cpu() {
        return latest(CPU);
    }

    /** Target arrivals per second by engine, for engines with a schedule. */
    public Map<String, Double> targetRate() {
        Map<String, Double> rates = latest(TARGET_RATE);
        rates.values().removeIf(rate -> !(rate > 0));
        return rates;
    }

    /**
     * The last value of a figure's file, by engine: each folder's {@code generator/} (the run folder's,
     * the local slaves') listed, no walk through the rest of the run folder, which a scrape would
     * otherwise pay for every second (histograms mode writes a file per label and engine).
     */
    private Map<String, Double> latest(String file) {
        Map<String, Double> values = new TreeMap<>();
        if (runDir == null) {
            return values;
        }
        List<Path> roots;
        try {
            roots = RunFiles.find(runDir, GeneratorCsv.FOLDER);
        } catch (IOException | RuntimeException e) {
            return values; // a folder that changes while it is listed: the next second lists it again
        }
        for (Path root : roots) {
            try (DirectoryStream<Path> engines = Files.newDirectoryStream(root)) {
                for (Path engine : engines) {
                    double value = lastValue(engine.resolve(file));
                    if (value >= 0) {
                        values.put(engine.getFileName().toString(), value);
                    }
                }
            } catch (IOException | RuntimeException e) {
                // not a folder (yet), or one that changes while it is listed
            }
        }
        return values;
    }

    /** The value of the last complete line ({@code <epoch s>,<value>}), or -1. */
    static double lastValue(Path file) {
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long length = in.length();
            int tail = (int) Math.min(length, 256);
            byte[] bytes = new byte[tail];
            in.seek(length - tail);
            in.readFully(bytes);
            String text = new String(bytes, StandardCharsets.US_ASCII);
            int end = text.lastIndexOf('\n');
            if (end <= 0) {
                return -1;
            }
            int start = text.lastIndexOf('\n', end - 1) + 1;
            String line = text.substring(start, end).trim();
            int comma = line.lastIndexOf(',');
            return comma < 0 ? -1 : Double.parseDouble(line.substring(comma + 1));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
