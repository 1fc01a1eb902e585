package org.dsload.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The kinds of faults by the names a plan gives them, and which of them act on the network. */
class FaultKindTest {

    @Test
    void aKindIsReadByItsNameInAnyCaseOrByTheNamesOfTheFaultReports() {
        assertEquals(FaultKind.DELAY, FaultKind.parse(" Delay "));
        assertEquals(FaultKind.CPU, FaultKind.parse("cpu-hog"));
        assertEquals(FaultKind.CPU, FaultKind.parse("CPU_HOG"));
        assertEquals(FaultKind.MEMORY, FaultKind.parse("mem"));
        assertEquals(FaultKind.MEMORY, FaultKind.parse("memory-hog"));
        assertEquals(FaultKind.DISK, FaultKind.parse("disk_full"));
        for (FaultKind kind : FaultKind.values()) {
            assertEquals(kind, FaultKind.parse(kind.id()), "its own id reads back");
        }
    }

    @Test
    void anUnknownKindIsNamedWithTheKindsThereAre() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FaultKind.parse(" quake "));
        assertEquals("unknown fault kind 'quake' (kinds: delay, bandwidth, freeze, reset, loss, kill, pause, restart, "
                + "cpu, memory, disk)", e.getMessage());
    }

    @Test
    void networkKindsAreThoseBetweenClientsAndANode() {
        List<FaultKind> network = Arrays.stream(FaultKind.values()).filter(FaultKind::network).toList();
        assertEquals(List.of(FaultKind.DELAY, FaultKind.BANDWIDTH, FaultKind.FREEZE, FaultKind.RESET, FaultKind.LOSS),
                network);
        assertFalse(FaultKind.KILL.network());
        for (FaultKind kind : FaultKind.values()) {
            assertTrue(!kind.help().isBlank(), kind + " says what it does");
        }
    }
}
