package org.dsload.remote;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Where a jmeter-server slave's RMI registry listens: {@code host:port} as the master's {@code -R}
 * takes it (port 1099 when left out). JMeter prefixes every thread name of a slave with exactly
 * this text, so it is also how a sample names the slave that produced it.
 */
public record SlaveAddress(String host, int port) {
    public static final int DEFAULT_PORT = 1099;

    public SlaveAddress {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("a slave address needs a host");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " of slave " + host + " is not a TCP port");
        }
    }

    /** {@code host}, {@code host:port} or {@code [ipv6]:port}. */
    public static SlaveAddress parse(String text) {
        String t = text.trim();
        int colon = t.startsWith("[") ? t.indexOf(':', t.indexOf(']')) : t.lastIndexOf(':');
        if (colon < 0 || (!t.startsWith("[") && t.indexOf(':') != colon)) {
            return new SlaveAddress(t, DEFAULT_PORT);
        }
        String port = t.substring(colon + 1);
        try {
            return new SlaveAddress(t.substring(0, colon), Integer.parseInt(port));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("slave address '" + text + "' must be host or host:port", e);
        }
    }

    public boolean isLoopback() {
        try {
            return InetAddress.getByName(host.replace("[", "").replace("]", "")).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /**
     * The port of the slave's recordings (its {@code RecordingStore}): {@code set}, the run's
     * {@code dsload.recording.port}, unless blank, else the registry port + 1.
     */
    public int recordingPort(String set) {
        return set == null || set.isBlank() ? port + 1 : Integer.parseInt(set.trim());
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
