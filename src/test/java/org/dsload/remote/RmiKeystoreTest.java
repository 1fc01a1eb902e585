package org.dsload.remote;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** keytool makes one keystore for the class (it takes seconds on a busy machine). */
class RmiKeystoreTest {
    @TempDir
    static Path shared;
    @TempDir
    Path dir;
    private static RmiKeystore store;
    private static String console;

    @BeforeAll
    static void makeOne() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        store = RmiKeystore.ensure(shared, new PrintStream(out, true, StandardCharsets.UTF_8));
        console = out.toString(StandardCharsets.UTF_8);
    }

    private static String password(Path file) throws IOException {
        Properties p = new Properties();
        try (var in = Files.newInputStream(file)) {
            p.load(in);
        }
        return p.getProperty("server.rmi.ssl.keystore.password");
    }

    @Test
    void aNewKeystoreHasAPrivateRandomPasswordThatIsNeverPrinted() throws IOException {
        assertTrue(Files.isRegularFile(store.keystore()));
        assertEquals("rmi_keystore.jks", store.keystore().getFileName().toString());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(store.keystore())));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(store.passwordFile())));
        String password = password(store.passwordFile());
        assertTrue(password.length() >= 32, "24 random bytes");
        assertNotEquals("changeit", password);
        assertTrue(console.contains("made the RMI keystore"), console);
        assertFalse(console.contains(password));
        assertFalse(store.properties().toString().contains(password));
        Instant end = store.notAfter();
        assertTrue(end.isAfter(Instant.now().plus(Duration.ofDays(6))) && end.isBefore(Instant.now().plus(Duration.ofDays(8))),
                "valid 7 days like JMeter's create-rmi-keystore: " + end);
    }

    @Test
    void aValidKeystoreIsKeptAndOneWithoutItsPasswordIsRefused() throws IOException {
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        RmiKeystore again = RmiKeystore.ensure(shared, quiet);
        assertEquals(store.keystore(), again.keystore());
        assertEquals(Files.getLastModifiedTime(store.keystore()), Files.getLastModifiedTime(again.keystore()), "kept, not remade");
        assertEquals(store.passwordFile(), RmiKeystore.existing(shared).passwordFile());

        Files.copy(store.keystore(), dir.resolve(RmiKeystore.KEYSTORE));
        IOException e = assertThrows(IOException.class, () -> RmiKeystore.ensure(dir, quiet));
        assertTrue(e.getMessage().contains("has no rmi_keystore.properties beside it"), e.getMessage());
        assertThrows(IOException.class, () -> RmiKeystore.existing(dir));
        assertArrayEquals(Files.readAllBytes(store.keystore()), Files.readAllBytes(dir.resolve(RmiKeystore.KEYSTORE)),
                "a keystore dsload cannot read is left alone");
    }
}
