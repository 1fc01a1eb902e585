package org.dsload.report;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.dsload.core.format.JtlColumns;
import org.dsload.core.format.TimingValue;

/** The summary as text, one block per label in the shape of vegeta's text report. */
public final class SummaryText {
    static final double[] PERCENTILES = {50, 90, 95, 99};
    /** The response code of a sample whose element refused its configuration (core.Results.CONFIG_ERROR). */
    static final String REFUSED_CODE = "CONFIG";
    public static final String METHOD = "exact nearest-rank percentiles over every sample (no window, no sampling)";
    /** How percentiles are read in histograms mode. */
    public static final String HDR_METHOD = HdrLatency.METHOD + ", from the interval logs every engine recorded "
            + "(histograms mode), merged without further loss";

    private SummaryText() {
    }

    public static String render(Summary summary) {
        StringBuilder out = new StringBuilder();
        out.append("dsload summary of ").append(summary.source()).append('\n');
        out.append("Latencies: ").append(method(summary.total())).append("; one pipelined sample is one latency and N "
                + "requests.\n");
        if (summary.histograms()) {
            out.append("Histograms mode: the results file holds one row per label, engine and second; JMeter's "
                    + "dashboard and listeners take rates and error counts from them, but their percentiles and "
                    + "response-time graphs are not those of the requests: the latencies below, chart-latency.png and "
                    + "the Recording section are.\n");
        }
        if (summary.total().samplesWithoutLatency() > 0) {
            out.append("Warning: ").append(summary.total().samplesWithoutLatency()).append(" samples have no latency: "
                    + "their engines' interval logs are not in the run folder (see the Recording section); the "
                    + "percentiles leave them out.\n");
        }
        if (!summary.hasSampleCount()) {
            out.append("Note: no SampleCount column; each sample counted as one request "
                    + "(save with jmeter.save.saveservice.sample_count=true).\n");
        }
        LabelStats all = summary.total();
        out.append(resolution(all));
        if (all.scheduledSamples() > 0) {
            out.append("Corrected: latency from each sample's intended start under its arrival schedule ("
                    + all.scheduledSamples() + " of " + all.samples() + " samples); late: started more than "
                    + Durations.format(all.lateMicros() / 1000.0) + " after it"
                    + (summary.histograms() && all.lateMicros() != TimingValue.DEFAULT_LATE_MICROS
                            ? " (the engines of histograms mode count late arrivals at "
                            + Durations.format(TimingValue.DEFAULT_LATE_MICROS / 1000.0) + ")" : "") + ".\n");
            out.append(scheduleWarning(summary));
        }
        if (summary.malformedRows() > 0) {
            out.append("Warning: ").append(summary.malformedRows()).append(" unreadable rows skipped.\n");
        }
        out.append(blocks(summary.labels(), summary.total()));
        return out.toString();
    }

    /**
     * The warning when the measured window did not keep its schedule, and a note of the warm-up's own
     * late or dropped arrivals, which the warning leaves out; empty when neither applies.
     */
    static String scheduleWarning(Summary summary) {
        StringBuilder out = new StringBuilder();
        LabelStats measured = summary.measured();
        String window = summary.hasWarmUp() ? " in the measured window" : "";
        if (measured.lateArrivals() > 0 || measured.droppedArrivals() > 0) {
            out.append("Warning: the generator did not keep its schedule").append(window).append(": ")
                    .append(measured.lateArrivals()).append(" of ").append(measured.arrivals())
                    .append(" arrivals started late, ").append(measured.droppedArrivals())
                    .append(" were dropped; see the Corrected rows and the generator section.\n");
        }
        LabelStats warmUp = summary.warmUp();
        if (warmUp.lateArrivals() > 0 || warmUp.droppedArrivals() > 0) {
            out.append("Warm-up: ").append(warmUp.lateArrivals()).append(" of its ").append(warmUp.arrivals())
                    .append(" arrivals started late, ").append(warmUp.droppedArrivals()).append(" were dropped (labels "
                    + "ending in '").append(WarmUp.SUFFIX.trim()).append("'), while the JVM warmed up; the measured "
                    + "window is judged without them.\n");
        }
        return out.toString();
    }

    /** How the percentiles of these figures were read: exact, or from HdrHistogram interval logs. */
    public static String method(LabelStats stats) {
        return stats.latencies().exact() ? METHOD : HDR_METHOD;
    }

    /** How the latencies were timed, as a line; empty when there are no samples. */
    public static String resolution(LabelStats all) {
        long timed = all.samples() - all.samplesWithoutLatency();
        if (timed <= 0) {
            return "";
        }
        if (all.statusCodes().getOrDefault(REFUSED_CODE, 0L) == all.requests()) {
            return "Refused: every sample is a configuration an element refused (code " + REFUSED_CODE + "): the run "
                    + "was refused at its start and nothing was timed.\n";
        }
        return "Resolution: " + (all.microTimedSamples() == timed ? "microseconds for every sample"
                : all.microTimedSamples() == 0 ? "milliseconds (no " + JtlColumns.TIMING + " column; save it with "
                + "sample_variables=" + JtlColumns.TIMING + ")"
                : "microseconds for " + all.microTimedSamples() + " of " + timed
                + " samples (dsload samplers), milliseconds for the others") + ".\n";
    }

    /** One block per label, then one for all labels when there are several, each after a blank line. */
    public static String blocks(List<LabelStats> labels, LabelStats total) {
        StringBuilder out = new StringBuilder();
        for (LabelStats stats : labels) {
            out.append('\n');
            block(out, stats);
        }
        if (labels.size() > 1) {
            out.append('\n');
            block(out, total);
        }
        return out.toString();
    }

    static void block(StringBuilder out, LabelStats s) {
        Latencies h = s.latencies();
        out.append("== ").append(s.label()).append(" ==\n");
        line(out, "Requests", "[total, rate, throughput]",
                s.requests() + ", " + fixed(s.rate()) + ", " + fixed(s.throughput()));
        if (s.scheduledSamples() > 0) {
            line(out, "Rate", "[target, achieved, ratio]", rate(s.targetRate(), s.targetRate()) + ", "
                    + rate(s.achievedRate(), s.targetRate()) + ", "
                    + String.format(Locale.ROOT, "%.2f%%", s.achievedRatio() * 100));
            line(out, "Arrivals", "[total, late, dropped]",
                    s.arrivals() + ", " + s.lateArrivals() + ", " + s.droppedArrivals());
        }
        line(out, "Duration", "[total, attack, wait]", Durations.format(s.totalMillis()) + ", "
                + Durations.format(s.attackMillis()) + ", " + Durations.format(s.waitMillis()));
        StringBuilder latencies = new StringBuilder();
        latencies.append(micros(h.min())).append(", ").append(micros(h.mean()));
        for (double p : PERCENTILES) {
            latencies.append(", ").append(micros(h.percentile(p)));
        }
        latencies.append(", ").append(micros(h.max()));
        line(out, "Latencies", "[min, mean, 50, 90, 95, 99, max]", latencies.toString());
        if (s.scheduledSamples() > 0) {
            line(out, "Corrected", "[min, mean, 50, 90, 95, 99, max]", percentiles(s.corrected()));
        }
        line(out, "Bytes In", "[total, mean]", s.bytesIn() + ", " + fixed(s.meanBytesIn()));
        line(out, "Bytes Out", "[total, mean]", s.bytesOut() + ", " + fixed(s.meanBytesOut()));
        line(out, "Success", "[ratio]", String.format(Locale.ROOT, "%.2f%%", s.successRatio() * 100));
        StringBuilder codes = new StringBuilder();
        for (Map.Entry<String, Long> code : s.statusCodes().entrySet()) {
            if (codes.length() > 0) {
                codes.append("  ");
            }
            codes.append(code.getKey()).append(':').append(code.getValue());
        }
        line(out, "Status Codes", "[code:count]", codes.toString());
        out.append("Error Set:\n");
        for (Map.Entry<String, Long> error : s.errors().entrySet()) {
            out.append(error.getKey()).append(" (").append(error.getValue()).append(")\n");
        }
    }

    /**
     * A rate per second, or per minute (with its unit) when the target is below one per second:
     * 30 queries a minute read "30.00/min", not "0.50".
     */
    static String rate(double perSecond, double target) {
        return target > 0 && target < 1 ? fixed(perSecond * 60) + "/min" : fixed(perSecond);
    }

    private static String percentiles(Latencies h) {
        StringBuilder text = new StringBuilder();
        text.append(micros(h.min())).append(", ").append(micros(h.mean()));
        for (double p : PERCENTILES) {
            text.append(", ").append(micros(h.percentile(p)));
        }
        return text.append(", ").append(micros(h.max())).toString();
    }

    private static void line(StringBuilder out, String name, String fields, String values) {
        out.append(String.format(Locale.ROOT, "%-13s %-33s %s%n", name, fields, values));
    }

    private static String micros(double value) {
        return Durations.format(value / 1000.0);
    }

    static String fixed(double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }
}
