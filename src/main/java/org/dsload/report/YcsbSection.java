package org.dsload.report;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;

/**
 * The YCSB view of a run that used the YCSB Workload element (it leaves {@value #FILE} in the run's
 * folder): the workload's settings, then one row per operation with the figures S5 reports,
 * operations, TPS, average, min, max, p95 and p99 latency, and errors. TPS of an operation is its
 * count over the run phase's duration, so the rows add up to the overall TPS.
 */
public final class YcsbSection implements RunSection {

    @Override
    public int order() {
        return 100;
    }
    /** Written by the YCSB Workload element into the folder named by dsload.run_dir. */
    public static final String FILE = "ycsb-workload.properties";
    static final List<String> OPERATIONS = List.of("READ", "UPDATE", "INSERT", "SCAN", "READ-MODIFY-WRITE");
    static final String LOAD = "LOAD";

    @Override
    public Optional<String> render(Path runDir, Summary summary) throws IOException {
        Path file = runDir.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        Properties settings = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            settings.load(in);
        }
        StringBuilder out = new StringBuilder("== YCSB ==\n");
        out.append(String.format(Locale.ROOT, "%s, %s records of %s fields x %s chars, %s keys, %s; consistency read %s, write %s%n",
                settings.getProperty("workload", "?"), settings.getProperty("recordcount", "?"),
                settings.getProperty("fieldcount", "?"), settings.getProperty("fieldlength", "?"),
                settings.getProperty("requestdistribution", "?"), proportions(settings),
                settings.getProperty("readconsistency", "?"), settings.getProperty("writeconsistency", "?")));
        out.append(String.format(Locale.ROOT, "%-19s %11s %11s %10s %10s %10s %10s %10s %8s%n", "Operation",
                "Operations", "TPS", "Avg", "Min", "Max", "P95", "P99", "Errors"));
        LabelStats overall = new LabelStats("[OVERALL]");
        for (String op : OPERATIONS) {
            LabelStats s = summary.label(op);
            if (s != null) {
                overall.merge(s);
            }
        }
        double runSeconds = overall.totalMillis() / 1000.0;
        for (String op : OPERATIONS) {
            LabelStats s = summary.label(op);
            if (s != null) {
                row(out, op, s, runSeconds);
            }
        }
        if (overall.samples() > 0) {
            row(out, overall.label(), overall, runSeconds);
        }
        LabelStats load = summary.label(LOAD);
        if (load != null) {
            row(out, LOAD, load, load.totalMillis() / 1000.0);
        }
        return Optional.of(out.toString());
    }

    private static String proportions(Properties settings) {
        StringBuilder text = new StringBuilder();
        String[][] names = {{"readproportion", "read"}, {"updateproportion", "update"}, {"insertproportion", "insert"},
            {"scanproportion", "scan"}, {"readmodifywriteproportion", "read-modify-write"}};
        for (String[] name : names) {
            String value = settings.getProperty(name[0], "0");
            if (!value.matches("0(\\.0*)?")) {
                text.append(text.length() == 0 ? "" : " / ").append(name[1]).append(' ').append(value);
            }
        }
        return text.toString();
    }

    private static void row(StringBuilder out, String label, LabelStats s, double seconds) {
        Latencies h = s.latencies();
        out.append(String.format(Locale.ROOT, "%-19s %11d %11.1f %10s %10s %10s %10s %10s %8d%n", label, s.requests(),
                seconds > 0 ? s.requests() / seconds : 0.0, micros(h.mean()), micros(h.min()), micros(h.max()),
                micros(h.percentile(95)), micros(h.percentile(99)), s.requests() - s.successes()));
    }

    private static String micros(double value) {
        return Durations.format(value / 1000.0);
    }
}
