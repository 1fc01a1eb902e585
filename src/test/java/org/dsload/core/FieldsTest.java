package org.dsload.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.dsload.redis.RedisConnection;
import org.junit.jupiter.api.Test;

class FieldsTest {
    private final Fields fields = new Fields(RedisConnection.class, "main redis");

    @Test
    void errorsNameTheElementAndTheFieldAsTheGuiShowsThem() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> fields.integer("socketTimeout", "2s", 1, Integer.MAX_VALUE));
        assertEquals("dsload Redis Connection 'main redis': field 'Socket timeout (ms)' must be a whole number "
                + "of at least 1, got '2s'", e.getMessage());
    }

    @Test
    void numbersOutsideTheRangeAreRefused() {
        ConfigException e = assertThrows(ConfigException.class, () -> fields.integer("database", "-1", 0, 15));
        assertTrue(e.getMessage().endsWith("must be from 0 to 15, got -1"), e.getMessage());
        assertEquals(7, fields.integer("database", " 7 ", 0, 15));
    }

    @Test
    void aFieldMissingFromAnOlderSavedPlanTakesItsDefaultButBadTextIsStillRefused() {
        assertEquals(1, fields.integer("database", "", 0, 15, 1));
        assertEquals(1, fields.integer("database", null, 0, 15, 1));
        assertEquals(4, fields.integer("database", "4", 0, 15, 1));
        assertThrows(ConfigException.class, () -> fields.integer("database", "x", 0, 15, 1));
    }

    @Test
    void flagsAcceptTrueFalseYesNoOnly() {
        assertTrue(fields.flag("ssl", "TRUE"));
        assertFalse(fields.flag("ssl", "no"));
        ConfigException e = assertThrows(ConfigException.class, () -> fields.flag("ssl", "1"));
        assertTrue(e.getMessage().contains("'TLS' must be true or false, got '1'"), e.getMessage());
    }

    @Test
    void emptyRequiredFieldIsRefused() {
        ConfigException e = assertThrows(ConfigException.class, () -> fields.required("hosts", "  "));
        assertTrue(e.getMessage().contains("'Hosts' must not be empty"), e.getMessage());
    }

    @Test
    void hostListsTakeDefaultPortsAndIpv6Brackets() {
        List<Fields.HostPort> hosts = fields.hostPorts("hosts", "a:1, b [::1]:7000 [fe80::2]", 6379);
        assertEquals(List.of(new Fields.HostPort("a", 1), new Fields.HostPort("b", 6379),
                new Fields.HostPort("::1", 7000), new Fields.HostPort("fe80::2", 6379)), hosts);
        assertEquals("[::1]:7000", hosts.get(2).toString());
    }

    @Test
    void badPortsAreRefusedNamingTheEntry() {
        assertTrue(assertThrows(ConfigException.class, () -> fields.hostPorts("hosts", "h:abc", 1))
                .getMessage().contains("'h:abc'"));
        assertTrue(assertThrows(ConfigException.class, () -> fields.hostPorts("hosts", "h:70000", 1))
                .getMessage().contains("ports go from 1 to 65535"));
    }

    @Test
    void choicesAreMatchedWithoutCase() {
        assertEquals("cluster", fields.choice("mode", "CLUSTER", "standalone", "cluster"));
        assertTrue(assertThrows(ConfigException.class, () -> fields.choice("mode", "sentinel", "standalone", "cluster"))
                .getMessage().contains("must be one of standalone, cluster, got 'sentinel'"));
    }

    @Test
    void secretsComeFromTheEnvironmentOrAFile(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path file = dir.resolve("pw");
        java.nio.file.Files.writeString(file, "s3cret\nignored\n");
        assertEquals("s3cret", Secrets.resolve(fields, "password", "file:" + file));
        assertEquals("plain", Secrets.resolve(fields, "password", "plain"));
        String path = System.getenv("PATH");
        assertEquals(path, Secrets.resolve(fields, "password", "env:PATH"));
        ConfigException e = assertThrows(ConfigException.class,
                () -> Secrets.resolve(fields, "password", "env:DSLOAD_SURELY_UNSET_VARIABLE"));
        assertTrue(e.getMessage().contains("DSLOAD_SURELY_UNSET_VARIABLE, which is not set"), e.getMessage());
    }
}
