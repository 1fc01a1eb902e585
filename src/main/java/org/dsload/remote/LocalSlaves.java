package org.dsload.remote;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.dsload.process.Orphans;
import org.dsload.process.Ports;

/**
 * N jmeter-server slaves on this machine, the first on 127.0.0.2, the next on 127.0.0.3 and so on
 * (all of 127.0.0.0/8 is loopback on Linux, no interface setup needed). Each has its own registry
 * and engine ports, chosen free, so slaves of several runs and users share the machine; with RMI
 * over SSL a slave binds only its own address, without SSL all of them.
 */
public final class LocalSlaves implements AutoCloseable {
    public static final String FIRST_ADDRESS = "127.0.0.2";
    private static final Duration READY = Duration.ofSeconds(120);

    private final List<SlaveProcess> slaves;
    private Thread exitHook;

    private LocalSlaves(List<SlaveProcess> slaves) {
        this.slaves = slaves;
    }

    /**
     * Kills the slaves if this JVM ends before {@link #close()}: at its exit, or, killed outright,
     * by its orphan reaper ({@link Orphans}).
     */
    public synchronized LocalSlaves stopOnExit() {
        if (exitHook == null) {
            exitHook = new Thread(() -> slaves.forEach(SlaveProcess::kill), "dsload-local-slaves-reaper");
            Runtime.getRuntime().addShutdownHook(exitHook);
            slaves.forEach(s -> Orphans.watch(s.handle()));
        }
        return this;
    }

    /** How to start them. */
    public record Options(Path jmeterHome, Path logDir, Path workDir, RmiSecurity security, String heap) {
    }

    public static LocalSlaves start(Options options, int count) throws IOException {
        return start(options, count, address -> Map.of());
    }

    /**
     * Starts {@code count} slaves and waits until every one is ready.
     *
     * @param properties JMeter properties of each slave, by its address (a slave's own target, its
     *                   own results folder ...); properties the master sends ({@code -G}) win
     */
    public static LocalSlaves start(Options options, int count, Function<SlaveAddress, Map<String, String>> properties)
            throws IOException {
        if (count < 1 || count > 250) {
            throw new IllegalArgumentException("between 1 and 250 local slaves, not " + count);
        }
        List<SlaveProcess> started = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                String host = nthAddress(i);
                // with RMI over SSL a slave binds its own address, without SSL every address
                int registry = Ports.freeEverywhere();
                int engine = Ports.freeEverywhere();
                Map<String, String> own = new HashMap<>(properties.apply(new SlaveAddress(host, registry)));
                started.add(SlaveProcess.launch(new SlaveProcess.Spec(options.jmeterHome(), host, registry, engine,
                        options.logDir(), options.workDir(), options.security(), options.heap(), own)));
            }
            for (SlaveProcess slave : started) {
                slave.awaitReady(READY);
            }
            return new LocalSlaves(started);
        } catch (IOException | RuntimeException e) {
            started.forEach(s -> s.stop(Duration.ofSeconds(5)));
            throw e;
        }
    }

    static String nthAddress(int i) {
        int n = 2 + i;
        return "127.0." + (n / 256) + "." + (n % 256);
    }

    public List<SlaveProcess> slaves() {
        return slaves;
    }

    public List<SlaveAddress> addresses() {
        return slaves.stream().map(SlaveProcess::address).toList();
    }

    public SlaveProcess slave(SlaveAddress address) {
        return slaves.stream().filter(s -> s.address().equals(address)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no local slave " + address));
    }

    /** Stops every slave (SIGTERM, SIGKILL after 10 s), all at once. */
    @Override
    public void close() {
        synchronized (this) {
            if (exitHook != null) {
                try {
                    Runtime.getRuntime().removeShutdownHook(exitHook);
                } catch (IllegalStateException shuttingDown) {
                    // the hook is running or about to: it kills them
                }
                exitHook = null;
                slaves.forEach(s -> Orphans.forget(s.pid()));
            }
        }
        List<Thread> stoppers = new ArrayList<>();
        for (SlaveProcess slave : slaves) {
            Thread t = new Thread(() -> slave.stop(Duration.ofSeconds(10)), "stop-" + slave.address());
            t.start();
            stoppers.add(t);
        }
        for (Thread t : stoppers) {
            try {
                t.join(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                slaves.forEach(SlaveProcess::kill);
                return;
            }
        }
    }
}
