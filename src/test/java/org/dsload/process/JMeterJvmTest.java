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

    /** What {@code java <options> -version} prints, once it exited with 0. */
    private static String javaVersion(List<String> options) throws Exception {
        List<String> command = new ArrayList<>(List.of(Java.executable()));
        command.addAll(options);
        command.add("-version");
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
