package org.dsload.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RmiKeystoreTest {
    @TempDir
    Path dir;

    private static String password(Path file) throws IOException {
        Properties p = new Properties();
        try (var in = Files.newInputStream(file)) {
            p.load(in);
        }
        return p.getProperty("server.rmi.ssl.keystore.password");
    }

    @Test
    void aNewKeystoreHasAPrivateRandomPasswordThatIsNeverPrinted() throws IOException {
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(console, true, StandardCharsets.UTF_8);
        RmiKeystore store = RmiKeystore.ensure(dir.resolve("a"), out);

        assertTrue(Files.isRegularFile(store.keystore()));
        assertEquals("rmi_keystore.jks", store.keystore().getFileName().toString());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(store.keystore())));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(store.passwordFile())));
        String password = password(store.passwordFile());
        assertTrue(password.length() >= 32, "24 random bytes");
        assertNotEquals("changeit", password);
        assertFalse(console.toString(StandardCharsets.UTF_8).contains(password));
        assertFalse(store.properties().toString().contains(password));
        Instant end = store.notAfter();
        assertTrue(end.isAfter(Instant.now().plus(Duration.ofDays(6))) && end.isBefore(Instant.now().plus(Duration.ofDays(8))),
                "valid 7 days like JMeter's create-rmi-keystore: " + end);

        RmiKeystore other = RmiKeystore.ensure(dir.resolve("b"), out);
        assertNotEquals(password, password(other.passwordFile()), "each keystore its own password");
    }

    @Test
    void aValidKeystoreIsKeptAndOneWithoutItsPasswordIsRefused() throws IOException {
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        RmiKeystore store = RmiKeystore.ensure(dir, quiet);
        byte[] before = Files.readAllBytes(store.keystore());
        RmiKeystore again = RmiKeystore.ensure(dir, quiet);
        assertEquals(store.keystore(), again.keystore());
        assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(again.keystore())), "kept, not remade");

        Files.delete(store.passwordFile());
        IOException e = assertThrows(IOException.class, () -> RmiKeystore.ensure(dir, quiet));
        assertTrue(e.getMessage().contains("has no rmi_keystore.properties beside it"), e.getMessage());
        assertThrows(IOException.class, () -> RmiKeystore.existing(dir));
    }
}
