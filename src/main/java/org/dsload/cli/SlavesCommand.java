package org.dsload.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.dsload.remote.HostsFile;
import org.dsload.remote.LocalSlaves;
import org.dsload.remote.RmiKeystore;
import org.dsload.remote.RmiSecurity;
import org.dsload.remote.SlaveAddress;
import org.dsload.remote.SlaveProbe;
import org.dsload.remote.SlaveProcess;
import org.dsload.remote.SlavesPidFile;

/**
 * {@code dsload slaves start|stop|status|keystore}: jmeter-server slaves that outlive the command,
 * for runs started later with {@code run --hosts-file}. Their PIDs go to a file in the remote
 * folder so that {@code stop} ends exactly them.
 */
final class SlavesCommand {
    static final String PID_FILE = "slaves.pid";
    static final String HOSTS_FILE = "local.hosts";

    private SlavesCommand() {
    }

    static int run(List<String> args, PrintStream out) throws IOException, InterruptedException {
        if (args.isEmpty()) {
            throw new Main.UsageException("slaves needs start, stop, status or keystore");
        }
        String action = args.get(0);
        Options o = Options.parse(args.subList(1, args.size()));
        switch (action) {
            case "start":
                return start(o, out);
            case "stop":
                return stop(o, out);
            case "status":
                return status(o, out);
            case "keystore":
                RmiKeystore store = RmiKeystore.ensure(o.remoteDir, out);
                out.println("keystore: " + store.keystore());
                out.println("password: in " + store.passwordFile() + " (pass it to JMeter with -q)");
                return 0;
            default:
                throw new Main.UsageException("unknown slaves action '" + action + "'");
        }
    }

    private static final class Options {
        int count = 2;
        String address;
        int port = SlaveAddress.DEFAULT_PORT;
        int enginePort = 4000;
        Path home;
        Path remoteDir = Main.defaultRemoteDir();
        Path logs;
        String heap = "512m";
        boolean ssl = true;

        static Options parse(List<String> args) {
            Options o = new Options();
            for (int i = 0; i < args.size(); i++) {
                String a = args.get(i);
                switch (a) {
                    case "-n" -> o.count = Main.positive(Main.value(args, ++i, a), a);
                    case "--address" -> o.address = Main.value(args, ++i, a);
                    case "--port" -> o.port = Main.positive(Main.value(args, ++i, a), a);
                    case "--engine-port" -> o.enginePort = Main.positive(Main.value(args, ++i, a), a);
                    case "--jmeter-home" -> o.home = Path.of(Main.value(args, ++i, a));
                    case "--remote-dir" -> o.remoteDir = Path.of(Main.value(args, ++i, a));
                    case "--logs" -> o.logs = Path.of(Main.value(args, ++i, a));
                    case "--heap" -> o.heap = Main.value(args, ++i, a);
                    case "--no-ssl" -> o.ssl = false;
                    default -> throw new Main.UsageException("unknown slaves option " + a);
                }
            }
            return o;
        }
    }

    private static int start(Options o, PrintStream out) throws IOException {
        Path pidFile = o.remoteDir.resolve(PID_FILE);
        List<SlavesPidFile.Entry> running = SlavesPidFile.read(pidFile).stream()
                .filter(e -> e.process().isPresent()).toList();
        if (!running.isEmpty()) {
            throw new IOException(running.size() + " slave(s) of " + pidFile + " still run; `dsload slaves stop` first");
        }
        Path home = o.home != null ? o.home : Main.defaultHome();
        Path logs = o.logs != null ? o.logs : Path.of("results", LocalDateTime.now()
                .format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT)) + "-slaves", "slaves");
        RmiSecurity security = o.ssl ? RmiSecurity.ssl(o.address == null ? RmiKeystore.ensure(o.remoteDir, out)
                : RmiKeystore.existing(o.remoteDir)) : RmiSecurity.disabled();
        List<SlaveProcess> slaves = new ArrayList<>();
        if (o.address != null) {
            SlaveProcess slave = SlaveProcess.launch(new SlaveProcess.Spec(home, o.address, o.port, o.enginePort, logs,
                    Path.of("").toAbsolutePath(), security, o.heap, Map.of()));
            try {
                slave.awaitReady(Duration.ofSeconds(120));
            } catch (IOException e) {
                slave.stop(Duration.ofSeconds(5));
                throw e;
            }
            slaves.add(slave);
        } else {
            LocalSlaves local = LocalSlaves.start(new LocalSlaves.Options(home, logs, Path.of("").toAbsolutePath(),
                    security, o.heap), o.count);
            slaves.addAll(local.slaves());
        }
        SlavesPidFile.write(pidFile, slaves);
        Path hosts = o.remoteDir.resolve(HOSTS_FILE);
        HostsFile.write(hosts, slaves.stream().map(SlaveProcess::address).toList(),
                "slaves started by dsload slaves start; RMI over SSL " + (o.ssl ? "on" : "off"));
        for (SlaveProcess s : slaves) {
            out.println("slave " + s.address() + " pid " + s.pid() + " log " + s.log());
        }
        out.println("RMI over SSL: " + (o.ssl ? "on" : "off (server.rmi.ssl.disable=true)"));
        out.println("run on them:  bin/dsload run <plan.jmx> --hosts-file " + hosts
                + (o.ssl ? "" : " -Jserver.rmi.ssl.disable=true"));
        out.println("stop them:    bin/dsload slaves stop");
        return 0;
    }

    private static int stop(Options o, PrintStream out) throws IOException, InterruptedException {
        Path pidFile = o.remoteDir.resolve(PID_FILE);
        List<SlavesPidFile.Entry> entries = SlavesPidFile.read(pidFile);
        if (entries.isEmpty()) {
            out.println("no slaves recorded in " + pidFile);
            return 0;
        }
        for (SlavesPidFile.Entry e : entries) {
            Optional<ProcessHandle> process = e.process();
            if (process.isEmpty()) {
                out.println("slave " + e.address() + " (pid " + e.pid() + ") was not running");
                continue;
            }
            ProcessHandle p = process.get();
            p.destroy();
            try {
                p.onExit().get(10, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException stillThere) {
                p.destroyForcibly();
            }
            out.println("slave " + e.address() + " (pid " + e.pid() + ") stopped");
        }
        Files.deleteIfExists(pidFile);
        Files.deleteIfExists(o.remoteDir.resolve(HOSTS_FILE));
        return 0;
    }

    private static int status(Options o, PrintStream out) throws IOException {
        Path pidFile = o.remoteDir.resolve(PID_FILE);
        List<SlavesPidFile.Entry> entries = SlavesPidFile.read(pidFile);
        if (entries.isEmpty()) {
            out.println("no slaves recorded in " + pidFile);
            return 0;
        }
        int down = 0;
        for (SlavesPidFile.Entry e : entries) {
            boolean alive = e.process().isPresent();
            Optional<String> refused = SlaveProbe.unreachable(e.address(), Duration.ofSeconds(2));
            if (!alive || refused.isPresent()) {
                down++;
            }
            out.println("slave " + e.address() + " pid " + e.pid() + ": " + (alive ? "running" : "not running")
                    + ", " + (refused.isEmpty() ? "reachable" : "unreachable (" + refused.get() + ")") + ", log " + e.log());
        }
        return down == 0 ? 0 : 1;
    }
}
