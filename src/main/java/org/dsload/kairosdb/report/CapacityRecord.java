package org.dsload.kairosdb.report;

import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * What a KairosDB Connection leaves in the run folder at test end ({@value #FILE}, one line per
 * connection and engine): the labels of its write and query samplers, the points they reported
 * written, the points KairosDB held of those series when counted back, and how that went.
 * Labels and the note are URL-encoded, so tabs and commas in them cannot break the line.
 */
public record CapacityRecord(String engine, String connection, List<String> writeLabels, List<String> queryLabels,
        long reported, long found, long firstPoint, long lastPoint, long waitedMillis, String note, long queries,
        long queryPoints) {
    public static final String FILE = "kairosdb-capacity.tsv";
    static final String HEADER = "engine\tconnection\twrite_labels\tquery_labels\tpoints_reported\tpoints_found"
            + "\tfirst_point_ms\tlast_point_ms\twaited_ms\tnote\tqueries\tquery_points";

    public static CapacityRecord of(String engine, String connection, Set<String> writeLabels, Set<String> queryLabels,
            long reported, long found, long firstPoint, long lastPoint, long waitedMillis, String note, long queries,
            long queryPoints) {
        return new CapacityRecord(engine, connection, List.copyOf(writeLabels), List.copyOf(queryLabels), reported, found,
                firstPoint, lastPoint, waitedMillis, note, queries, queryPoints);
    }

    /** Appends this record to the file in {@code dir}, writing the header first into a new file. */
    public void append(Path dir) throws IOException {
        Path file = dir.resolve(FILE);
        Files.createDirectories(dir);
        String line = String.join("\t", encode(engine), encode(connection), encode(writeLabels), encode(queryLabels),
                Long.toString(reported), Long.toString(found), Long.toString(firstPoint), Long.toString(lastPoint),
                Long.toString(waitedMillis), encode(note), Long.toString(queries), Long.toString(queryPoints)) + "\n";
        synchronized (CapacityRecord.class) {
            String text = Files.exists(file) ? line : HEADER + "\n" + line;
            Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
    }

    /** Every record of one file; lines that cannot be read are skipped. */
    static List<CapacityRecord> read(Path file) throws IOException {
        List<CapacityRecord> records = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String[] f = line.split("\t", -1);
            if (line.equals(HEADER) || f.length != 12) {
                continue;
            }
            try {
                records.add(new CapacityRecord(decode(f[0]), decode(f[1]), labels(f[2]), labels(f[3]),
                        Long.parseLong(f[4]), Long.parseLong(f[5]), Long.parseLong(f[6]), Long.parseLong(f[7]),
                        Long.parseLong(f[8]), decode(f[9]), Long.parseLong(f[10]), Long.parseLong(f[11])));
            } catch (IllegalArgumentException e) {
                // a line cut short by a crash: the others still count
            }
        }
        return records;
    }

    private static String encode(String text) {
        return URLEncoder.encode(text == null ? "" : text, StandardCharsets.UTF_8);
    }

    private static String encode(List<String> labels) {
        return String.join(",", labels.stream().map(CapacityRecord::encode).toList());
    }

    private static String decode(String text) {
        return URLDecoder.decode(text, StandardCharsets.UTF_8);
    }

    private static List<String> labels(String field) {
        if (field.isEmpty()) {
            return List.of();
        }
        return Arrays.stream(field.split(",")).map(CapacityRecord::decode).toList();
    }
}
