package org.dsload.testing;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A real redis-server process on a free loopback port: no persistence, data under target/.
 * {@link #stop()} and {@link #restart()} keep the port, to test what a client sees when the
 * server goes away and comes back.
 */
public final class EmbeddedRedis implements AutoCloseable {
    private static final Duration READY = Duration.ofSeconds(20);

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
        EmbeddedRedis redis = new EmbeddedRedis(host, port, Build.work("redis-" + port), extraArgs);
        redis.start0();
        return redis;
    }

    private void start0() {
        List<String> command = new ArrayList<>(List.of(RedisBinary.path().toString(),
                "--port", Integer.toString(port), "--bind", host, "--save", "", "--appendonly", "no",
                "--protected-mode", "no", "--daemonize", "no", "--dir", dir.toString(), "--logfile", ""));
        command.addAll(extraArgs);
        if (process == null) {
            process = ManagedProcess.start("redis-server:" + port, command, dir, dir.resolve("redis.log"));
        } else {
            process.restart();
        }
        process.awaitPort(host, port, READY);
    }

    /** Starts the server again on the same port after {@link #stop()}. */
    public void restart() {
        start0();
    }

    public void stop() {
        process.stop(Duration.ofSeconds(5));
    }

    /** Freezes the process (SIGSTOP): connections stay open, nothing is answered. */
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
