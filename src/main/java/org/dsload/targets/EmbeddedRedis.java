package org.dsload.targets;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.dsload.process.ManagedProcess;
import org.dsload.process.Ports;

/**
 * A real redis-server process ({@link RedisBinary}) on a loopback port: no persistence unless
 * its placement keeps data (then an append-only file), data and log in its folder.
 * {@link #stop()} and {@link #restart()} keep the port, to test what a client sees when the
 * server goes away and comes back.
 */
public final class EmbeddedRedis implements AutoCloseable {
    private static final Duration READY = Duration.ofSeconds(20);
    private static final Pattern MISSING_LIBRARY = Pattern.compile("error while loading shared libraries: ([^:\\s]+)");

    private final String host;
    private final int port;
    private final Path dir;
    private final List<String> extraArgs;
    private ManagedProcess process;

    private EmbeddedRedis(String host, int port, Path dir, List<String> extraArgs) {
        this.host = host;
        this.port = port;
        this.dir = dir;
        this.extraArgs = extraArgs;
    }

    public static EmbeddedRedis start() {
        return start("127.0.0.1", Ports.free(), List.of());
    }

    public static EmbeddedRedis start(String host, int port, List<String> extraArgs) {
        return start(host, port, Checkout.work("redis-" + port), false, extraArgs);
    }

    /** A server on the placement's port named {@code name} and in its folder {@code role}. */
    public static EmbeddedRedis start(Placement placement, String name, String role, List<String> extraArgs) {
        String host = "127.0.0.1";
        int port = placement.ports().pick(name, host);
        return start(host, port, placement.folder(role, "redis-" + port), placement.keepData(), extraArgs);
    }

    private static EmbeddedRedis start(String host, int port, Path dir, boolean keepData, List<String> extraArgs) {
        List<String> args = new ArrayList<>();
        if (keepData) {
            args.addAll(List.of("--appendonly", "yes", "--appendfsync", "everysec"));
        }
        args.addAll(extraArgs);
        EmbeddedRedis redis = new EmbeddedRedis(host, port, dir, args);
        try {
            redis.start0();
        } catch (RuntimeException e) {
            redis.close(); // a server that never got ready is not left running
            throw e;
        }
        return redis;
    }

    private void start0() {
        List<String> command = new ArrayList<>(List.of(RedisBinary.path().toString(),
                "--port", Integer.toString(port), "--bind", host, "--save", "", "--appendonly", "no",
                "--protected-mode", "no", "--daemonize", "no", "--dir", dir.toString(), "--logfile", ""));
        command.addAll(extraArgs); // later options win over the defaults above
        if (process == null) {
            process = ManagedProcess.start("redis-server:" + port, command, dir, dir.resolve("redis.log"));
        } else {
            process.restart();
        }
        try {
            process.awaitPort(host, port, READY);
        } catch (ManagedProcess.Exited e) {
            Matcher m = MISSING_LIBRARY.matcher(e.logTail());
            if (m.find()) {
                throw new IllegalStateException("redis-server cannot start: this system lacks the shared library "
                        + m.group(1) + (m.group(1).startsWith("libssl") || m.group(1).startsWith("libcrypto")
                        ? " (OpenSSL 3; Debian: apt-get install libssl3)" : ""), e);
            }
            throw e;
        }
    }

    /** Starts the server again on the same port after {@link #stop()}. */
    public void restart() {
        start0();
    }

    public void stop() {
        process.stop(Duration.ofSeconds(5));
    }

    /** Freezes the process (SIGSTOP): connections stay open, nothing is answered; returns once the server is stopped. */
    public void pause() {
        process.pause();
    }

    public void resume() {
        process.resume();
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    /** host:port, as a Hosts field takes it. */
    public String address() {
        return host + ":" + port;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isRunning() {
        return process.isAlive();
    }

    @Override
    public void close() {
        if (process != null) {
            process.stop(Duration.ofSeconds(5));
        }
    }
}
