package org.dsload.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlanRunnerTest {

    @Test
    void timingColumnIsAddedToTheUsersSampleVariables() {
        assertEquals("dsload_timing", JMeterCommand.sampleVariables(null));
        assertEquals("user,dsload_timing", JMeterCommand.sampleVariables("user"));
        assertEquals("dsload_timing,user", JMeterCommand.sampleVariables("dsload_timing,user"));
    }

    @Test
    void secretLookingPropertiesAreMaskedInTheRunRecord() {
        assertEquals("****", RunFolder.mask("redis_password", "hunter2"));
        assertEquals("****", RunFolder.mask("api_token", "abc"));
        assertEquals("env:REDIS_PW", RunFolder.mask("redis_password", "env:REDIS_PW"));
        assertEquals("127.0.0.1:6379", RunFolder.mask("hosts", "127.0.0.1:6379"));
        assertEquals("****", RunFolder.mask("server.rmi.ssl.keystore.password", "changeit"));
        assertEquals("****", RunFolder.mask("influx_token", "t0k3n"));
        assertEquals("****", RunFolder.mask("db_pass", "x"));
    }

    @Test
    void namesThatMerelyHoldKeyAreNoSecrets() {
        assertEquals("ycsb", RunFolder.mask("keyspace", "ycsb"));
        assertEquals("key:", RunFolder.mask("key_prefix", "key:"));
        assertEquals("10000", RunFolder.mask("keys", "10000"));
        assertEquals("100", RunFolder.mask("passes", "100"));
    }

    @Test
    void aTimestampFormatTheSummaryCannotReadRefusesTheRunAndMsIsSaidToSpoilTheDashboard(@TempDir Path home)
            throws Exception {
        Files.createDirectories(home.resolve("bin"));
        PlanRun run = new PlanRun(home, home.resolve("p.jmx"));
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(console, true, StandardCharsets.UTF_8);
        assertNull(TimestampFormat.refusal(run, out));

        Files.writeString(home.resolve("bin/user.properties"), "jmeter.save.saveservice.timestamp_format=ms\n");
        assertNull(TimestampFormat.refusal(run, out));
        assertTrue(console.toString(StandardCharsets.UTF_8).contains("user.properties sets "
                + "jmeter.save.saveservice.timestamp_format=ms, which JMeter's dashboard takes for a date pattern"));

        run.property("jmeter.save.saveservice.timestamp_format", "yyyy/MM/dd HH:mm:ss");
        assertTrue(TimestampFormat.refusal(run, out).startsWith("-Jjmeter.save.saveservice.timestamp_format sets "
                + "jmeter.save.saveservice.timestamp_format=yyyy/MM/dd HH:mm:ss: the results would hold dates"));
    }

    @Test
    void aMetricsPortInUseRefusesTheRunBeforeJMeterStartsAndSaysWhichAndWhatToDo(@TempDir Path home) throws Exception {
        PlanRun run = new PlanRun(home, home.resolve("p.jmx"));
        assertNull(PlanRunner.metricsPortRefusal(run));
        run.property(org.dsload.core.format.RunProperties.METRICS_PORT, "0");
        assertNull(PlanRunner.metricsPortRefusal(run), "0: no endpoint");
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0)) {
            run.property(org.dsload.core.format.RunProperties.METRICS_PORT, Integer.toString(taken.getLocalPort()));
            assertEquals("cannot serve metrics on port " + taken.getLocalPort() + ": it is in use on this machine; choose"
                    + " another with --metrics-port (or -Jdsload.metrics_port), or 0 for none",
                    PlanRunner.metricsPortRefusal(run));
        }
        run.property(org.dsload.core.format.RunProperties.METRICS_PORT, "http");
        assertEquals("dsload.metrics_port must be a port number (1 to 65535), got 'http'", PlanRunner.metricsPortRefusal(run));
    }

    @Test
    void aPlanJMeterCouldNotLoadIsSaidWithTheCauseTheElementsPathAndWhatToDo(@TempDir Path dir) throws Exception {
        assertNull(RunFolder.planNotLoaded(dir), "no output, nothing said");
        Files.writeString(dir.resolve("jmeter.out"), """
                Error in NonGUIDriver java.lang.IllegalArgumentException: Problem loading XML from:'/tmp/p.jmx'.\s
                Cause:
                CannotResolveClassException: kg.apc.jmeter.threads.UltimateThreadGroup

                 Detail:com.thoughtworks.xstream.converters.ConversionException:\s
                ---- Debugging information ----
                cause-exception     : com.thoughtworks.xstream.converters.ConversionException
                path                : /jmeterTestPlan/hashTree/hashTree/kg.apc.jmeter.threads.UltimateThreadGroup
                line number         : 12
                version             : 5.6.3
                -------------------------------
                """, StandardCharsets.UTF_8);
        assertEquals("JMeter could not load the plan: CannotResolveClassException: kg.apc.jmeter.threads.UltimateThreadGroup"
                + " at /jmeterTestPlan/hashTree/hashTree/kg.apc.jmeter.threads.UltimateThreadGroup; no jar of the"
                + " JMeter home holds that class: install the plugin that provides it into the home's lib/ext (and every"
                + " slave's)", RunFolder.planNotLoaded(dir));
        Files.writeString(dir.resolve("jmeter.out"), "Starting standalone test\n... end of run\n", StandardCharsets.UTF_8);
        assertNull(RunFolder.planNotLoaded(dir), "a plan that loaded");
    }
}
