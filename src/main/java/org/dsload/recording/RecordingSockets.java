package org.dsload.recording;

import java.io.IOException;
import java.io.Serializable;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.rmi.server.RMIClientSocketFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * The client side of a connection to a slave's {@link RecordingStore}: TLS with the key and trust of
 * dsload's RMI keystore (the slave's JMeter socket factory asks for the client's certificate), or
 * plain TCP when the run turned RMI's SSL off, with time limits either way. It travels inside the
 * store's stub; the JVM that uses it (the runner) gives it the TLS context with {@link #use}.
 */
public final class RecordingSockets implements RMIClientSocketFactory, Serializable {
    private static final long serialVersionUID = 1L;
    static final int CONNECT_MILLIS = 10_000;
    static final int READ_MILLIS = 60_000;
    private static volatile SSLContext context;

    private final boolean ssl;

    public RecordingSockets(boolean ssl) {
        this.ssl = ssl;
    }

    /** The TLS context of this JVM's connections (the runner's, from the RMI keystore). */
    public static void use(SSLContext tls) {
        context = tls;
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        Socket plain = new Socket();
        plain.connect(new InetSocketAddress(host, port), CONNECT_MILLIS);
        plain.setSoTimeout(READ_MILLIS);
        if (!ssl) {
            return plain;
        }
        SSLContext tls = context;
        if (tls == null) {
            plain.close();
            throw new IOException("no TLS context for the slave's recordings in this JVM (the RMI keystore was not given)");
        }
        SSLSocket socket = (SSLSocket) tls.getSocketFactory().createSocket(plain, host, port, true);
        socket.setUseClientMode(true);
        socket.startHandshake();
        return socket;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RecordingSockets other && other.ssl == ssl;
    }

    @Override
    public int hashCode() {
        return Boolean.hashCode(ssl);
    }
}
