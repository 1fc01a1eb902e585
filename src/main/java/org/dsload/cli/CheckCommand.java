package org.dsload.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.dsload.cli.Main.UsageException;
import org.dsload.report.LabelStats;
import org.dsload.report.Limits;
import org.dsload.report.Summary;
import org.dsload.report.SummaryText;

/**
 * {@code dsload check}: judges a results file against latency-percentile and error-rate limits
 * and answers with the exit code, so a build (Maven's verify, a CI step) fails on a slow run as
 * it fails on a failed test.
 */
final class CheckCommand {
    static final int PASSED = 0;
    static final int FAILED = 1;

    private static final Pattern PERCENTILE_OPTION = Pattern.compile("--max-p(\\d+(?:\\.\\d+)?)");
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(us|µs|ms|s)");
    private static final Pattern PERCENT = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*%");

    private CheckCommand() {
    }

    static int run(List<String> args, PrintStream out) throws IOException {
        String jtl = null;
        Limits limits = new Limits();
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            Matcher percentile = PERCENTILE_OPTION.matcher(a);
            if (percentile.matches()) {
                double p = Double.parseDouble(percentile.group(1));
                if (!(p > 0 && p <= 100)) {
                    throw new UsageException(a + ": the percentile must lie above 0 and at most 100");
                }
                limits.maxPercentile(p, micros(Main.value(args, ++i, a), a));
            } else if (a.equals("--max-error-rate")) {
                limits.maxErrorRatio(ratio(Main.value(args, ++i, a), a));
            } else if (a.equals("--label")) {
                labels.add(Main.value(args, ++i, a));
            } else if (a.startsWith("-")) {
                throw new UsageException("unknown option " + a);
            } else if (jtl == null) {
                jtl = a;
            } else {
                throw new UsageException("check takes one results file");
            }
        }
        if (jtl == null) {
            throw new UsageException("check needs a results file");
        }
        if (limits.isEmpty()) {
            throw new UsageException("check needs at least one limit (--max-p99 20ms, --max-error-rate 1% ...)");
        }
        Path file = Path.of(jtl);
        if (!Files.isRegularFile(file)) {
            throw new IOException("no results file at " + file);
        }
        Summary summary = Summary.of(file);
        out.println("dsload check of " + file + ": " + SummaryText.METHOD);
        out.print(SummaryText.resolution(summary.total()));
        List<Limits.Verdict> failures = new ArrayList<>();
        for (LabelStats stats : judged(summary, labels)) {
            for (Limits.Verdict verdict : limits.judge(stats)) {
                out.println(verdict.line());
                if (!verdict.held()) {
                    failures.add(verdict);
                }
            }
        }
        if (failures.isEmpty()) {
            out.println("dsload check: passed");
            return PASSED;
        }
        out.println("dsload check: FAILED, " + failures.size() + (failures.size() == 1 ? " limit" : " limits")
                + " not kept: " + String.join("; ", failures.stream().map(v -> v.label() + " " + v.text()).toList()));
        return FAILED;
    }

    private static List<LabelStats> judged(Summary summary, List<String> labels) {
        if (labels.isEmpty()) {
            return List.of(summary.total());
        }
        List<LabelStats> judged = new ArrayList<>();
        for (String label : labels) {
            LabelStats stats = summary.label(label);
            // A label that never appeared fails as "no requests" rather than passing unseen.
            judged.add(stats != null ? stats : new LabelStats(label));
        }
        return judged;
    }

    /** A duration with its unit (20ms, 1.5s, 500us) in microseconds. */
    static long micros(String text, String option) {
        Matcher m = DURATION.matcher(text.trim());
        if (!m.matches()) {
            throw new UsageException(option + " takes a duration with its unit (500us, 20ms, 1.5s), got '" + text + "'");
        }
        BigDecimal value = new BigDecimal(m.group(1));
        BigDecimal factor = switch (m.group(2)) {
            case "us", "µs" -> BigDecimal.ONE;
            case "ms" -> BigDecimal.valueOf(1_000);
            default -> BigDecimal.valueOf(1_000_000);
        };
        return value.multiply(factor).setScale(0, java.math.RoundingMode.DOWN).longValueExact();
    }

    /** A percentage (1%, 0.5%) as a ratio between 0 and 1. */
    static double ratio(String text, String option) {
        Matcher m = PERCENT.matcher(text.trim());
        if (!m.matches()) {
            throw new UsageException(option + " takes a percentage such as 1% or 0.5%, got '" + text + "'");
        }
        double percent = Double.parseDouble(m.group(1));
        if (percent > 100) {
            throw new UsageException(option + " takes a percentage of at most 100%, got '" + text + "'");
        }
        return percent / 100;
    }
}
