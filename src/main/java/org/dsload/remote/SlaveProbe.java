package org.dsload.remote;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Optional;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;

import org.dsload.process.Ports;

/**
 * Whether a slave's RMI registry port accepts TCP connections, and whether the process behind it
 * answers. A slave's registry lives in the jmeter-server process itself, so a refused or
 * unanswered connection means the process (or its machine) is gone. An accepted connection does
 * not prove the process runs: the kernel accepts for a frozen one (SIGSTOP, a machine that
 * stopped scheduling it), which then says nothing.
 */
public final class SlaveProbe {
    /**
     * The start of an RMI (JRMP) connection: magic, version 2, stream protocol. A registry without
     * SSL answers it with its acknowledgement, one with SSL closes the connection on it (it is no
     * TLS record): either is the process answering.
     */
    private static final byte[] JRMP_HEADER = {'J', 'R', 'M', 'I', 0, 2, 0x4b};

    /** What a probe found. */
    public enum Reply {
        /** The process read the probe and answered or closed the connection. */
        ANSWERS,
        /** The connection was accepted, and nothing came back within the time limit. */
        SILENT,
        /** The connection was refused. */
        UNREACHABLE,
        /**
         * Nothing came back to the connection's first packet within the time limit: the link to the
         * slave's host is down, the host is, or a firewall now drops its packets. The process may still
         * run, and answer again once the link is back.
         */
        NO_ANSWER
    }

    /** A probe's finding, and what went wrong when the slave did not answer. */
    public record Probe(Reply reply, String detail) {
    }

    private SlaveProbe() {
    }

    /**
     * Empty when the port accepts a connection within the timeout, else why not, naming the port and
     * what its failure points at: a refusal is a host without a slave on that port, silence a firewall
     * that drops the connection (or a host that is down).
     */
    public static Optional<String> unreachable(SlaveAddress slave, Duration timeout) {
        return Ports.refusal(slave.host(), slave.port(), timeout)
                .map(cause -> explained("its RMI registry port " + slave.port(), cause, timeout));
    }

    /** How the reason begins when a slave's registry answered and another of its ports did not. */
    public static final String REGISTRY_ANSWERED = "its registry answered, but ";

    /**
     * Why the slave's recording port cannot be reached, when a firewall drops connections to it (or
     * anything but a refusal stops them): the runner could not fetch the slave's recordings after the
     * run. A refusal is no finding: a slave serves its recordings from its first dsload test on, so
     * one that has not run a test yet has nothing listening there.
     */
    public static Optional<String> recordingPortDropped(SlaveAddress slave, int port, Duration timeout) {
        return Ports.refusal(slave.host(), port, timeout)
                .filter(cause -> !cause.toLowerCase(java.util.Locale.ROOT).contains("refused"))
                .map(cause -> explained(REGISTRY_ANSWERED + "its recording port " + port + " (dsload.recording.port, "
                        + "where the runner fetches its recordings after the run)", cause, timeout));
    }

    /** A failed connection to {@code port} (what it is) with what the failure points at. */
    static String explained(String port, String cause, Duration timeout) {
        String lower = cause.toLowerCase(java.util.Locale.ROOT);
        if (lower.contains("refused")) {
            return port + " refused the connection (" + cause + "): no slave listens there";
        }
        if (lower.contains("timed out")) {
            return port + " did not answer within " + timeout.toSeconds() + " s (" + cause + "): a firewall drops "
                    + "connections to it, or the host is down";
        }
        return port + ": " + cause;
    }

    /**
     * Whether a slave's RMI registry refuses this TLS context's key: the handshake a master with
     * that keystore would make, before JMeter does it and prints the handshake's exception. Empty
     * when the handshake went through, or failed for another reason than the keys (a frozen or
     * vanished slave, which the run finds out about as before).
     */
    public static Optional<String> keyRefusal(SlaveAddress slave, SSLContext context, Duration timeout) {
        int millis = (int) Math.max(1, timeout.toMillis());
        try (Socket plain = new Socket()) {
            plain.connect(new InetSocketAddress(slave.host(), slave.port()), millis);
            plain.setSoTimeout(millis);
            try (SSLSocket tls = (SSLSocket) context.getSocketFactory().createSocket(plain, slave.host(), slave.port(),
                    false)) {
                tls.startHandshake();
                // TLS 1.3: the server judges the client's certificate after the client's side of the
                // handshake is done, and says so in an alert the next read meets
                tls.getOutputStream().write(JRMP_HEADER);
                tls.getOutputStream().flush();
                tls.getInputStream().read();
            }
            return Optional.empty();
        } catch (SSLHandshakeException e) {
            return Optional.of(e.getMessage() == null ? "TLS handshake refused" : e.getMessage());
        } catch (SSLException e) {
            String message = String.valueOf(e.getMessage());
            return message.contains("certificate") ? Optional.of(message) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Connects, sends the start of an RMI connection, and waits up to {@code timeout} for any reply. */
    public static Probe probe(SlaveAddress slave, Duration timeout) {
        int millis = (int) Math.max(1, timeout.toMillis());
        try (Socket socket = new Socket()) {
            try {
                socket.connect(new InetSocketAddress(slave.host(), slave.port()), millis);
            } catch (SocketTimeoutException | NoRouteToHostException e) {
                return new Probe(Reply.NO_ANSWER, "its host did not answer a connection to its RMI registry port "
                        + slave.port() + " within " + millis + " ms (" + e.getMessage() + "): its network link is down, "
                        + "the host is, or a firewall drops its packets");
            } catch (IOException e) {
                return new Probe(Reply.UNREACHABLE, e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
            }
            socket.setSoTimeout(millis);
            OutputStream out = socket.getOutputStream();
            out.write(JRMP_HEADER);
            out.flush();
            InputStream in = socket.getInputStream();
            in.read();
            return new Probe(Reply.ANSWERS, "");
        } catch (SocketTimeoutException e) {
            return new Probe(Reply.SILENT, "its RMI port accepted a connection but the process sent nothing for "
                    + millis + " ms");
        } catch (IOException e) {
            // a reset or a broken pipe comes from a process that handled the connection
            return new Probe(Reply.ANSWERS, "");
        }
    }
}
