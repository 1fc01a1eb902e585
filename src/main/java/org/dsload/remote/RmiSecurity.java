package org.dsload.remote;

import java.util.List;
import java.util.Map;
import java.nio.file.Path;

/**
 * How the master and slaves talk RMI: over SSL with a shared keystore (JMeter's default, and
 * dsload's), or in the clear when {@code server.rmi.ssl.disable=true} says so explicitly. Both ends
 * must agree, so the same object configures the master and the slaves a run starts.
 */
public final class RmiSecurity {
    public static final String DISABLE_PROPERTY = "server.rmi.ssl.disable";

    private final RmiKeystore keystore;

    private RmiSecurity(RmiKeystore keystore) {
        this.keystore = keystore;
    }

    public static RmiSecurity ssl(RmiKeystore keystore) {
        return new RmiSecurity(keystore);
    }

    public static RmiSecurity disabled() {
        return new RmiSecurity(null);
    }

    /** True when these properties turn SSL off ({@code server.rmi.ssl.disable=true}). */
    public static boolean disabledBy(Map<String, String> properties) {
        return "true".equalsIgnoreCase(String.valueOf(properties.get(DISABLE_PROPERTY)).trim());
    }

    public boolean isSsl() {
        return keystore != null;
    }

    /** The TLS context of a client of the slaves' RMI (see {@link RmiKeystore#clientContext}), or null without SSL. */
    public javax.net.ssl.SSLContext clientContext() throws java.io.IOException {
        return keystore == null ? null : keystore.clientContext();
    }

    /** Non-secret JMeter properties of either end. */
    public Map<String, String> properties() {
        return keystore == null ? Map.of(DISABLE_PROPERTY, "true") : keystore.properties();
    }

    /** Property files to pass with {@code -q}: the keystore password, if any. */
    public List<Path> propertyFiles() {
        return keystore == null ? List.of() : List.of(keystore.passwordFile());
    }
}
