package org.dsload.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Two runs side by side, label by label: throughput and latency percentiles of each, the change from
 * the first (A, the reference) to the second (B), and whether the change is beyond run-to-run noise.
 * The noise is judged on the runs' own seconds: a two-sided {@link MannWhitney} test of each whole
 * second's p99 in A against B, and of each whole second's requests. A label regressed when the test
 * finds B's p99 higher (or its requests per second lower) at {@code alpha}, and the whole run's figure
 * moved that way by more than {@code minChange}: a difference too small to matter is not called a
 * regression however sure the test is of it.
 */
public final class RunComparison {
    /** The latency percentiles compared. */
    public static final double[] PERCENTILES = {50, 90, 99, 99.9};
    public static final double DEFAULT_ALPHA = 0.01;
    public static final double DEFAULT_MIN_CHANGE = 0.10;

    /** A run as compared: its results file, summary and each label's seconds. */
    public record Run(Path jtl, Summary summary, Map<String, TimeSeries> seconds) {
        /** Reads the run whose results file (or run folder) this is; both recording modes alike. */
        public static Run read(Path fileOrRunDir) throws IOException {
            Path jtl = RunResults.find(fileOrRunDir);
            Summary summary = Summary.of(jtl);
            Path runDir = jtl.toAbsolutePath().getParent();
            return new Run(jtl, summary, TimeSeries.byLabel(jtl, runDir));
        }

        /** The labels with requests, a warm-up's left out, in the order they first appear. */
        public List<String> labels() {
            return summary.labels().stream().filter(s -> s.requests() > 0 && !WarmUp.is(s.label()))
                    .map(LabelStats::label).toList();
        }

        double[] wholeSeconds(String label, java.util.function.ToDoubleFunction<TimeSeries.Second> figure) {
            TimeSeries series = seconds.get(label);
            return series == null ? new double[0] : series.wholeSeconds(figure);
        }
    }

    /** One figure of a label in both runs: latencies in microseconds, throughput in requests per second. */
    public record Figure(String name, double a, double b) {
        public double change() {
            return BaselineLimits.change(a, b);
        }

        boolean latency() {
            return name.startsWith("p");
        }

        String format(double value) {
            return latency() ? Limits.micros((long) value) : BaselineLimits.perSecond(value);
        }
    }

    /** The per-second test of one figure of a label, and what it says. */
    public record Noise(String figure, MannWhitney test, boolean judged, boolean regressed, String verdict) {
    }

    /** A label in both runs. */
    public record Label(String label, List<Figure> figures, Noise latency, Noise throughput) {
        public boolean regressed() {
            return latency.regressed() || throughput.regressed();
        }

        Figure figure(String name) {
            return figures.stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow();
        }
    }

    private final Run a;
    private final Run b;
    private final double alpha;
    private final double minChange;
    private final List<Label> labels = new ArrayList<>();

    private RunComparison(Run a, Run b, double alpha, double minChange) {
        this.a = a;
        this.b = b;
        this.alpha = alpha;
        this.minChange = minChange;
    }

    /**
     * Compares the labels the two runs have in common.
     *
     * @throws IllegalArgumentException when they have none, naming each run's labels
     */
    public static RunComparison of(Run a, Run b, double alpha, double minChange) {
        List<String> common = a.labels().stream().filter(b.labels()::contains).toList();
        if (common.isEmpty()) {
            throw new IllegalArgumentException(noLabelInCommon(a, b));
        }
        RunComparison comparison = new RunComparison(a, b, alpha, minChange);
        for (String label : common) {
            comparison.labels.add(comparison.compare(label));
        }
        return comparison;
    }

    /** What is said of two runs without a label in common: the labels of each. */
    public static String noLabelInCommon(Run a, Run b) {
        return "the runs have no label in common: " + a.jtl() + " has " + quoted(a.labels()) + ", " + b.jtl()
                + " has " + quoted(b.labels());
    }

    /** Labels in quotes, comma separated; "no requests" for none. */
    public static String quoted(List<String> labels) {
        return labels.isEmpty() ? "no requests" : String.join(", ", labels.stream().map(l -> "'" + l + "'").toList());
    }

    private Label compare(String label) {
        LabelStats sa = a.summary().label(label);
        LabelStats sb = b.summary().label(label);
        List<Figure> figures = new ArrayList<>();
        figures.add(new Figure("throughput", sa.throughput(), sb.throughput()));
        for (double p : PERCENTILES) {
            figures.add(new Figure("p" + Limits.plain(p), sa.latencies().percentile(p), sb.latencies().percentile(p)));
        }
        Figure p99 = figures.stream().filter(f -> f.name().equals("p99")).findFirst().orElseThrow();
        Noise latency = noise("p99", a.wholeSeconds(label, TimeSeries::p99), b.wholeSeconds(label, TimeSeries::p99),
                p99.change(), true);
        Noise throughput = noise("requests", a.wholeSeconds(label, TimeSeries::requests),
                b.wholeSeconds(label, TimeSeries::requests), figures.get(0).change(), false);
        return new Label(label, figures, latency, throughput);
    }

    /** @param higherIsWorse true for a latency, false for requests per second */
    private Noise noise(String figure, double[] secondsA, double[] secondsB, double change, boolean higherIsWorse) {
        MannWhitney test = MannWhitney.test(secondsA, secondsB);
        String counts = secondsA.length + " vs " + secondsB.length + " s";
        if (MannWhitney.smallestP(secondsA.length, secondsB.length) >= alpha) {
            return new Noise(figure, test, false, false, "cannot tell: too few whole seconds (" + counts
                    + ") for the test to find anything at alpha " + plain(alpha));
        }
        String p = "p=" + pValue(test.p()) + " (" + counts + ")";
        if (test.p() >= alpha) {
            return new Noise(figure, test, true, false, p + ", within noise");
        }
        boolean worse = higherIsWorse ? test.secondHigher() : test.secondLower();
        boolean beyond = higherIsWorse ? change > minChange : -change > minChange;
        if (!worse) {
            return new Noise(figure, test, true, false, p + ", better beyond noise");
        }
        if (!beyond) {
            return new Noise(figure, test, true, false, p + ", worse beyond noise but by less than "
                    + Limits.percent(minChange));
        }
        return new Noise(figure, test, true, true, p + ", REGRESSED");
    }

    public List<Label> labels() {
        return labels;
    }

    public Run a() {
        return a;
    }

    public Run b() {
        return b;
    }

    public boolean regressed() {
        return labels.stream().anyMatch(Label::regressed);
    }

    /** How the noise is judged, in a sentence. */
    public String method() {
        return "noise: two-sided " + MannWhitney.NAME + " test of each whole second's p99 and of each whole second's"
                + " requests (first and last second left out), A against B, alpha " + plain(alpha) + "; a label"
                + " regressed when the test finds B's p99 higher or its requests lower and the whole run's figure"
                + " moved so by more than " + Limits.percent(minChange);
    }

    public String text() {
        StringBuilder out = new StringBuilder();
        out.append("dsload compare\n");
        out.append("A: ").append(a.jtl()).append('\n');
        out.append("B: ").append(b.jtl()).append('\n');
        out.append(method()).append('\n');
        out.append('\n');
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"label", "figure", "A", "B", "change", "per-second " + MannWhitney.NAME});
        for (Label label : labels) {
            for (Figure f : label.figures()) {
                String test = f.name().equals("throughput") ? "requests " + label.throughput().verdict()
                        : f.name().equals("p99") ? "p99 " + label.latency().verdict() : "";
                rows.add(new String[] {label.label(), f.name(), f.format(f.a()), f.format(f.b()),
                        BaselineLimits.signedPercent(f.change()), test});
            }
        }
        int[] widths = new int[rows.get(0).length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                line.append(i == row.length - 1 ? row[i] : String.format(Locale.ROOT, "%-" + widths[i] + "s  ", row[i]));
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        out.append('\n');
        List<String> regressed = new ArrayList<>();
        for (Label label : labels) {
            if (label.latency().regressed()) {
                regressed.add(label.label() + " p99 " + BaselineLimits.signedPercent(label.figure("p99").change()));
            }
            if (label.throughput().regressed()) {
                regressed.add(label.label() + " throughput "
                        + BaselineLimits.signedPercent(label.figure("throughput").change()));
            }
        }
        boolean withinNoise = labels.stream().allMatch(l -> l.latency().verdict().endsWith("within noise")
                && l.throughput().verdict().endsWith("within noise"));
        out.append(!regressed.isEmpty()
                ? "dsload compare: REGRESSED beyond the noise: " + String.join("; ", regressed) + "\n"
                : "dsload compare: no label regressed beyond the noise" + (withinNoise ? " (within noise)" : "") + "\n");
        return out.toString();
    }

    public String json() {
        Json json = new Json().begin();
        json.field("a", a.jtl().toString()).field("b", b.jtl().toString());
        json.field("test", MannWhitney.NAME).field("alpha", alpha).field("minChange", minChange);
        json.field("regressed", regressed());
        json.name("labels").beginArray();
        for (Label label : labels) {
            json.begin().field("label", label.label()).field("regressed", label.regressed());
            json.name("figures").begin();
            for (Figure f : label.figures()) {
                json.name(f.name()).begin().field("unit", f.latency() ? "ms" : "requests/s")
                        .field("a", f.latency() ? f.a() / 1000 : f.a()).field("b", f.latency() ? f.b() / 1000 : f.b())
                        .field("change", f.change()).end();
            }
            json.end();
            json.name("tests").beginArray();
            for (Noise noise : List.of(label.latency(), label.throughput())) {
                json.begin().field("figure", noise.figure() + " per second").field("judged", noise.judged())
                        .field("secondsA", noise.test().n1()).field("secondsB", noise.test().n2())
                        .field("u", noise.test().u()).field("p", noise.test().p())
                        .field("regressed", noise.regressed()).field("verdict", noise.verdict()).end();
            }
            json.endArray().end();
        }
        json.endArray();
        return json.end().toString() + "\n";
    }

    private static String pValue(double p) {
        return p < 0.0001 ? String.format(Locale.ROOT, "%.1e", p) : Limits.plain(p);
    }

    private static String plain(double value) {
        return Limits.plain(value);
    }
}
