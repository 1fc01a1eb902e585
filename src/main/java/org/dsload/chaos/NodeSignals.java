package org.dsload.chaos;

import java.time.Duration;
import java.util.List;

import org.dsload.process.Ports;
import org.dsload.process.ProcessTree;
import org.dsload.process.Signals;

/**
 * The process driver's faults on a node's process: SIGKILL, SIGSTOP until SIGCONT, and a restart
 * (SIGTERM, then its start command). A pid file may name a wrapper (a shell, a launcher script)
 * whose child is the node: every signal goes to the whole process tree.
 */
final class NodeSignals {
    private static final Duration EXIT_WAIT = Duration.ofSeconds(30);
    private static final Duration STOP_WAIT = Duration.ofSeconds(5);
    private static final Duration PORT_CLOSE_WAIT = Duration.ofSeconds(10);

    private NodeSignals() {
    }

    static FaultDriver.Applied kill(Target t, FaultRecord record) throws Exception {
        long pid = t.pid();
        ProcessTree.kill(alive(pid, t));
        String closed = awaitPortClosed(t);
        record.put("pid", Long.toString(pid));
        return new FaultDriver.Applied(record, "SIGKILL " + pid + ", process gone" + closed
                + (t.get("start") == null ? "; no start= command, so the revert cannot start it again" : ""));
    }

    static FaultDriver.Applied pause(Target t, FaultRecord record) throws Exception {
        long pid = t.pid();
        List<ProcessHandle> tree = ProcessTree.of(alive(pid, t));
        for (ProcessHandle p : tree) {
            Signals.send(p.pid(), "STOP");
        }
        Signals.awaitStopped(tree, STOP_WAIT);
        record.put("pid", Long.toString(pid)).put("pid.start", ProcessTree.startInstant(pid))
                .put("pid.tree", String.join(",", tree.stream().map(p -> Long.toString(p.pid())).toList()));
        return new FaultDriver.Applied(record, "SIGSTOP " + record.get("pid.tree"));
    }

    static String resume(FaultRecord record) throws Exception {
        long pid = Long.parseLong(record.require("pid"));
        if (ProcessTree.same(pid, record.get("pid.start")).isEmpty()) {
            return "process " + pid + " is gone; nothing to resume";
        }
        String tree = record.get("pid.tree") == null ? Long.toString(pid) : record.get("pid.tree");
        for (String each : tree.split(",")) {
            if (ProcessTree.alive(Long.parseLong(each)).isPresent()) {
                Signals.send(Long.parseLong(each), "CONT");
            }
        }
        return "SIGCONT " + tree;
    }

    static FaultDriver.Applied restart(Target t, FaultRecord record, long readyMillis) throws Exception {
        t.require("start", "a restart needs the command that starts the node");
        long pid = t.pid();
        ProcessTree.stop(alive(pid, t), EXIT_WAIT);
        awaitPortClosed(t);
        long newPid = NodeStart.start(record, readyMillis);
        record.put("restarted", "true");
        return new FaultDriver.Applied(record, "SIGTERM " + pid + ", started again as " + newPid
                + NodeStart.portReady(record));
    }

    /** The revert of a kill: the node started again, when the target says how. */
    static String startAgain(FaultRecord record) throws Exception {
        if (record.get("target.start") == null) {
            return "left down: the target has no start= command";
        }
        long pid = NodeStart.start(record, Long.parseLong(record.get("ready_timeout_ms") == null ? "240000"
                : record.get("ready_timeout_ms")));
        return "started again as " + pid + NodeStart.portReady(record);
    }

    private static ProcessHandle alive(long pid, Target t) {
        return ProcessTree.alive(pid).orElseThrow(() -> new IllegalStateException("process " + pid + " of target '"
                + t.name() + "' is not running"));
    }

    private static String awaitPortClosed(Target t) throws InterruptedException {
        String host = t.get("host");
        String port = t.get("port");
        if (host == null || port == null) {
            return "";
        }
        if (!Ports.awaitClosed(host, Integer.parseInt(port), PORT_CLOSE_WAIT)) {
            return ", but " + host + ":" + port + " still accepts connections";
        }
        return ", " + host + ":" + port + " closed";
    }
}
