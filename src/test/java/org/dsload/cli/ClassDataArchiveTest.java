package org.dsload.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarFile;

import org.dsload.process.JMeterJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClassDataArchiveTest {
    @Test
    void theLauncherNamesJMeterAndEveryJarOfLibAndLibExtInJMeterOrderAndStartsJMeter(@TempDir Path root)
            throws Exception {
        Path home = root.resolve("jmeter home");
        for (String file : List.of("bin/ApacheJMeter-5.6.3.jar", "lib/jedis-8.0.2.jar", "lib/HdrHistogram-2.1.12.jar",
                "lib/notes.txt", "lib/my driver.jar", "lib/ext/dsload-0.1.0.jar", "lib/ext/ApacheJMeter_core-5.6.3.jar")) {
            Files.createDirectories(home.resolve(file).getParent());
            Files.writeString(home.resolve(file), "x");
        }
        Path launcher = home.resolve("bin").resolve(JMeterJvm.LAUNCHER);
        ClassDataArchive.writeLauncher(home, launcher);
        try (JarFile jar = new JarFile(launcher.toFile())) {
            Attributes main = jar.getManifest().getMainAttributes();
            assertEquals("org.apache.jmeter.NewDriver", main.getValue(Attributes.Name.MAIN_CLASS));
            // JMeter's launcher sorts each folder by name, capitals first; a manifest takes URLs
            assertEquals("ApacheJMeter-5.6.3.jar ../lib/HdrHistogram-2.1.12.jar ../lib/jedis-8.0.2.jar"
                    + " ../lib/my%20driver.jar ../lib/ext/ApacheJMeter_core-5.6.3.jar ../lib/ext/dsload-0.1.0.jar",
                    main.getValue(Attributes.Name.CLASS_PATH));
            assertEquals(1, jar.stream().filter(e -> !e.isDirectory()).count(), "the manifest alone");
        }
        assertEquals(launcher.toRealPath(), JMeterJvm.launcherJar(home));
        Files.delete(launcher);
        assertEquals(home.resolve("bin/ApacheJMeter-5.6.3.jar"), JMeterJvm.launcherJar(home));
    }
}
