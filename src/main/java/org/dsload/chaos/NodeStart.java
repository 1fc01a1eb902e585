package org.dsload.chaos;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.dsload.process.Deadline;
import org.dsload.process.ManagedProcess;
import org.dsload.process.Ports;

/**
 * Starts a node with its target's start command (the revert of a kill, the second half of a
 * restart): detached from this process's session, its pid written to the target's pid file, and
 * ready once its port accepts connections. Everything it needs is in the fault's record, so a
 * revert after a crash can start it too.
 */
final class NodeStart {
    private NodeStart() {
    }

    /** Starts the node and records its pid; returns once host:port accepts connections (when given). */
    static long start(FaultRecord record, long readyMillis) throws IOException, InterruptedException {
        String start = record.require("target.start");
        List<String> command = new ArrayList<>();
        // exec: the pid recorded is the node's own, not a shell's that would outlive nothing
        command.addAll(List.of("sh", "-c", start.matches("[^;&|()<>`$]*") && !start.startsWith("exec ") ? "exec " + start : start));
        // detached: a Ctrl-C to the load generator's terminal must not reach the node
        ProcessBuilder builder = new ProcessBuilder(ManagedProcess.detached(command))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        String log = record.get("target.log");
        File out = log != null ? new File(log) : new File("/dev/null");
        builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(out));
        String dir = record.get("target.dir");
        if (dir != null) {
            builder.directory(new File(dir));
        }
        Process p = builder.start();
        String pidfile = record.get("target.pidfile");
        if (pidfile != null) {
            Files.writeString(Path.of(pidfile), p.pid() + "\n", StandardCharsets.UTF_8);
        }
        record.put("started.pid", Long.toString(p.pid()));
        String host = record.get("target.host");
        String port = record.get("target.port");
        if (host != null && port != null) {
            boolean ready = Deadline.await(() -> !p.isAlive() || Ports.open(host, Integer.parseInt(port)),
                    Duration.ofMillis(readyMillis), Duration.ofMillis(200));
            if (!p.isAlive()) {
                throw new IOException("'" + start + "' exited with code " + p.exitValue() + " before " + host + ":" + port
                        + " accepted connections" + (log != null ? "; see " + log : ""));
            }
            if (!ready) {
                throw new IOException("started '" + start + "' (pid " + p.pid() + "), but " + host + ":" + port
                        + " did not accept connections within " + readyMillis / 1000 + " s");
            }
        }
        return p.pid();
    }

    /** ", host:port accepts connections" when the record names the node's port, for a message. */
    static String portReady(FaultRecord record) {
        String host = record.get("target.host");
        String port = record.get("target.port");
        return host != null && port != null ? ", " + host + ":" + port + " accepts connections" : "";
    }
}
