package org.dsload.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * How the command driver builds its commands, shown with templates that only echo (no root, no
 * host change): the fault's quantities as the tools take them, the revert rendered at apply time
 * with the apply's handle, the prefix that runs them on a node's host, and what it refuses.
 */
class CommandDriverTest {
    private static final CommandDriver DRIVER = new CommandDriver();
    private static final Target NODE = new Target("n1", Map.of("host", "127.0.0.1", "port", "6379"));

    private static FaultSpec spec(FaultKind kind, Map<String, String> params, String prefix, Map<String, String> templates) {
        return Faults.spec(kind, NODE, params, new FaultSpec.Settings("", prefix, templates, 10_000, 10_000));
    }

    @Test
    void theRevertIsRenderedAtApplyWithTheFirstLineTheApplyPrintedAsItsHandle() throws Exception {
        FaultSpec spec = spec(FaultKind.CPU, Map.of("percent", "25%"), "",
                Map.of("cpu.apply", "echo 4242; echo started", "cpu.revert", "echo stop {handle} {percent} {seconds} {tag}"));
        FaultDriver.Applied applied = DRIVER.apply(spec);
        assertEquals("ran: echo 4242; echo started -> 4242 | started", applied.message());
        // percent is whole percent for stress-ng; seconds is the fault's 30 s and 30 s of margin
        assertEquals("echo stop 4242 25 60 dsload-" + spec.id(), applied.record().require("command.revert"));
        assertEquals("ran: echo stop 4242 25 60 dsload-" + spec.id(), DRIVER.revert(applied.record()));
    }

    @Test
    void sharesAndSizesReachTheCommandAsTheToolsTakeThem() throws Exception {
        FaultSpec spec = spec(FaultKind.LOSS, Map.of("loss", "50%", "max", "1MiB", "reserve", "64k"), "",
                Map.of("loss.apply", "echo {loss} {max} {reserve} {host}:{port}", "loss.revert", "true"));
        assertEquals("ran: echo 0.5 1048576 65536 127.0.0.1:6379 -> 0.5 1048576 65536 127.0.0.1:6379",
                DRIVER.apply(spec).message());
    }

    @Test
    void aPrefixRunsTheCommandAsOneArgumentAndTheRevertGoesTheSameWay() throws Exception {
        FaultSpec spec = spec(FaultKind.PAUSE, Map.of(), "env DSLOAD_NODE={host} sh -c",
                Map.of("pause.apply", "echo on $DSLOAD_NODE", "pause.revert", "echo back on $DSLOAD_NODE"));
        FaultDriver.Applied applied = DRIVER.apply(spec);
        assertEquals("ran: env DSLOAD_NODE=127.0.0.1 sh -c 'echo on $DSLOAD_NODE' -> on 127.0.0.1", applied.message());
        assertEquals("ran: env DSLOAD_NODE=127.0.0.1 sh -c 'echo back on $DSLOAD_NODE'", DRIVER.revert(applied.record()));
    }

    @Test
    void aQdiscOnTheHostsLoopbackIsRefusedOutsideANetworkNamespace() {
        FaultSpec spec = spec(FaultKind.DELAY, Map.of("delay", "200ms"), "",
                Map.of("delay.apply", "tc qdisc add dev lo root netem delay {delay}", "delay.revert", "true"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DRIVER.apply(spec));
        assertTrue(e.getMessage().startsWith("refusing 'tc qdisc add dev lo root netem delay 200ms': a qdisc on the "
                + "loopback device acts on everything on this host"), e.getMessage());
    }

    @Test
    void aFailedApplySaysWhatRanItsExitAndWhatItPrinted() {
        FaultSpec spec = spec(FaultKind.FREEZE, Map.of(), "",
                Map.of("freeze.apply", "echo no chain INPUT >&2; exit 3", "freeze.revert", "true"));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> DRIVER.apply(spec));
        assertEquals("'echo no chain INPUT >&2; exit 3' failed (exit 3): no chain INPUT", e.getMessage());
    }
}
