package org.dsload.remote;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.rmi.server.RMIClientSocketFactory;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import javax.net.ssl.SSLContext;

import org.dsload.process.Ports;
import org.dsload.process.ProcFs;

/**
 * Whether this machine reaches the engine a slave's RMI registry names: the second port of a
 * jmeter-server ({@code server.rmi.localport}, at the slave's {@code java.rmi.server.hostname}), which
 * a registry that answers does not prove reachable. A firewall that drops the engine port lets the
 * master find the slave, then leaves JMeter waiting for the kernel's connection timeout (minutes)
 * before it runs without the slave.
 *
 * <p>The registry's answer is a serialized JMeter stub, readable only with JMeter's classes: the
 * lookup runs with a class loader over the JMeter home's core jar, in a thread of its own, within a
 * time limit. Reading the stub makes RMI call the engine (its distributed garbage collector), so a
 * lookup that does not end in time is an engine that does not answer.
 */
public final class SlaveEngine {
    static final String ENGINE_NAME = "JMeterEngine";
    private static final Pattern ENDPOINT = Pattern.compile("endpoint:\\[([^,\\]]+):(\\d+)");

    private SlaveEngine() {
    }

    /**
     * Empty when the engine the slave's registry names accepts a connection, or when that cannot be
     * told (no JMeter core jar, a registry that refuses the lookup: JMeter will say why); else why not,
     * naming the engine's address and port.
     */
    public static Optional<String> unreachable(SlaveAddress slave, RmiSecurity security, Path jmeterHome,
            Duration limit) {
        Optional<Path> core = coreJar(jmeterHome);
        SSLContext tls;
        try {
            tls = security.isSsl() ? security.clientContext() : null;
        } catch (IOException e) {
            return Optional.empty();
        }
        if (core.isEmpty()) {
            return Optional.empty();
        }
        URLClassLoader loader;
        try {
            loader = new URLClassLoader(new URL[] {core.get().toUri().toURL()}, SlaveEngine.class.getClassLoader());
        } catch (IOException e) {
            return Optional.empty();
        }
        CompletableFuture<String> named = new CompletableFuture<>();
        Thread lookup = new Thread(() -> {
            Thread.currentThread().setContextClassLoader(loader);
            try {
                Registry registry = LocateRegistry.getRegistry(slave.host(), slave.port(),
                        new Sockets(tls, (int) limit.toMillis()));
                named.complete(String.valueOf(registry.lookup(ENGINE_NAME)));
            } catch (Exception | LinkageError e) {
                named.completeExceptionally(e);
            }
        }, "dsload-engine-lookup-" + slave);
        lookup.setDaemon(true);
        lookup.start();
        String stub;
        try {
            stub = named.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            List<String> waiting = connecting();
            if (waiting.size() == 1) {
                // the lookup's call to the engine, still waiting for the engine's answer to its connection
                String engine = waiting.get(0);
                int colon = engine.lastIndexOf(':');
                return Optional.of(SlaveProbe.REGISTRY_ANSWERED + engine(engine.substring(0, colon),
                        engine.substring(colon + 1)) + " did not answer within " + limit.toSeconds() + " s: a firewall "
                        + "drops connections to it, or the host is down");
            }
            return Optional.of(SlaveProbe.REGISTRY_ANSWERED + "its engine did not: RMI calls the engine as soon as the "
                    + "registry names it, and that call did not end within " + limit.toSeconds() + " s (a firewall drops"
                    + " the engine's port, server.rmi.localport, or the slave's java.rmi.server.hostname is an address"
                    + " this machine does not reach)");
        } catch (ExecutionException e) {
            close(loader);
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
        close(loader);
        Matcher m = ENDPOINT.matcher(stub);
        if (!m.find()) {
            return Optional.empty();
        }
        String host = m.group(1);
        int port = Integer.parseInt(m.group(2));
        return Ports.refusal(host, port, limit).map(cause -> SlaveProbe.explained(engine(host, Integer.toString(port)),
                cause, limit));
    }

    private static String engine(String host, String port) {
        return "its engine port " + port + " (at " + host + ", as its registry names it; server.rmi.localport)";
    }

    private static List<String> connecting() {
        try {
            return ProcFs.connecting(ProcessHandle.current().pid());
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    private static Optional<Path> coreJar(Path jmeterHome) {
        Path ext = jmeterHome.resolve("lib").resolve("ext");
        if (!Files.isDirectory(ext)) {
            return Optional.empty();
        }
        try (Stream<Path> files = Files.list(ext)) {
            return files.filter(p -> p.getFileName().toString().matches("ApacheJMeter_core.*\\.jar")).findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static void close(URLClassLoader loader) {
        try {
            loader.close();
        } catch (IOException e) {
            // nothing was opened that the JVM's end does not close
        }
    }

    /** The registry's connections: within the time limit, over TLS with the master's key when RMI uses SSL. */
    private record Sockets(SSLContext tls, int millis) implements RMIClientSocketFactory {
        @Override
        public Socket createSocket(String host, int port) throws IOException {
            Socket plain = new Socket();
            try {
                plain.connect(new InetSocketAddress(host, port), millis);
                plain.setSoTimeout(millis);
                return tls == null ? plain : tls.getSocketFactory().createSocket(plain, host, port, true);
            } catch (IOException e) {
                plain.close();
                throw e;
            }
        }
    }
}
