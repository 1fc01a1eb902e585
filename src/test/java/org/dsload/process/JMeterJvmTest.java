package org.dsload.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JMeterJvmTest {
    @Test
    void theJavaThatRunsJMeterAcceptsEveryOption() throws Exception {
        List<String> options = new ArrayList<>(JMeterJvm.baseOptions());
        options.addAll(JMeterJvm.heap("64m"));
        String output = javaVersion(options);
        assertFalse(output.contains("Unrecognized") || output.contains("warning"), output);
    }

    @Test
    void dsloadsAndJMetersMethodsReachTheSecondCompilerAtATenthOfItsThresholdsAndTheJvmSaysNothingOfIt()
            throws Exception {
        String main = RowsAMillisecond.class.getName();
        // the test's own class path: JMeter's jar and what it needs (its logging) besides the test classes
        String classes = System.getProperty("java.class.path");
        // without the caller's own options (a -XX:TieredStopAtLevel=1 there would leave C2 out)
        List<String> options = new ArrayList<>(JMeterJvm.baseOptions(List.of()));
        options.addAll(List.of("-XX:+PrintCompilation", "-cp", classes, main));
        String scaled = java(options);
        assertTrue(scaled.contains("sum "), scaled);
        assertFalse(scaled.contains("CompileCommand"), "the command is not printed: " + scaled);
        String row = "org.dsload.process.RowsAMillisecond::row";
        String label = "org.apache.jmeter.samplers.SampleResult::setResponseData";
        for (String method : List.of(row, label)) {
            assertTrue(compiledByC2(scaled, method), method + " compiled by C2 after " + RowsAMillisecond.CALLS
                    + " calls:\n" + scaled);
        }

        // the same calls in a JVM without the scaling stay short of C2: the options are what compile them
        List<String> plain = new ArrayList<>(options);
        assertTrue(plain.removeIf(o -> o.contains("CompileThresholdScaling")));
        String unscaled = java(plain);
        assertFalse(compiledByC2(unscaled, row), unscaled);
        assertFalse(compiledByC2(unscaled, label), unscaled);
    }


    /** Whether -XX:+PrintCompilation's {@code output} shows {@code method} compiled at level 4 (C2). */
    private static boolean compiledByC2(String output, String method) {
        return output.lines().filter(l -> l.contains(method)).map(l -> l.trim().split("\\s+"))
                .anyMatch(fields -> fields.length > 3 && (fields[2].equals("4") || fields[3].equals("4")));
    }

    @Test
    void aJvmToldToStopShortOfC2GetsNoScalingTowardsIt() {
        assertTrue(JMeterJvm.baseOptions(List.of()).stream().anyMatch(o -> o.contains("CompileThresholdScaling")));
        List<String> c1 = JMeterJvm.baseOptions(List.of("-XX:TieredStopAtLevel=1"));
        assertFalse(c1.stream().anyMatch(o -> o.startsWith("-XX:CompileCommand")), c1.toString());
        assertTrue(c1.contains("-XX:TieredStopAtLevel=1"));
        // the last of several wins, as in the JVM
        assertTrue(JMeterJvm.reachesC2(List.of("-XX:TieredStopAtLevel=1", "-Xss1m", "-XX:TieredStopAtLevel=4")));
        assertFalse(JMeterJvm.reachesC2(List.of("-XX:TieredStopAtLevel=4", "-XX:TieredStopAtLevel=3")));
        assertTrue(JMeterJvm.reachesC2(List.of("-Xshare:off")));
    }

    /** What {@code java <options> -version} prints, once it exited with 0. */
    private static String javaVersion(List<String> options) throws Exception {
        List<String> command = new ArrayList<>(options);
        command.add("-version");
        return java(command);
    }

    /** What {@code java <arguments>} prints, once it exited with 0. */
    private static String java(List<String> arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of(Java.executable()));
        command.addAll(arguments);
        Process java = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(java.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, java.exitValue(), output);
        return output;
    }

    @Test
    void aPlainEnglishFormatLocaleGetsItsCountryAndNoOtherLocaleIsChanged() {
        Locale before = Locale.getDefault(Locale.Category.FORMAT);
        try {
            Locale.setDefault(Locale.Category.FORMAT, Locale.ENGLISH);
            assertTrue(JMeterJvm.baseOptions().contains("-Duser.country=US"));
            Locale.setDefault(Locale.Category.FORMAT, Locale.GERMANY);
            assertTrue(JMeterJvm.baseOptions().stream().noneMatch(o -> o.startsWith("-Duser.")));
            Locale.setDefault(Locale.Category.FORMAT, Locale.UK);
            assertTrue(JMeterJvm.baseOptions().stream().noneMatch(o -> o.startsWith("-Duser.")));
        } finally {
            Locale.setDefault(Locale.Category.FORMAT, before);
        }
    }

    @Test
    void aHomeWithoutAnArchiveMapsNoneAndAnArchiveTheJvmCannotUseIsPassedOverInSilence(@TempDir Path home)
            throws Exception {
        assertEquals(List.of(), JMeterJvm.classData(home));
        Files.createDirectories(home.resolve("bin"));
        // what a JVM finds in an archive of another JDK or of replaced jars: nothing it can map
        Files.writeString(home.resolve("bin").resolve(JMeterJvm.CLASS_DATA), "not an archive");
        List<String> options = JMeterJvm.classData(home);
        assertTrue(options.contains("-XX:SharedArchiveFile=" + home.resolve("bin").resolve(JMeterJvm.CLASS_DATA)
                .toAbsolutePath()), options.toString());
        List<String> all = new ArrayList<>(options);
        all.addAll(JMeterJvm.baseOptions());
        String output = javaVersion(all);
        assertFalse(output.contains("warning") || output.contains("archive"), output);
    }
}
