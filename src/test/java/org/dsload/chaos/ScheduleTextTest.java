package org.dsload.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The schedule's text: fault lines, starts, targets, quantities, command templates, and the timeline's sequence. */
class ScheduleTextTest {

    @Test
    void aFaultLineHasKindTargetParametersStartAndDuration() {
        FaultLine l = FaultLine.parse("delay node3 delay=200ms direction=both after 2 + 20s for 30s");
        assertEquals(new FaultLine("delay", "node3", "delay=200ms direction=both", "after 2 + 20s", "30s"), l);
        assertEquals(new FaultLine("restart", "n1", "", "on run + 5s", ""), FaultLine.parse("restart n1 on run + 5s"));
        assertEquals(new FaultLine("cpu", "n1", "percent=50%", "30s", "1m"), FaultLine.parse("cpu n1 percent=50% at 30s for 1m"));
        assertEquals(2, FaultLine.parseAll("# S5\ncpu n1 at 0s for 1s\n\nkill n1 after 1 + 2s for 3s\n").size());
        assertThrows(IllegalArgumentException.class, () -> FaultLine.parse("cpu"));
        assertThrows(IllegalArgumentException.class, () -> FaultLine.parse("cpu n1 30s"));
    }

    @Test
    void startsAreOffsetsGapsAfterAFaultOrTriggers() {
        assertEquals(new StartSpec(StartSpec.Kind.OFFSET, 30_000, 0, null), StartSpec.parse("30s"));
        assertEquals(new StartSpec(StartSpec.Kind.AFTER, 20_000, 2, null), StartSpec.parse("after 2 + 20s"));
        assertEquals(new StartSpec(StartSpec.Kind.TRIGGER, 5_000, 0, "run"), StartSpec.parse("on run + 5s"));
        assertThrows(IllegalArgumentException.class, () -> StartSpec.parse("after x"));
    }

    @Test
    void targetsAndQuantities() {
        Map<String, Target> t = Target.parseAll("node3: host=10.0.0.3 port=9042 start=\"systemctl start cassandra\"\n# x\n");
        assertEquals("systemctl start cassandra", t.get("node3").get("start"));
        assertThrows(IllegalArgumentException.class, () -> Target.parseAll("a: x=1\na: y=2"));
        assertEquals(90_500, Quantities.millis("1m30s500ms"));
        assertEquals(64L << 20, Quantities.bytes("64MiB"));
        assertEquals(125_000, Quantities.bytesPerSecond("1mbit"));
        assertEquals(0.5, Quantities.share("50%"));
        assertThrows(IllegalArgumentException.class, () -> Quantities.share("150%"));
    }

    @Test
    void commandTemplatesRenderTheTargetAndTheFaultAndNameWhatIsMissing() {
        String r = CommandDriver.render(CommandTemplates.DEFAULTS.get("loss.apply"),
                Map.of("host", "10.0.0.3", "port", "9042", "loss", "0.5", "tag", "dsload-x"), "loss.apply");
        assertEquals("iptables -I INPUT -p tcp -d 10.0.0.3 --dport 9042 -m statistic --mode random --probability 0.5 "
                + "-m comment --comment dsload-x -j DROP", r);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CommandDriver.render("tc qdisc add dev {dev} root", Map.of(), "delay.apply"));
        assertTrue(e.getMessage().contains("{dev}"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> CommandTemplates.parse("delay = tc"));
        assertEquals(Map.of("delay.apply", "tc x"), CommandTemplates.parse("delay.apply = tc x"));
    }

    @Test
    void aSequenceWaitsForTheRevertOfTheFaultBefore() {
        PlannedFault first = new PlannedFault(1, FaultKind.CPU, new Target("n", Map.of()), Map.of(),
                StartSpec.parse("10s"), 5_000, new ProcessDriver());
        PlannedFault second = new PlannedFault(2, FaultKind.DELAY, new Target("n", Map.of()), Map.of(),
                StartSpec.parse("after 1 + 3s"), 5_000, new ProxyDriver());
        Timeline t = new Timeline(List.of(first, second), 0);
        Timeline.Event e = t.next(name -> null);
        assertEquals(new Timeline.Event(true, first, 10_000), e);
        t.applied(first, 10_400);
        assertEquals(new Timeline.Event(false, first, 15_400), t.next(name -> null));
        t.over(first, 17_000);  // a revert that took its time
        assertEquals(new Timeline.Event(true, second, 20_000), t.next(name -> null));
        t.applied(second, 20_000);
        t.over(second, 25_000);
        assertNull(t.next(name -> null));
        assertEquals(25_000, t.lastEnd());
    }
}
