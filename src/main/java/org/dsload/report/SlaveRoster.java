package org.dsload.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The slaves of a distributed run and what became of them, as the runner leaves it in
 * {@code slaves/roster.tsv} of the run's folder: one line per slave, {@code address state time
 * detail}, tab separated. The address is the {@code host:port} the master used, which JMeter puts
 * in front of every thread name of that slave.
 */
public final class SlaveRoster {
    public static final String FILE = "slaves/roster.tsv";

    /** What happened to a slave. */
    public enum State {
        /** Took part to the end. */
        USED,
        /** Stopped answering during the run; its samples up to then are in the results. */
        LOST,
        /** Still there, but silent (frozen) when the run ended without it; its samples up to then are in the results. */
        STALLED,
        /** Could not be reached before the run and was left out. */
        MISSING,
        /**
         * Took part to the end, but what it kept on its own machine (server gauges, the counts of the
         * cross-checks, histograms) could not be fetched after the run; its samples are in the results.
         */
        UNFETCHED,
        /**
         * Answered nothing for a while during the run (its link cut, or its process frozen), then
         * answered again and took part to the end; its load was not the plan's meanwhile.
         */
        RESUMED
    }

    /**
     * One slave; {@code time} (epoch ms) is when it was found missing, went lost or silent (also one that
     * resumed), or its recordings could not be fetched; 0 for a used one.
     */
    public record Entry(String address, State state, long time, String detail) {
    }

    private final List<Entry> entries;

    public SlaveRoster(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    public List<Entry> entries() {
        return entries;
    }

    public List<Entry> in(State state) {
        return entries.stream().filter(e -> e.state() == state).toList();
    }

    /** Slaves that ran the plan, lost ones included. */
    public List<String> ranThePlan() {
        return entries.stream().filter(e -> e.state() != State.MISSING).map(Entry::address).toList();
    }

    public static Optional<SlaveRoster> read(Path runDir) throws IOException {
        Path file = runDir.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        List<Entry> entries = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t", 4);
            try {
                entries.add(new Entry(f[0], State.valueOf(f[1].toUpperCase(java.util.Locale.ROOT)),
                        Long.parseLong(f[2]), f.length > 3 ? f[3] : ""));
            } catch (RuntimeException e) {
                throw new IOException(file + ": cannot read the line '" + line + "'", e);
            }
        }
        return Optional.of(new SlaveRoster(entries));
    }

    public void write(Path runDir) throws IOException {
        StringBuilder text = new StringBuilder("# address\tstate\ttime (epoch ms)\tdetail\n");
        for (Entry e : entries) {
            text.append(e.address()).append('\t').append(e.state().name().toLowerCase(java.util.Locale.ROOT))
                    .append('\t').append(e.time()).append('\t')
                    .append(e.detail().replace('\t', ' ').replace('\n', ' ')).append('\n');
        }
        Path file = runDir.resolve(FILE);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
