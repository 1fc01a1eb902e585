package org.dsload.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SlaveAddressTest {
    @TempDir
    Path dir;

    @Test
    void addressesParseAsTheMastersRemoteListSpellsThem() {
        assertEquals(new SlaveAddress("10.0.0.5", 1099), SlaveAddress.parse("10.0.0.5"));
        assertEquals(new SlaveAddress("gen-1", 2010), SlaveAddress.parse(" gen-1:2010 "));
        assertEquals(new SlaveAddress("[::1]", 1099), SlaveAddress.parse("[::1]:1099"));
        assertEquals("127.0.0.2:41000", SlaveAddress.parse("127.0.0.2:41000").toString());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SlaveAddress.parse("gen-1:x"));
        assertTrue(e.getMessage().contains("host or host:port"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SlaveAddress.parse("gen-1:70000"));
    }

    @Test
    void everyAddressOf127Slash8IsLoopback() {
        assertTrue(SlaveAddress.parse("127.0.0.3:1").isLoopback());
        assertTrue(SlaveAddress.parse("127.0.1.7:1").isLoopback());
        assertFalse(SlaveAddress.parse("192.0.2.1:1").isLoopback());
    }

    @Test
    void localSlavesTakeConsecutiveLoopbackAddressesFrom127002() {
        assertEquals("127.0.0.2", LocalSlaves.nthAddress(0));
        assertEquals("127.0.0.3", LocalSlaves.nthAddress(1));
        assertEquals("127.0.0.251", LocalSlaves.nthAddress(249));
    }

    @Test
    void aHostsFileListsOneSlaveALineWithComments() throws IOException {
        Path file = dir.resolve("hosts");
        Files.writeString(file, "# load generators\n10.0.0.5\n\n10.0.0.6:2010   # the big one\n");
        assertEquals(List.of(new SlaveAddress("10.0.0.5", 1099), new SlaveAddress("10.0.0.6", 2010)), HostsFile.read(file));
        Files.writeString(file, "10.0.0.5\n10.0.0.6:port\n");
        IOException e = assertThrows(IOException.class, () -> HostsFile.read(file));
        assertTrue(e.getMessage().contains("line 2"), e.getMessage());
        Files.writeString(file, "# nothing\n");
        assertThrows(IOException.class, () -> HostsFile.read(file));
    }
}
