package org.dsload.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BundleInstallerTest {
    @TempDir
    Path dir;
    private Path bundle;
    private Path home;
    private final ByteArrayOutputStream output = new ByteArrayOutputStream();
    private BundleInstaller installer;

    private static void touch(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, file.getFileName().toString());
    }

    @BeforeEach
    void layout() throws IOException {
        bundle = dir.resolve("bundle");
        home = dir.resolve("home");
        touch(bundle.resolve("lib/ext/dsload-1.0.jar"));
        touch(bundle.resolve("lib/jedis-8.0.2.jar"));
        touch(bundle.resolve("lib/gson-2.14.0.jar"));
        touch(home.resolve("bin/ApacheJMeter-5.6.3.jar"));
        touch(home.resolve("lib/ext/ApacheJMeter_core-5.6.3.jar"));
        touch(home.resolve("lib/jackson-databind-2.16.1.jar"));
        installer = new BundleInstaller(bundle, new PrintStream(output, true));
    }

    @Test
    void artifactNamesAndVersionsAreReadFromFileNames() {
        assertEquals(new BundleInstaller.Artifact("jackson-databind", "2.16.1"),
                BundleInstaller.Artifact.of("jackson-databind-2.16.1.jar"));
        assertEquals(new BundleInstaller.Artifact("redis-authx-core", "0.1.1-beta2"),
                BundleInstaller.Artifact.of("redis-authx-core-0.1.1-beta2.jar"));
        assertEquals(new BundleInstaller.Artifact("jtidy-r938", ""), BundleInstaller.Artifact.of("jtidy-r938.jar"));
    }

    @Test
    void installCopiesPluginAndLibraries() throws IOException {
        installer.install(home, false, false);
        assertTrue(Files.exists(home.resolve("lib/ext/dsload-1.0.jar")));
        assertTrue(Files.exists(home.resolve("lib/jedis-8.0.2.jar")));
        assertTrue(Files.exists(home.resolve("lib/gson-2.14.0.jar")));
        assertTrue(Files.exists(home.resolve("lib/jackson-databind-2.16.1.jar")));
    }

    @Test
    void anotherVersionOfALibraryInTheHomeIsRefusedUnlessReplacing() throws IOException {
        touch(home.resolve("lib/jedis-2.9.0.jar"));
        IOException e = assertThrows(IOException.class, () -> installer.install(home, false, false));
        assertTrue(e.getMessage().contains("lib/jedis-2.9.0.jar conflicts with the bundle's jedis-8.0.2.jar"), e.getMessage());
        assertFalse(Files.exists(home.resolve("lib/ext/dsload-1.0.jar")), "nothing is installed when refused");

        installer.install(home, false, true);
        assertFalse(Files.exists(home.resolve("lib/jedis-2.9.0.jar")));
        assertTrue(Files.exists(home.resolve("lib/jedis-8.0.2.jar")));
    }

    @Test
    void reinstallingANewerBundleReplacesWhatTheLastInstallPut() throws IOException {
        installer.install(home, true, false);
        Files.delete(bundle.resolve("lib/ext/dsload-1.0.jar"));
        Files.delete(bundle.resolve("lib/gson-2.14.0.jar"));
        touch(bundle.resolve("lib/ext/dsload-1.1.jar"));
        touch(bundle.resolve("lib/gson-2.15.0.jar"));
        installer.install(home, true, false);
        assertFalse(Files.exists(home.resolve("lib/ext/dsload-1.0.jar")));
        assertTrue(Files.exists(home.resolve("lib/ext/dsload-1.1.jar")));
        assertFalse(Files.exists(home.resolve("lib/gson-2.14.0.jar")));
        assertTrue(Files.exists(home.resolve("lib/gson-2.15.0.jar")));
    }

    @Test
    void strictInstallRefusesALibraryJMeterAlreadyShips() throws IOException {
        touch(bundle.resolve("lib/jackson-databind-2.16.1.jar"));
        IOException e = assertThrows(IOException.class, () -> installer.install(home, true, false));
        assertTrue(e.getMessage().contains("jackson-databind-2.16.1.jar is already shipped by JMeter"), e.getMessage());
    }

    @Test
    void aFolderThatIsNoJMeterHomeIsRefused() {
        IOException e = assertThrows(IOException.class, () -> installer.install(dir.resolve("nowhere"), false, false));
        assertTrue(e.getMessage().contains("is not a JMeter home"), e.getMessage());
    }
}
