package org.dsload.live;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import org.dsload.core.format.GaugeTable;

/**
 * The server gauges the engines record under the run folder (each store's gauge file, in the run
 * folder and each local slave's folder, {@code gauges.GaugeRecorder} and ZooKeeper's mntr file): the
 * latest reading of every server, as numbers. A gauge file's store is the first word of its name
 * ({@code redis} for {@code redis-info.tsv}, {@code zk} for {@code zk-mntr.tsv}).
 *
 * <p>Read when asked (at a scrape), at most once every {@link #READ_EVERY}: each file from where the
 * last read stopped, complete lines only, so a scrape costs what was appended since; the folders are
 * listed again at each read, so a file that appears later is picked up (one whose first line is no
 * gauge file's header is not read again). Where several engines read the same server, the newest
 * line wins. A server whose latest line says it did not answer has no reading until it answers
 * again; a column that is not a number (a role, a note) has none. Nothing runs between scrapes: the
 * reading ends with the endpoint.
 *
 * <p>A slave on another machine keeps its files there until the run ends: in a run that serves
 * metrics in rows mode every slave sends each reading's lines to the master as it writes them
 * ({@link #streamed}, {@code core.GaugeStream}), and the slaves' folders are not read (one way per
 * server, whatever machine the slave is on); in histograms mode those of the slaves on this machine are.
 * A server's newest line wins however it came, so a server that several engines read has one series.
 */
public final class ServerGaugeFiles {
    static final Duration READ_EVERY = Duration.ofSeconds(2);
    /** More new bytes than this in a file (an endpoint that started late) and only its end is read. */
    static final int MOST_BYTES = 1 << 20;
    /** The longest first line a gauge file's header may be. */
    private static final int HEADER_BYTES = 1 << 16;

    /** One gauge of one server. */
    public record Reading(String store, String server, String gauge, double value) {
    }

    private final Path runDir;
    /** Whether the slaves' folders are read too: not when the slaves send their lines ({@link #streamed}). */
    private final boolean slaveFolders;
    private final long everyNanos;
    private final Map<Path, Tail> tails = new HashMap<>();
    /** The newest line of each server, by gauge file's name (the same in every engine's folder) then server. */
    private final Map<String, Map<String, GaugeTable.Row>> latest = new TreeMap<>();
    private long readNanos;
    private boolean read;
    /** What {@link #readings()} returns until a new line comes; null once one came. */
    private List<Reading> readings;

    /** @param slaveFolders whether the gauge files of the slaves' folders are read too, or only the run folder's */
    public ServerGaugeFiles(Path runDir, boolean slaveFolders) {
        this(runDir, slaveFolders, READ_EVERY);
    }

    ServerGaugeFiles(Path runDir, Duration every) {
        this(runDir, true, every);
    }

    ServerGaugeFiles(Path runDir, boolean slaveFolders, Duration every) {
        this.runDir = runDir;
        this.slaveFolders = slaveFolders;
        this.everyNanos = every.toNanos();
    }

    /**
     * The latest reading of every numeric gauge of every server, by store, server and gauge: built
     * again only after a read or a slave's lines brought a new line, else the list of the last call.
     */
    public synchronized List<Reading> readings() {
        long now = System.nanoTime();
        if (!read || now - readNanos >= everyNanos) {
            read = true;
            readNanos = now;
            readFiles();
        }
        if (readings == null) {
            List<Reading> all = new ArrayList<>();
            latest.forEach((fileName, servers) -> {
                String store = store(fileName);
                for (GaugeTable.Row row : servers.values()) {
                    if (row.ok()) {
                        for (String gauge : new TreeMap<>(row.values()).keySet()) {
                            double value = row.number(gauge);
                            if (Double.isFinite(value)) {
                                all.add(new Reading(store, server(row.node()), gauge, value));
                            }
                        }
                    }
                }
            });
            readings = List.copyOf(all);
        }
        return readings;
    }

    private void readFiles() {
        if (runDir == null || !Files.isDirectory(runDir)) {
            return;
        }
        List<Path> files;
        try {
            files = GaugeTable.tables(runDir);
        } catch (IOException | RuntimeException e) {
            return; // a folder that changes while it is listed: the next read lists it again
        }
        for (Path file : files) {
            if (!slaveFolders && !runDir.equals(file.getParent())) {
                continue;
            }
            Tail tail = tails.computeIfAbsent(file, f -> new Tail(f.getFileName().toString()));
            if (tail.other) {
                continue;
            }
            try {
                tail.read(file, this::row);
            } catch (IOException | RuntimeException e) {
                // a file being replaced: read again from where it stood next time
            }
        }
    }

    /**
     * A slave's lines of a gauge file, as its engine sent them during the run ({@code core.GaugeStream}):
     * the file's header, then lines; merged with what the files say, the newest line of a server winning.
     */
    public synchronized void streamed(String fileName, String text) {
        if (text == null) {
            return;
        }
        String[] lines = text.split("\n");
        if (lines.length < 2 || !GaugeTable.isHeader(lines[0])) {
            return;
        }
        GaugeTable.Columns columns = GaugeTable.Columns.of(lines[0]);
        for (int i = 1; i < lines.length; i++) {
            GaugeTable.Row row = columns.row(lines[i], 0);
            if (row != null) {
                row(fileName, row);
            }
        }
    }

    /** One line: the server's newest, whichever engine read it and however it came (a file, a slave's sample). */
    private void row(String fileName, GaugeTable.Row row) {
        readings = null;
        latest.computeIfAbsent(fileName, s -> new TreeMap<>()).merge(server(row.node()), row,
                (old, fresh) -> fresh.epochMillis() >= old.epochMillis() ? fresh : old);
    }

    /** The first word of the file's name: {@code redis} of {@code redis-info.tsv}. */
    static String store(String name) {
        int end = 0;
        while (end < name.length() && Character.isLetterOrDigit(name.charAt(end))) {
            end++;
        }
        return name.substring(0, end).toLowerCase(Locale.ROOT);
    }

    /** A server's name as the label shows it: never a user name before an {@code @}. */
    static String server(String node) {
        return node.substring(node.indexOf('@') + 1);
    }

    /** Where the reading of one file stands: its header's columns and the offset after the last line read. */
    private static final class Tail {
        final String name;
        GaugeTable.Columns columns;
        long offset;
        /** Whether the file's first line says it is another table (what the samplers sent, the faults). */
        boolean other;

        Tail(String name) {
            this.name = name;
        }

        void read(Path file, java.util.function.BiConsumer<String, GaugeTable.Row> rows) throws IOException {
            try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
                long length = in.length();
                if (length < offset) {
                    columns = null; // the file was written anew
                }
                if (columns == null && !header(in, length)) {
                    return;
                }
                if (length <= offset) {
                    return;
                }
                boolean skipped = length - offset > MOST_BYTES;
                long from = skipped ? length - MOST_BYTES : offset;
                byte[] bytes = new byte[(int) (length - from)];
                in.seek(from);
                in.readFully(bytes);
                int end = lastNewline(bytes);
                if (end < 0) {
                    return; // no complete line yet
                }
                offset = from + end + 1;
                String[] lines = new String(bytes, 0, end, StandardCharsets.UTF_8).split("\n", -1);
                // where the read began past lines left unread, its first line is cut
                for (int i = skipped ? 1 : 0; i < lines.length; i++) {
                    GaugeTable.Row row = columns.row(lines[i], 0);
                    if (row != null) {
                        rows.accept(name, row);
                    }
                }
            }
        }

        /** Reads the first line: whether it is a gauge file's header, which then gives the columns. */
        private boolean header(RandomAccessFile in, long length) throws IOException {
            byte[] head = new byte[(int) Math.min(length, HEADER_BYTES)];
            in.seek(0);
            in.readFully(head);
            int end = 0;
            while (end < head.length && head[end] != '\n') {
                end++;
            }
            if (end == head.length) {
                other = length >= HEADER_BYTES; // no header this long: not a gauge file; else one being written
                return false;
            }
            String first = new String(head, 0, end, StandardCharsets.UTF_8);
            if (!GaugeTable.isHeader(first)) {
                other = true;
                return false;
            }
            columns = GaugeTable.Columns.of(first);
            offset = end + 1;
            return true;
        }

        private static int lastNewline(byte[] bytes) {
            for (int i = bytes.length - 1; i >= 0; i--) {
                if (bytes[i] == '\n') {
                    return i;
                }
            }
            return -1;
        }
    }
}
