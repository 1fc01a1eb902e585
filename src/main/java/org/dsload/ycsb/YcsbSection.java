package org.dsload.ycsb;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;

import org.dsload.core.format.RunFiles;
import org.dsload.report.Durations;
import org.dsload.report.LabelStats;
import org.dsload.report.Latencies;
import org.dsload.report.RunSection;
import org.dsload.report.Summary;

/**
 * The YCSB view of a run that used the YCSB Workload element (it leaves {@value #FILE} in the run's
 * folder): the workload's settings, then one row per operation with the figures S5 reports,
 * operations, TPS, average, min, max, p50, p95 and p99 latency, and errors. TPS of an operation is
 * its count over the run phase's duration, so the rows add up to the overall TPS. An operation of
 * the mix keeps its row when every one of its samples failed, and when it has none at all.
 */
public final class YcsbSection implements RunSection {
    /** Written by the YCSB Workload element into the folder named by dsload.run_dir. */
    public static final String FILE = "ycsb-workload.properties";
    static final List<String> OPERATIONS = List.of("READ", "UPDATE", "INSERT", "SCAN", "READ-MODIFY-WRITE");
    static final String LOAD = "LOAD";
    private static final String[] PROPORTIONS = {"readproportion", "updateproportion", "insertproportion",
        "scanproportion", "readmodifywriteproportion"};

    @Override
    public int order() {
        return 100;
    }

    @Override
    public Optional<String> render(Path runDir, Summary summary) throws IOException {
        // a distributed run leaves it in each slave's folder: every slave runs the same workload
        List<Path> files = RunFiles.find(runDir, FILE);
        if (files.isEmpty() || !Files.isRegularFile(files.get(0))) {
            return Optional.empty();
        }
        Path file = files.get(0);
        Properties settings = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            settings.load(in);
        }
        StringBuilder out = new StringBuilder("== YCSB ==\n");
        out.append(String.format(Locale.ROOT, "%s, %s records of %s fields x %s chars, %s keys, %s; %s%n",
                settings.getProperty("workload", "?"), settings.getProperty("recordcount", "?"),
                settings.getProperty("fieldcount", "?"), settings.getProperty("fieldlength", "?"),
                settings.getProperty("requestdistribution", "?"), proportions(settings), store(settings)));
        out.append(String.format(Locale.ROOT, "%-19s %11s %11s %10s %10s %10s %10s %10s %10s %8s%n", "Operation",
                "Operations", "TPS", "Avg", "Min", "Max", "P50", "P95", "P99", "Errors"));
        LabelStats overall = new LabelStats("[OVERALL]");
        for (String op : OPERATIONS) {
            LabelStats s = summary.label(op);
            if (s != null) {
                overall.merge(s);
            }
        }
        double runSeconds = overall.totalMillis() / 1000.0;
        for (int i = 0; i < OPERATIONS.size(); i++) {
            LabelStats s = summary.label(OPERATIONS.get(i));
            if (s != null) {
                row(out, OPERATIONS.get(i), s, runSeconds);
            } else if (!isZero(settings.getProperty(PROPORTIONS[i], "0"))) {
                row(out, OPERATIONS.get(i), new LabelStats(OPERATIONS.get(i)), runSeconds);
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

    /** The binding, and the consistency levels where it is CQL's (files without a binding are from CQL runs). */
    private static String store(Properties settings) {
        String binding = settings.getProperty("binding", "cassandra");
        String consistency = "consistency read " + settings.getProperty("readconsistency", "?") + ", write "
                + settings.getProperty("writeconsistency", "?");
        if (binding.equals("cassandra")) {
            return consistency;
        }
        return "store " + binding + (settings.getProperty("readconsistency") != null ? " (cassandra: " + consistency + ")" : "");
    }

    private static boolean isZero(String proportion) {
        return proportion.matches("0(\\.0*)?");
    }

    private static String proportions(Properties settings) {
        StringBuilder text = new StringBuilder();
        String[][] names = {{"readproportion", "read"}, {"updateproportion", "update"}, {"insertproportion", "insert"},
            {"scanproportion", "scan"}, {"readmodifywriteproportion", "read-modify-write"}};
        for (String[] name : names) {
            String value = settings.getProperty(name[0], "0");
            if (!isZero(value)) {
                text.append(text.length() == 0 ? "" : " / ").append(name[1]).append(' ').append(value);
            }
        }
        return text.toString();
    }

    private static void row(StringBuilder out, String label, LabelStats s, double seconds) {
        Latencies h = s.latencies();
        boolean any = h.count() > 0;
        out.append(String.format(Locale.ROOT, "%-19s %11d %11.1f %10s %10s %10s %10s %10s %10s %8d%n", label, s.requests(),
                seconds > 0 ? s.requests() / seconds : 0.0, micros(any, h.mean()), micros(any, h.min()),
                micros(any, h.max()), micros(any, h.percentile(50)), micros(any, h.percentile(95)),
                micros(any, h.percentile(99)), s.requests() - s.successes()));
    }

    private static String micros(boolean any, double value) {
        return any ? Durations.format(value / 1000.0) : "-";
    }
}
