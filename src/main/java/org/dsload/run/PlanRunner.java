package org.dsload.run;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.dsload.recording.Recording;
import org.dsload.recording.ResultsPlan;
import org.dsload.report.JtlColumns;
import org.dsload.report.JtlReader;
import org.dsload.report.RunCharts;
import org.dsload.report.RunReport;
import org.dsload.report.SlaveRoster;
import org.dsload.report.Summary;
import org.dsload.report.SummaryJson;

/**
 * Runs a plan headless in a JMeter process and leaves in {@code results/<run-id>/}: the JTL,
 * JMeter's log and console output, its HTML dashboard, and the dsload summary (text and JSON).
 *
 * <p>Properties reach JMeter through property files rather than {@code -J}/{@code -G} arguments,
 * which JMeter would copy into its log with their values; the files live outside the results
 * folder and are deleted after the run.
 */
public final class PlanRunner {
    /** The save settings every dsload report relies on. */
    static final Map<String, String> SAVE_SETTINGS = Map.ofEntries(
            Map.entry("jmeter.save.saveservice.output_format", "csv"),
            Map.entry("jmeter.save.saveservice.print_field_names", "true"),
            Map.entry("jmeter.save.saveservice.timestamp_format", "ms"),
            Map.entry("sampleresult.timestamp.start", "true"),
            Map.entry("jmeter.save.saveservice.sample_count", "true"),
            Map.entry("jmeter.save.saveservice.hostname", "true"),
            Map.entry("jmeter.save.saveservice.thread_counts", "true"),
            Map.entry("jmeter.save.saveservice.bytes", "true"),
            Map.entry("jmeter.save.saveservice.sent_bytes", "true"),
            Map.entry("jmeter.save.saveservice.latency", "true"),
            Map.entry("jmeter.save.saveservice.connect_time", "true"),
            Map.entry("jmeter.save.saveservice.idle_time", "true"),
            Map.entry("sample_variables", JtlColumns.TIMING));
    /** JMeter property naming the run's folder, for elements that leave files next to the JTL. */
    public static final String RUN_DIR_PROPERTY = "dsload.run_dir";
    /** Labels the HTML dashboard keeps (a regular expression). */
    static final String DASHBOARD_FILTER_PROPERTY = "jmeter.reportgenerator.sample_filter";
    /** JMeter runs this script at start-up (jsr223.init.file). */
    static final String INIT_SCRIPT_PROPERTY = "jsr223.init.file";
    private static final Pattern SECRET_NAME = Pattern.compile("(?i).*(pass|secret|token|credential|key).*");

    private final PrintStream console;

    public PlanRunner(PrintStream console) {
        this.console = console;
    }

    /** Where a run left its files, how JMeter ended, and the summary if there were samples. */
    public record Outcome(Path dir, Path jtl, int exitCode, boolean timedOut, Summary summary, String problem) {
        public boolean ok() {
            return problem == null;
        }
    }

    public Outcome run(PlanRun run) throws IOException, InterruptedException {
        Path jar = launcherJar(run.jmeterHome);
        if (!Files.isRegularFile(run.plan)) {
            throw new IOException("no plan at " + run.plan);
        }
        if (run.distributed()) {
            DistributedRun.checkNoLiteralSecrets(run);
        }
        Path dir = newRunDir(run);
        String planName = run.plan.getFileName().toString().replaceFirst("\\.jmx$", "");
        Path jtl = dir.resolve(planName + ".jtl");
        Path scratch = Files.createTempDirectory("dsload-run-");
        DistributedRun distributed = null;
        ResultsPlan results = null;
        try {
            results = ResultsPlan.prepare(run.plan, jtl, run.properties, console);
            writeRunRecord(run, dir);
            if (run.distributed()) {
                distributed = DistributedRun.prepare(run, dir, console);
                if (distributed.problem() != null) {
                    console.println("dsload: " + distributed.problem());
                    linkLatest(dir);
                    return new Outcome(dir, jtl, -1, false, null, distributed.problem());
                }
            }
            List<String> command = command(run, jar, dir, scratch, distributed, results);
            console.println("dsload: running " + run.plan + " -> " + dir);
            ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
            Process process = builder.start();
            Thread pump = pump(process, dir.resolve("jmeter.out"));
            if (distributed != null) {
                distributed.watch(process, dir.resolve("jmeter.log"));
            }
            boolean finished = run.timeout == null ? process.waitFor() >= 0
                    : process.waitFor(run.timeout.toMillis(), TimeUnit.MILLISECONDS);
            boolean timedOut = !finished;
            if (timedOut) {
                console.println("dsload: " + run.plan + " ran past its time limit of " + run.timeout.toSeconds()
                        + " s; stopping JMeter (pid " + process.pid() + ")");
                stop(process);
            }
            pump.join(10_000);
            int exit = process.exitValue();
            boolean stoppedForLostSlave = false;
            if (distributed != null) {
                distributed.runEnded();
                stoppedForLostSlave = distributed.masterStoppedForLostSlave();
                distributed.gatherRecordings(results.histograms());
            }
            boolean dashboardLeftToUs = results.dashboardAfterRun(run.dashboard)
                    || stoppedForLostSlave && results.dashboardByJMeter(run.dashboard);
            if (dashboardLeftToUs && Files.isRegularFile(jtl)) {
                dashboard(jar, dir, jtl, scratch.resolve("run.properties"));
            }
            return finish(dir, jtl, exit, timedOut, distributed, stoppedForLostSlave);
        } finally {
            if (distributed != null) {
                distributed.close();
            }
            if (results != null) {
                results.close();
            }
            deleteTree(scratch);
        }
    }

    private Outcome finish(Path dir, Path jtl, int exit, boolean timedOut, DistributedRun distributed,
            boolean stoppedForLostSlave) throws IOException {
        String problem = null;
        Summary summary = null;
        if (!Files.isRegularFile(jtl) || Files.size(jtl) == 0) {
            problem = "JMeter wrote no results (" + jtl + "); see " + dir.resolve("jmeter.log") + remoteErrors(dir);
        } else {
            try {
                summary = Summary.of(jtl);
                Files.writeString(dir.resolve("summary.txt"), RunReport.render(dir, summary), StandardCharsets.UTF_8);
                Files.writeString(dir.resolve("summary.json"), SummaryJson.render(summary), StandardCharsets.UTF_8);
                charts(jtl, dir);
                if (summary.total().samples() == 0) {
                    problem = "the run produced no samples; see " + dir.resolve("jmeter.log") + remoteErrors(dir);
                } else if (distributed != null) {
                    problem = distributed.checkResults(summary);
                }
            } catch (IOException e) {
                problem = "cannot read " + jtl + ": " + e.getMessage();
            }
        }
        if (problem == null && timedOut) {
            problem = "JMeter was stopped at the time limit";
        }
        // a master stopped on purpose exits with SIGTERM's code; its results file was checked above
        if (problem == null && exit != 0 && !stoppedForLostSlave) {
            problem = "JMeter exited with code " + exit + "; see " + dir.resolve("jmeter.log");
        }
        if (distributed != null) {
            for (SlaveRoster.Entry lost : distributed.lost()) {
                console.println("dsload: slave " + lost.address() + " was lost during the run: " + lost.detail()
                        + " (see the Slaves section of the summary)");
            }
        }
        linkLatest(dir);
        return new Outcome(dir, jtl, exit, timedOut, summary, problem);
    }

    /** What the master said about slaves it could not use, for a run without results. */
    private static String remoteErrors(Path dir) {
        Path out = dir.resolve("jmeter.out");
        try {
            if (!Files.isRegularFile(out)) {
                return "";
            }
            List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8).stream()
                    .filter(l -> l.contains("could not be configured") || l.contains("have not started")
                            || l.contains("Engine is busy") || l.contains("Failed to configure"))
                    .toList();
            return lines.isEmpty() ? "" : "; the master said: " + String.join(" | ", lines);
        } catch (IOException e) {
            return "";
        }
    }

    /** The HTML dashboard from the results file, for a master that was stopped before it made one. */
    private void dashboard(Path jar, Path dir, Path jtl, Path properties) throws InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(javaExecutable());
        command.addAll(JMeterJvm.baseOptions());
        command.addAll(JMeterJvm.heap("512m"));
        command.addAll(List.of("-jar", jar.toString(), "-g", jtl.toString(), "-o", dir.resolve("dashboard").toString(),
                "-j", dir.resolve("dashboard.log").toString(), "-q", properties.toString()));
        try {
            Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("dashboard.out").toFile()).start();
            if (!p.waitFor(5, TimeUnit.MINUTES)) {
                stop(p);
                console.println("dsload: the HTML dashboard took longer than 5 minutes; stopped");
            } else if (p.exitValue() != 0) {
                console.println("dsload: no HTML dashboard; see " + dir.resolve("dashboard.log"));
            }
        } catch (IOException e) {
            console.println("dsload: no HTML dashboard: " + e.getMessage());
        }
    }

    /** Charts are a view of the results: a failure to draw them is reported, not a failed run. */
    private void charts(Path jtl, Path dir) {
        try {
            RunCharts.write(jtl, dir, dir);
        } catch (IOException | RuntimeException e) {
            console.println("dsload: charts not written: " + e);
        }
    }

    private List<String> command(PlanRun run, Path jar, Path dir, Path scratch, DistributedRun distributed,
            ResultsPlan results) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(javaExecutable());
        command.addAll(JMeterJvm.baseOptions());
        command.addAll(run.jvmArgs);
        if (distributed != null) {
            command.addAll(distributed.masterJvmArgs());
        }
        command.add("-jar");
        command.add(jar.toString());
        command.add("-n");
        command.add("-t");
        command.add(results.plan().toAbsolutePath().toString());
        command.addAll(results.jmeterArgs());
        command.add("-j");
        command.add(dir.resolve("jmeter.log").toString());
        Properties local = new Properties();
        local.putAll(SAVE_SETTINGS);
        if (distributed != null) {
            local.putAll(distributed.masterProperties());
        }
        local.putAll(run.properties);
        local.putAll(results.properties());
        local.setProperty(RUN_DIR_PROPERTY, dir.toString());
        local.setProperty(Recording.RUN_ID_PROPERTY, dir.getFileName().toString());
        // a fault schedule's samples mark fault windows; they are no requests for the dashboard's figures
        local.putIfAbsent(DASHBOARD_FILTER_PROPERTY, "^(?!" + JtlReader.FAULT_PREFIX + ").*");
        local.setProperty("sample_variables", sampleVariables(run.properties.get("sample_variables")));
        if (run.distributed() && !local.containsKey(INIT_SCRIPT_PROPERTY)) {
            // The master of a distributed run runs no test elements: it records its own figures
            // from start-up (slaves record theirs when the test starts on them).
            Path script = scratch.resolve("master-metrics.groovy");
            Files.writeString(script, "org.dsload.generator.EngineMetrics.startForProcess('master')\n",
                    StandardCharsets.UTF_8);
            local.setProperty(INIT_SCRIPT_PROPERTY, script.toString());
        }
        Path localFile = scratch.resolve("run.properties");
        store(local, localFile);
        command.add("-q");
        command.add(localFile.toString());
        Map<String, String> globals = distributed != null ? distributed.slaveProperties(SAVE_SETTINGS) : run.globalProperties;
        if (distributed != null) {
            results.slaveProperties().forEach(globals::putIfAbsent);
        }
        if (!globals.isEmpty()) {
            Properties global = new Properties();
            global.putAll(globals);
            Path globalFile = scratch.resolve("global.properties");
            store(global, globalFile);
            command.add("-G" + globalFile);
        }
        if (distributed != null) {
            for (Path file : distributed.masterPropertyFiles()) {
                command.add("-q");
                command.add(file.toString());
            }
            command.add("-R");
            command.add(distributed.remoteHosts());
        }
        if (results.dashboardByJMeter(run.dashboard)) {
            command.add("-e");
            command.add("-o");
            command.add(dir.resolve("dashboard").toString());
        }
        command.addAll(run.extraArgs);
        return command;
    }

    /** The user's sample variables, with the dsload timing column added if missing. */
    static String sampleVariables(String requested) {
        if (requested == null || requested.isBlank()) {
            return JtlColumns.TIMING;
        }
        for (String name : requested.split(",")) {
            if (name.trim().equals(JtlColumns.TIMING)) {
                return requested;
            }
        }
        return requested + "," + JtlColumns.TIMING;
    }

    private static void store(Properties properties, Path file) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            properties.store(out, null);
        }
    }

    /** A record of what ran, with values of secret-looking properties masked. */
    private static void writeRunRecord(PlanRun run, Path dir) throws IOException {
        StringBuilder text = new StringBuilder();
        text.append("plan=").append(run.plan.toAbsolutePath()).append('\n');
        text.append("jmeter.home=").append(run.jmeterHome.toAbsolutePath()).append('\n');
        if (!run.remoteHosts.isEmpty()) {
            text.append("remote.hosts=").append(String.join(",", run.remoteHosts)).append('\n');
        }
        if (run.localSlaves > 0) {
            text.append("local.slaves=").append(run.localSlaves).append('\n');
        }
        run.properties.forEach((k, v) -> text.append("J ").append(k).append('=').append(mask(k, v)).append('\n'));
        run.globalProperties.forEach((k, v) -> text.append("G ").append(k).append('=').append(mask(k, v)).append('\n'));
        Files.writeString(dir.resolve("run.properties"), text, StandardCharsets.UTF_8);
    }

    static String mask(String name, String value) {
        return SECRET_NAME.matcher(name).matches() && !value.startsWith("env:") && !value.startsWith("file:")
                ? "****" : value;
    }

    private Thread pump(Process process, Path copy) {
        Thread thread = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                 PrintStream file = new PrintStream(Files.newOutputStream(copy), true, StandardCharsets.UTF_8)) {
                String line;
                while ((line = in.readLine()) != null) {
                    file.println(line);
                    console.println("  | " + line);
                }
            } catch (IOException e) {
                console.println("dsload: lost JMeter's console output: " + e.getMessage());
            }
        }, "jmeter-output");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static void stop(Process process) throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** The ApacheJMeter jar of a JMeter home. */
    public static Path launcherJar(Path home) throws IOException {
        Path bin = home.resolve("bin");
        if (Files.isDirectory(bin)) {
            try (var files = Files.list(bin)) {
                var jar = files.filter(p -> p.getFileName().toString().matches("ApacheJMeter(-[\\d.]+)?\\.jar")).findFirst();
                if (jar.isPresent()) {
                    return jar.get();
                }
            }
        }
        throw new IOException(home + " is not a JMeter home (no bin/ApacheJMeter*.jar): build one with ./mvnw package "
                + "or give --jmeter-home");
    }

    /** The java executable of this JVM, for the JMeter processes it starts. */
    public static String javaExecutable() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    private static Path newRunDir(PlanRun run) throws IOException {
        String planName = run.plan.getFileName().toString().replaceFirst("\\.jmx$", "");
        String base = run.runId != null ? run.runId
                : LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT)) + "-" + planName;
        Files.createDirectories(run.resultsRoot);
        Path dir = run.resultsRoot.resolve(base);
        for (int n = 2; Files.exists(dir); n++) {
            dir = run.resultsRoot.resolve(base + "-" + n);
        }
        Files.createDirectories(dir);
        return dir.toAbsolutePath();
    }

    private static void linkLatest(Path dir) {
        Path latest = dir.getParent().resolve("latest");
        try {
            Files.deleteIfExists(latest);
            Files.createSymbolicLink(latest, dir.getFileName());
        } catch (IOException | UnsupportedOperationException e) {
            // a convenience only; some file systems have no links
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
