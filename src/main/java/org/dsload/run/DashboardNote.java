package org.dsload.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import org.dsload.report.Durations;
import org.dsload.report.LabelStats;
import org.dsload.report.Summary;

/**
 * Says on the first page of JMeter's HTML dashboard, and in a README beside it, which of its
 * figures differ from the summary's and why. JMeter's report generator counts a results row as
 * one sample (a pipelined or batched sample of 100 requests counts 1) and reads latencies from
 * the whole-millisecond Elapsed column (a 0.2 ms median shows as 0); neither can be changed from
 * outside, so the dashboard says so where it is read.
 */
final class DashboardNote {
    static final String FOLDER = "dashboard";
    static final String README = FOLDER + "/README.txt";
    /** Marks the row the note adds, so that it is added once. */
    static final String MARK = "<!-- dsload note -->";
    private static final String TABLE = "id=\"generalInfos\"";

    private DashboardNote() {
    }

    static boolean exists(Path runDir) {
        return Files.isRegularFile(runDir.resolve(FOLDER).resolve("index.html"));
    }

    /** Adds the note to the run's dashboard; false when there is no dashboard (or it cannot be written). */
    static boolean add(Path runDir, Summary summary) {
        Path index = runDir.resolve(FOLDER).resolve("index.html");
        if (!Files.isRegularFile(index)) {
            return false;
        }
        try {
            Files.writeString(runDir.resolve(README), readme(summary), StandardCharsets.UTF_8);
            String html = Files.readString(index, StandardCharsets.UTF_8);
            if (!html.contains(MARK)) {
                Files.writeString(index, withRow(html, row(summary)), StandardCharsets.UTF_8);
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The page with the row as the first of its "Test and Report information" table; unchanged when that is not found. */
    static String withRow(String html, String row) {
        int table = html.indexOf(TABLE);
        int end = table < 0 ? -1 : html.indexOf('>', table);
        if (end < 0) {
            return html;
        }
        return html.substring(0, end + 1) + "\n" + MARK + row + html.substring(end + 1);
    }

    static String row(Summary summary) {
        LabelStats all = summary.total();
        StringBuilder text = new StringBuilder("<tr><td>dsload</td><td>");
        if (all.requests() != all.samples()) {
            text.append(String.format(Locale.ROOT, "This page counts results rows: %d rows hold %d requests. ",
                    all.samples(), all.requests()));
        }
        text.append("Latencies here are whole milliseconds");
        long median = all.latencies().percentile(50);
        if (all.samples() > 0 && median < 1000) {
            text.append(" (the median is ").append(Durations.format(median / 1000.0)).append(" in the summary)");
        }
        text.append(". The exact figures are in ../summary.txt; <a href=\"README.txt\">README.txt</a> says what differs "
                + "and why.</td></tr>");
        return text.toString();
    }

    static String readme(Summary summary) {
        LabelStats all = summary.total();
        StringBuilder text = new StringBuilder();
        text.append("This HTML dashboard is JMeter's own report of ").append(summary.source().getFileName())
                .append(".\nWhere its figures differ from dsload's summary (../summary.txt), the summary's are the "
                        + "measured ones.\nWhat differs, and why:\n\n");
        text.append("- Requests. The dashboard counts each row of the results file as one sample. A pipelined or\n"
                + "  batched sample of N requests is one row with SampleCount N; the summary counts its N requests,\n"
                + "  and its rates, throughput and success ratio are per request.\n");
        if (all.requests() != all.samples()) {
            text.append(String.format(Locale.ROOT, "  This run: %d rows hold %d requests, so the dashboard's #Samples,\n"
                    + "  throughput and error %% differ from the summary's.\n", all.samples(), all.requests()));
        } else {
            text.append("  This run has one request per row: the counts agree.\n");
        }
        text.append("- Latencies. The dashboard reads the Elapsed column, in whole milliseconds, so a request under\n"
                + "  1 ms shows as 0 ms and its percentiles move in steps of 1 ms. The summary's are exact\n"
                + "  nearest-rank percentiles over the microsecond timings of dsload's samplers (dsload_timing).\n");
        if (all.samples() > 0) {
            text.append("  This run: median ").append(Durations.format(all.latencies().percentile(50) / 1000.0))
                    .append(", p99 ").append(Durations.format(all.latencies().percentile(99) / 1000.0))
                    .append(" in the summary.\n");
        }
        text.append("- Fault samples (labels fault:<kind>:<target>) mark when faults were applied and reverted;\n"
                + "  they are no requests, and both leave them out (the dashboard by its\n"
                + "  jmeter.reportgenerator.sample_filter). The summary's Fault phases section lines them up with\n"
                + "  the load.\n");
        return text.toString();
    }
}
