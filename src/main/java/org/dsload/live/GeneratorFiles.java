package org.dsload.live;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
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
    /** The engines write a line a second: a scrape and the live line within this share one read. */
    static final Duration READ_EVERY = Duration.ofMillis(500);
    /**
     * The engines' folders are listed again this often (a local slave's appears when it starts), and
     * at every read while none was found.
     */
    static final Duration LIST_EVERY = Duration.ofSeconds(2);
    private final Path runDir;
    private final long readEveryNanos;
    private final long listEveryNanos;
    private List<Engine> engines = List.of();
    private long listedNanos;
    private long readNanos;
    private boolean read;
    private Map<String, Double> cpu = Map.of();
    private Map<String, Double> targetRate = Map.of();

    /** One engine's folder of figures, with the paths of the two files read from it. */
    private record Engine(String name, Path cpu, Path targetRate) {
    }

    public GeneratorFiles(Path runDir) {
        this(runDir, READ_EVERY, LIST_EVERY);
    }

    GeneratorFiles(Path runDir, Duration readEvery, Duration listEvery) {
        this.runDir = runDir;
        this.readEveryNanos = readEvery.toNanos();
        this.listEveryNanos = listEvery.toNanos();
    }

    /** CPU in per cent of all cores by engine, as last written; empty when none could be read. */
    public synchronized Map<String, Double> cpu() {
        readIfDue();
        return cpu;
    }

    /** Target arrivals per second by engine, for engines with a schedule. */
    public synchronized Map<String, Double> targetRate() {
        readIfDue();
        return targetRate;
    }

    /**
     * Reads the last value of both figures' files of every engine, at most once every {@link
     * #READ_EVERY}: each folder's {@code generator/} (the run folder's, the local slaves') listed at
     * most once every {@link #LIST_EVERY}, no walk through the rest of the run folder, which a
     * scrape would otherwise pay for every second (histograms mode writes a file per label and engine).
     */
    private void readIfDue() {
        long now = System.nanoTime();
        if (runDir == null || read && now - readNanos < readEveryNanos) {
            return;
        }
        read = true;
        readNanos = now;
        if (engines.isEmpty() || now - listedNanos >= listEveryNanos) {
            listedNanos = now;
            engines = list();
        }
        Map<String, Double> cpus = new TreeMap<>();
        Map<String, Double> rates = new TreeMap<>();
        for (Engine engine : engines) {
            double value = lastValue(engine.cpu());
            if (value >= 0) {
                cpus.put(engine.name(), value);
            }
            double rate = lastValue(engine.targetRate());
            if (rate > 0) {
                rates.put(engine.name(), rate);
            }
        }
        cpu = Collections.unmodifiableMap(cpus);
        targetRate = Collections.unmodifiableMap(rates);
    }

    private List<Engine> list() {
        List<Path> roots;
        try {
            roots = RunFiles.find(runDir, GeneratorCsv.FOLDER);
        } catch (IOException | RuntimeException e) {
            return engines; // a folder that changes while it is listed: the next listing tries again
        }
        List<Engine> found = new ArrayList<>();
        for (Path root : roots) {
            try (DirectoryStream<Path> folders = Files.newDirectoryStream(root)) {
                for (Path engine : folders) {
                    found.add(new Engine(engine.getFileName().toString(), engine.resolve(CPU),
                            engine.resolve(TARGET_RATE)));
                }
            } catch (IOException | RuntimeException e) {
                // not a folder (yet), or one that changes while it is listed
            }
        }
        return found;
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
