package org.dsload.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URI;
import java.util.List;

import org.junit.jupiter.api.Test;

class BaseUrlsTest {
    private final Fields f = new Fields(BaseUrlsTest.class, "gauges");

    @Test
    void everyUrlEndsWithASlashSoThatApiPathsResolveBelowAProxyPrefix() {
        assertEquals(List.of(URI.create("http://a:8086/"), URI.create("https://b/influx/")),
                f.baseUrls("urls", "http://a:8086, https://b/influx"));
    }

    @Test
    void aUserNameInAUrlIsRefusedSoThatNoCredentialReachesALog() {
        ConfigException e = assertThrows(ConfigException.class, () -> f.baseUrls("urls", "http://me:secret@a:8086"));
        assertEquals("BaseUrlsTest 'gauges': field 'urls' has a user name in 'a': use the User and Password fields",
                e.getMessage());
    }

    @Test
    void somethingElseThanHttpIsRefused() {
        ConfigException e = assertThrows(ConfigException.class, () -> f.baseUrls("urls", "ftp://a:21"));
        assertEquals("BaseUrlsTest 'gauges': field 'urls' has 'ftp://a:21': give http://host:port or https://host:port",
                e.getMessage());
        ConfigException bare = assertThrows(ConfigException.class, () -> f.baseUrls("urls", "127.0.0.1:8086"));
        assertEquals("BaseUrlsTest 'gauges': field 'urls' has '127.0.0.1:8086', which is not a URL: Illegal character "
                + "in scheme name", bare.getMessage());
    }
}
