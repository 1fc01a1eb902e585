package org.dsload.run;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.dsload.core.format.JtlColumns;
import org.dsload.core.format.RunProperties;
import org.dsload.process.JMeterJvm;
import org.dsload.process.Java;
import org.dsload.recording.ResultsPlan;
import org.dsload.report.JtlReader;

/**
 * The command lines of the JMeter processes a run starts: the headless run itself, and the HTML
 * dashboard made afterwards from a results file.
 *
 * <p>Properties reach JMeter through property files rather than {@code -J}/{@code -G} arguments,
 * which JMeter would copy into its log with their values; the files live in a scratch folder
 * outside the results folder, which the runner deletes after the run.
 */
public final class JMeterCommand {
    /**
     * The save settings every dsload report relies on. Time stamps are JMeter's default, epoch
     * milliseconds, left unset on purpose ({@link TimestampFormat}).
     */
    static final Map<String, String> SAVE_SETTINGS = Map.ofEntries(
            Map.entry("jmeter.save.saveservice.output_format", "csv"),
            Map.entry("jmeter.save.saveservice.print_field_names", "true"),
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
    /** Labels the HTML dashboard keeps (a regular expression). */
    static final String DASHBOARD_FILTER_PROPERTY = "jmeter.reportgenerator.sample_filter";
    /** JMeter runs this script at start-up (jsr223.init.file). */
    static final String INIT_SCRIPT_PROPERTY = "jsr223.init.file";
    /** The master's properties file in the scratch folder, which the dashboard command reads too. */
    static final String PROPERTIES_FILE = "run.properties";
    /** JMeter property naming a log4j2 configuration for JMeter instead of dsload's headless one. */
    static final String LOG_CONFIG_PROPERTY = "dsload.log_config";
    private static final String LOG_CONFIG_FILE = "log4j2.xml";
    /** JMeter's property: whether its summariser prints on the console (it logs either way). */
    static final String SUMMARISER_OUT = "summariser.out";

    private JMeterCommand() {
    }

    /**
     * The headless run of the plan into the run folder; a distributed run adds its slaves and their
     * properties; {@code results} says which plan JMeter runs and who writes the results file.
     */
    static List<String> headless(PlanRun run, Path jar, Path dir, Path scratch, DistributedRun distributed,
            ResultsPlan results) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Java.executable());
        command.addAll(JMeterJvm.classData(run.jmeterHome));
        command.addAll(JMeterJvm.baseOptions());
        command.addAll(run.jvmArgs);
        if (distributed != null) {
            command.addAll(distributed.masterJvmArgs());
        }
        command.addAll(List.of("-jar", jar.toString(), "-n", "-t", results.plan().toAbsolutePath().toString()));
        command.addAll(results.jmeterArgs());
        command.addAll(List.of("-j", dir.resolve("jmeter.log").toString()));
        command.addAll(List.of("-i", logConfig(scratch, run.properties.get(LOG_CONFIG_PROPERTY)).toString()));
        Properties local = new Properties();
        local.putAll(SAVE_SETTINGS);
        if (distributed != null) {
            local.putAll(distributed.masterProperties());
        }
        if (run.properties.containsKey(RunProperties.PROGRESS)) {
            // the live line (or, quiet, nothing) in place of the summariser's lines; they stay in jmeter.log
            local.setProperty(SUMMARISER_OUT, "false");
        }
        local.putAll(run.properties);
        local.putAll(results.properties());
        local.setProperty(RunProperties.RUN_DIR, dir.toString());
        local.setProperty(RunProperties.RUN_ID, dir.getFileName().toString());
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
        if (distributed != null) {
            // JMeter's sample senders take their thresholds from the master's properties when it makes
            // them (sample_sender_client_configured, true by default), before the -G ones reach a slave
            results.slaveProperties().forEach(local::putIfAbsent);
        }
        Path localFile = scratch.resolve(PROPERTIES_FILE);
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
            command.addAll(List.of("-e", "-o", dir.resolve("dashboard").toString()));
        }
        command.addAll(run.extraArgs);
        return command;
    }

    /** JMeter's HTML dashboard made from a results file, for a master that was stopped before it made one. */
    static List<String> dashboard(Path jar, Path dir, Path jtl, Path properties) {
        List<String> command = new ArrayList<>();
        command.add(Java.executable());
        command.addAll(JMeterJvm.classData(jar.getParent().getParent()));
        command.addAll(JMeterJvm.baseOptions());
        command.addAll(JMeterJvm.heap("512m"));
        command.addAll(List.of("-jar", jar.toString(), "-g", jtl.toString(), "-o", dir.resolve("dashboard").toString(),
                "-j", dir.resolve("dashboard.log").toString(), "-q", properties.toString()));
        Path logConfig = properties.resolveSibling(LOG_CONFIG_FILE);
        if (Files.isRegularFile(logConfig)) {
            command.addAll(List.of("-i", logConfig.toString()));
        }
        return command;
    }

    /**
     * The logging configuration JMeter starts with: the user's ({@value #LOG_CONFIG_PROPERTY}), or
     * dsload's headless one, written into the scratch folder: JMeter's own names a GUI appender found by
     * package scanning, and log4j warns of that scanning on the console at every start (four lines).
     */
    static Path logConfig(Path scratch, String chosen) throws IOException {
        if (chosen != null && !chosen.isBlank()) {
            return Path.of(chosen.trim()).toAbsolutePath();
        }
        Path file = scratch.resolve(LOG_CONFIG_FILE);
        try (var in = JMeterCommand.class.getResourceAsStream("headless-log4j2.xml")) {
            if (in == null) {
                throw new IOException("headless-log4j2.xml is missing from the dsload jar");
            }
            Files.copy(in, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        return file;
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

}
