package org.dsload.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * What {@code dsload find-max} found: each step it ran (the rate it asked for, what was achieved and
 * measured, whether the limits were kept) and the answer, as a table ({@value #TEXT}), as JSON
 * ({@value #JSON}) and as a chart of the latencies and errors against the rate ({@value #CHART}).
 */
public final class FindMaxReport {
    public static final String TEXT = "find-max.txt";
    public static final String JSON = "find-max.json";
    public static final String CHART = "find-max.png";
    /** The answer's {@code limitedBy}: the server's limit, or the generator's. */
    public static final String SERVER = "server";
    public static final String GENERATOR = "generator";

    /**
     * One step: a run of the plan at {@code rate} (in the rate property's own unit, per second or per
     * minute), with its measured window's figures; {@code achievedRate} is requests per second,
     * {@code lateRatio} and {@code errorRatio} shares from 0 to 1, {@code cpuPeak} the generator's
     * highest per-second CPU share of the machine (NaN unknown), {@code broke} the first limit not
     * kept (null when kept) and {@code generatorBound} whether what broke was the generator's limit.
     */
    public record Step(int index, double rate, double achievedRate, double lateRatio, long p50Micros, long p90Micros,
            long p99Micros, double errorRatio, long requests, double cpuPeak, boolean kept, String broke,
            boolean generatorBound, String runDir, Map<String, Double> gauges) {
        public Step {
            gauges = Collections.unmodifiableMap(new LinkedHashMap<>(gauges));
        }

        /** A step without server gauges. */
        public Step(int index, double rate, double achievedRate, double lateRatio, long p50Micros, long p90Micros,
                long p99Micros, double errorRatio, long requests, double cpuPeak, boolean kept, String broke,
                boolean generatorBound, String runDir) {
            this(index, rate, achievedRate, lateRatio, p50Micros, p90Micros, p99Micros, errorRatio, requests, cpuPeak,
                    kept, broke, generatorBound, runDir, Map.of());
        }
    }

    /**
     * @param rate       the highest rate that kept every limit, NaN when even the first step broke them
     * @param limitedBy  {@link #SERVER} or {@link #GENERATOR}: whose limit the first broken step met (null
     *                   when no step broke them)
     * @param broke      the limit that broke first above the answer (null when none did)
     * @param advice     how to get past a generator's limit (null for the server's)
     */
    public record Answer(double rate, String limitedBy, String broke, String advice) {
        public boolean found() {
            return !Double.isNaN(rate);
        }
    }

    private FindMaxReport() {
    }

    /**
     * A step judged on the figures of its measured window, as every rate search judges one: the first
     * limit not kept breaks it, else {@code runProblem} (a run that did not end well) does; what broke
     * is the generator's limit when {@link Bottleneck#generator} says so.
     *
     * @param verdicts   every limit judged on {@code measured} (server gauges' too)
     * @param runProblem what breaks the step when every limit was kept, or null
     * @param achieved   requests per second of the measured window
     * @param cpuPeak    the generator's highest per-second CPU share of the machine, 0 to 1 (NaN unknown)
     * @param unsent     scheduled arrivals went unsent
     */
    public static Step step(int index, double rate, LabelStats measured, List<Limits.Verdict> verdicts, String runProblem,
            double achieved, double cpuPeak, boolean unsent, String runDir, Map<String, Double> gauges) {
        String broke = verdicts.stream().filter(v -> !v.held()).map(Limits.Verdict::text).findFirst().orElse(runProblem);
        boolean generator = broke != null && Bottleneck.generator(verdicts, cpuPeak, unsent);
        long requests = measured.requests();
        double errors = requests == 0 ? 0 : (double) (requests - measured.successes()) / requests;
        return new Step(index, rate, achieved, Limits.lateRatio(measured), percentile(measured, 50),
                percentile(measured, 90), percentile(measured, 99), errors, requests, cpuPeak, broke == null, broke,
                generator, runDir, gauges);
    }

    private static long percentile(LabelStats stats, double p) {
        return stats.latencies().count() == 0 ? 0 : stats.latencies().percentile(p);
    }

    /** The table of steps, in the order they ran, and the answer below it. */
    public static String text(String plan, String rateProperty, Answer answer, List<Step> steps) {
        return text(plan, rateProperty, null, answer, steps);
    }

    /**
     * As {@link #text(String, String, Answer, List)}, with the unit the property counts in ({@code hosts},
     * {@code domains}) when it is a count rather than a rate; null for a rate.
     */
    public static String text(String plan, String rateProperty, String unit, Answer answer, List<Step> steps) {
        StringBuilder out = new StringBuilder();
        out.append("dsload find-max of ").append(plan).append(", raising -J").append(rateProperty)
                .append(unit == null ? " (the plan's rate" : " (" + unit).append("; achieved: requests/s of the measured window)\n\n");
        Set<String> gauges = new LinkedHashSet<>();
        steps.forEach(s -> gauges.addAll(s.gauges().keySet()));
        StringBuilder gaugeHeader = new StringBuilder();
        gauges.forEach(g -> gaugeHeader.append(' ').append(pad(g, g)));
        out.append(String.format(Locale.ROOT, "%4s %10s %12s %8s %10s %10s %10s %8s %8s%s  %s%n", "step", "rate", "achieved/s",
                "late", "p50", "p90", "p99", "errors", "gen CPU", gaugeHeader, "limits"));
        for (Step s : steps) {
            StringBuilder peaks = new StringBuilder();
            for (String g : gauges) {
                Double peak = s.gauges().get(g);
                peaks.append(' ').append(pad(peak == null ? "-" : number(peak), g));
            }
            out.append(String.format(Locale.ROOT, "%4d %10s %12.1f %8s %10s %10s %10s %8s %8s%s  %s%n", s.index(), number(s.rate()),
                    s.achievedRate(), percent(s.lateRatio()), duration(s.p50Micros()), duration(s.p90Micros()),
                    duration(s.p99Micros()), percent(s.errorRatio()), Double.isNaN(s.cpuPeak()) ? "-" : percent(s.cpuPeak()),
                    peaks, s.kept() ? "kept" : "BROKEN: " + s.broke() + (s.generatorBound() ? " [generator]" : "")));
        }
        if (!gauges.isEmpty()) {
            out.append("(server gauges: the highest reading of each in the step's measured window, over every server)\n");
        }
        // no answer although the first step kept them: a repeat of its rate broke them
        String answerLine = answerLine(rateProperty, unit, answer, !steps.isEmpty() && steps.get(0).kept());
        out.append('\n').append(answerLine).append('\n');
        long keptAtAnswer = keptAt(steps, answer.rate());
        if (answer.found() && keptAtAnswer > 1) {
            out.append("It kept them in each of its ").append(keptAtAnswer).append(" steps at ")
                    .append(number(answer.rate())).append(" (the answer's step repeated before it was given).\n");
        }
        return out.toString();
    }

    /** How many of the steps ran at {@code rate} and kept the limits. */
    static long keptAt(List<Step> steps, double rate) {
        return steps.stream().filter(s -> s.kept() && s.rate() == rate).count();
    }

    /** {@code text} right-aligned in a column as wide as the gauge's name, 12 at least. */
    private static String pad(String text, String gauge) {
        return String.format(Locale.ROOT, "%" + Math.max(12, gauge.length()) + "s", text);
    }

    /** The answer in a sentence (and the advice, when the generator was the limit). */
    public static String answerLine(String rateProperty, Answer answer) {
        return answerLine(rateProperty, null, answer, false);
    }

    /**
     * As {@link #answerLine(String, Answer)}, the rate followed by its {@code unit} when it counts one
     * (null: a rate); {@code brokeInRepeat}: no answer as the lowest rate broke them when repeated.
     */
    private static String answerLine(String rateProperty, String unit, Answer answer, boolean brokeInRepeat) {
        if (!answer.found() && answer.broke() == null) {
            return "No answer: no step ran to its end.";
        }
        if (!answer.found()) {
            return "No answer: " + (brokeInRepeat ? "the lowest rate broke the limits in a repeat of its step"
                    : "the first step already broke the limits") + ": " + answer.broke()
                    + (GENERATOR.equals(answer.limitedBy()) ? ". This is the generator's limit, not the server's. "
                            + answer.advice() : "") + ". Start lower (--start).";
        }
        String rate = rateProperty + "=" + number(answer.rate())
                + (unit == null ? "" : " (" + number(answer.rate()) + " " + unit + ")");
        if (answer.broke() == null) {
            return "Answer: " + rate + " kept every limit, and no step broke them (raise --max-steps to go higher).";
        }
        if (GENERATOR.equals(answer.limitedBy())) {
            return "Answer: " + rate + " is the GENERATOR's limit, not the server's: above it " + answer.broke() + ". "
                    + answer.advice();
        }
        return "Answer: " + rate + " is the highest rate that kept the limits; above it the server broke them: "
                + answer.broke() + ".";
    }

    /** {@code {"answer": {...}, "steps": [...]}}. */
    public static String json(Answer answer, List<Step> steps) {
        return json(answer, null, steps);
    }

    /** As {@link #json(Answer, List)}, the answer with the {@code unit} of its rate when it is a count (null: none). */
    public static String json(Answer answer, String unit, List<Step> steps) {
        Json json = new Json().begin().name("answer").begin();
        if (answer.found()) {
            json.field("rate", answer.rate());
        } else {
            json.name("rate").value((String) null);
        }
        if (unit != null) {
            json.field("unit", unit);
        }
        json.field("limitedBy", answer.limitedBy()).field("broke", answer.broke());
        if (answer.advice() != null) {
            json.field("advice", answer.advice());
        }
        if (answer.found()) {
            json.field("stepsKeptAtRate", keptAt(steps, answer.rate()));
        }
        json.end().name("steps").beginArray();
        for (Step s : steps) {
            json.begin().field("step", s.index()).field("rate", s.rate()).field("achievedRate", s.achievedRate())
                    .field("late", s.lateRatio()).field("p50Ms", s.p50Micros() / 1000.0).field("p90Ms", s.p90Micros() / 1000.0)
                    .field("p99Ms", s.p99Micros() / 1000.0).field("errorRatio", s.errorRatio()).field("requests", s.requests())
                    .field("generatorCpuPeak", s.cpuPeak()).field("kept", s.kept()).field("broke", s.broke())
                    .field("generatorBound", s.generatorBound()).field("run", s.runDir());
            if (!s.gauges().isEmpty()) {
                json.name("gauges").begin();
                s.gauges().forEach(json::field);
                json.end();
            }
            json.end();
        }
        return json.endArray().end() + "\n";
    }

    /** p50 and p99 (ms, logarithmic) above, errors and late arrivals (%) below, against the rate, steps in rate order. */
    public static Path chart(String rateProperty, List<Step> steps, Path file) throws IOException {
        List<Step> byRate = new ArrayList<>(steps);
        byRate.sort(Comparator.comparingDouble(Step::rate));
        double[] x = byRate.stream().mapToDouble(Step::rate).toArray();
        XYChart latency = chart("latency by rate", "ms", rateProperty);
        latency.getStyler().setYAxisLogarithmic(true);
        series(latency, "p50", x, RunCharts.floor(byRate.stream().mapToDouble(s -> s.p50Micros() / 1000.0).toArray()));
        series(latency, "p99", x, RunCharts.floor(byRate.stream().mapToDouble(s -> s.p99Micros() / 1000.0).toArray()));
        XYChart errors = chart("errors and late arrivals by rate", "% of requests / arrivals", rateProperty);
        series(errors, "errors", x, byRate.stream().mapToDouble(s -> s.errorRatio() * 100).toArray());
        series(errors, "late", x, byRate.stream().mapToDouble(s -> s.lateRatio() * 100).toArray());
        BitmapEncoder.saveBitmap(List.of(latency, errors), 2, 1, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        return file;
    }

    private static XYChart chart(String title, String yTitle, String rateProperty) {
        XYChart chart = RunCharts.chart(title, yTitle);
        chart.setXAxisTitle(rateProperty + " (target rate)");
        return chart;
    }

    private static void series(XYChart chart, String name, double[] x, double[] y) {
        XYSeries s = RunCharts.line(chart, name, x, y);
        s.setMarker(SeriesMarkers.CIRCLE);
    }

    /** A rate as the plan property takes it: a whole number without decimals. */
    public static String number(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : String.format(Locale.ROOT, "%.2f", value);
    }

    private static String percent(double ratio) {
        return String.format(Locale.ROOT, "%.2f%%", ratio * 100);
    }

    private static String duration(long micros) {
        return Durations.format(micros / 1000.0);
    }
}
