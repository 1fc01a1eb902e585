package org.dsload.chaos;

import java.util.List;

/**
 * Process faults on the engine's own host, without root and without other tools: signals to the
 * node's process (SIGKILL, SIGSTOP/SIGCONT, SIGTERM) and starting it again with its start
 * command ({@link NodeSignals}), CPU and memory hogs in a JVM of their own ({@link Hogs}), and a
 * disk filled with a file in the node's data directory ({@link DiskFill}). Remote hosts are the
 * command driver's.
 */
public final class ProcessDriver implements FaultDriver {
    public static final String NAME = "process";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean supports(FaultKind kind) {
        return !kind.network();
    }

    @Override
    public Applied apply(FaultSpec spec) throws Exception {
        Target t = spec.target();
        FaultRecord record = new FaultRecord(spec.id(), spec.label(), spec.kind().id(), t.name(), NAME);
        for (String key : List.of("start", "pidfile", "log", "host", "port", "dir")) {
            record.put("target." + key, t.get(key));
        }
        record.put("ready_timeout_ms", Long.toString(spec.settings().readyTimeoutMillis()));
        return switch (spec.kind()) {
            case KILL -> NodeSignals.kill(t, record);
            case PAUSE -> NodeSignals.pause(t, record);
            case RESTART -> NodeSignals.restart(t, record, spec.settings().readyTimeoutMillis());
            case CPU -> Hogs.cpu(spec, record);
            case MEMORY -> Hogs.memory(spec, record);
            case DISK -> DiskFill.fill(spec, record);
            default -> throw new IllegalArgumentException("the process driver has no " + spec.kind().id() + " fault");
        };
    }

    @Override
    public String revert(FaultRecord record) throws Exception {
        String kind = record.require(FaultRecord.KIND);
        return switch (FaultKind.parse(kind)) {
            case KILL -> NodeSignals.startAgain(record);
            case PAUSE -> NodeSignals.resume(record);
            case RESTART -> "nothing to undo";
            case CPU, MEMORY -> Hogs.end(record);
            case DISK -> DiskFill.free(record);
            default -> throw new IllegalArgumentException("the process driver has no " + kind + " fault");
        };
    }
}
