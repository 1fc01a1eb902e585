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
import java.util.Locale;

/**
 * What a KairosDB Connection leaves in the run folder at test end ({@value #FILE}, one line per
 * connection and engine): the labels of its write and query samplers (and which writes were the
 * setup phase's), the points they reported written, the points KairosDB held of those series when
 * counted back, and how that went. Labels and the note are URL-encoded, so tabs and commas in them
 * cannot break the line.
 */
public record CapacityRecord(String engine, String connection, List<String> writeLabels, List<String> queryLabels,
        long reported, long found, long firstPoint, long lastPoint, long waitedMillis, String note, long queries,
        long queryPoints, List<String> setupLabels, long setupPoints, Check check, long unanswered) {
    public static final String FILE = "kairosdb-capacity.tsv";
    static final String HEADER = "engine\tconnection\twrite_labels\tquery_labels\tpoints_reported\tpoints_found"
            + "\tfirst_point_ms\tlast_point_ms\twaited_ms\tnote\tqueries\tquery_points\tsetup_labels\tsetup_points\tcheck"
            + "\tunanswered_points";
    /** Columns before the setup phase and the check were recorded. */
    private static final int OLD_COLUMNS = 12;
    /** Columns before the points of writes that got no answer were recorded. */
    private static final int CHECK_COLUMNS = 15;
    private static final int COLUMNS = 16;

    /** How counting the points back in KairosDB went. */
    public enum Check {
        /** KairosDB holds exactly the points reported. */
        MATCH,
        /**
         * It holds the points reported and some of those whose writes got no answer (sent, then
         * timed out: a frozen node stores them once it runs again).
         */
        WITHIN,
        /** It holds more or fewer. */
        DIFFERS,
        /** The count could not be made (an error answer). */
        FAILED,
        /** The count could not be made: no node answered it (the store was down when the load ended). */
        UNREACHABLE,
        /** Not counted: nothing written, the check is off, or too many series. */
        SKIPPED
    }

    /**
     * Why this connection's writes make the run fail, or null. A count that failed, or fewer points
     * than reported, means points dsload counted as written may not be in KairosDB; more points
     * than reported means the count cannot confirm this run's writes (earlier data in the same
     * series), which fails a run with measured writes but not one that only prepared data.
     */
    public String failure() {
        return switch (check) {
            case FAILED, UNREACHABLE -> "the cross-check failed: " + reported + " points reported written could not be counted "
                    + "back in KairosDB (" + note + ")";
            case DIFFERS -> found < reported || reported > setupPoints
                    ? String.format(Locale.ROOT, "the cross-check differs: %d points reported written, %d found in "
                    + "KairosDB (%s)", reported, found, found < reported ? (reported - found)
                    + " fewer: lost, or still queued when the count ended" : (found - reported)
                    + " more: earlier data in these series and times") : null;
            default -> null;
        };
    }

    /** Appends this record to the file in {@code dir}, writing the header first into a new file. */
    public void append(Path dir) throws IOException {
        Path file = dir.resolve(FILE);
        Files.createDirectories(dir);
        String line = String.join("\t", encode(engine), encode(connection), encode(writeLabels), encode(queryLabels),
                Long.toString(reported), Long.toString(found), Long.toString(firstPoint), Long.toString(lastPoint),
                Long.toString(waitedMillis), encode(note), Long.toString(queries), Long.toString(queryPoints),
                encode(setupLabels), Long.toString(setupPoints), check.name().toLowerCase(Locale.ROOT),
                Long.toString(unanswered)) + "\n";
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
            if (line.startsWith("engine\t") || f.length != OLD_COLUMNS && f.length != CHECK_COLUMNS && f.length != COLUMNS) {
                continue;
            }
            try {
                long reported = Long.parseLong(f[4]);
                long found = Long.parseLong(f[5]);
                boolean full = f.length >= CHECK_COLUMNS;
                Check check = full ? Check.valueOf(f[14].toUpperCase(Locale.ROOT))
                        : found < 0 ? Check.SKIPPED : found == reported ? Check.MATCH : Check.DIFFERS;
                records.add(new CapacityRecord(decode(f[0]), decode(f[1]), labels(f[2]), labels(f[3]), reported, found,
                        Long.parseLong(f[6]), Long.parseLong(f[7]), Long.parseLong(f[8]), decode(f[9]),
                        Long.parseLong(f[10]), Long.parseLong(f[11]), full ? labels(f[12]) : List.of(),
                        full ? Long.parseLong(f[13]) : 0, check, f.length == COLUMNS ? Long.parseLong(f[15]) : 0));
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
