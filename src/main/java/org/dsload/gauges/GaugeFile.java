package org.dsload.gauges;

import java.util.List;

import org.dsload.core.format.GaugeTable;

/**
 * The files a store's gauge recorder leaves in the run folder: {@code name}, one line per server
 * per second ({@code epoch_ms, node, state, <columns>, note}, tab separated: {@link GaugeTable}), and {@code countsName},
 * what the engine's samplers sent to that store ({@code name, count}), for the cross-check.
 *
 * @param store      the store's name in messages ("Redis")
 * @param name       the gauge file's name
 * @param countsName the counts file's name
 * @param columns    the gauges, in column order
 */
public record GaugeFile(String store, String name, String countsName, List<String> columns) {
    public static final String EPOCH = GaugeTable.EPOCH;
    public static final String NODE = GaugeTable.NODE;
    public static final String STATE = GaugeTable.STATE;
    public static final String NOTE = GaugeTable.NOTE;
    /** The server answered; its gauges are on the line. */
    public static final String OK = GaugeTable.OK;
    /** The server could not be reached or did not answer in time (the note says which). */
    public static final String UNREACHABLE = GaugeTable.UNREACHABLE;
    /** The server answered without its gauges (the note says why); it is not asked again. */
    public static final String REFUSED = "refused";
    /** Longest note kept: a server's error message, never a stack trace. */
    static final int NOTE_LIMIT = 200;

    public GaugeFile {
        columns = List.copyOf(columns);
    }

    public String header() {
        return GaugeTable.header(columns);
    }

    /** A value or a note as one cell: no tab or line break, not longer than the limit. */
    static String cell(String text) {
        if (text == null) {
            return "";
        }
        String flat = text.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ').strip();
        return flat.length() > NOTE_LIMIT ? flat.substring(0, NOTE_LIMIT) : flat;
    }
}
