package org.dsload.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class WorkloadTest {

    static WorkloadSpec spec(Preset preset, long records, long seed) {
        Map<Operation, Double> p = new EnumMap<>(Operation.class);
        for (Operation op : Operation.values()) {
            p.put(op, preset.proportion(op));
        }
        return new WorkloadSpec("workload" + preset.name().toLowerCase(), "usertable", records, 0, records, 0, 10, 100, 1,
                "constant", true, false, p, preset.requestDistribution(), 0.2, 0.8, 1, preset.maxScanLength(), "uniform",
                false, 1, seed);
    }

    @Test
    void presetsHaveYcsbsProportionsAndDistributions() {
        assertEquals(0.5, Preset.A.proportion(Operation.READ));
        assertEquals(0.5, Preset.A.proportion(Operation.UPDATE));
        assertEquals(0.95, Preset.B.proportion(Operation.READ));
        assertEquals(1.0, Preset.C.proportion(Operation.READ));
        assertEquals("latest", Preset.D.requestDistribution());
        assertEquals(0.05, Preset.D.proportion(Operation.INSERT));
        assertEquals(0.95, Preset.E.proportion(Operation.SCAN));
        assertEquals(100, Preset.E.maxScanLength());
        assertEquals(0.5, Preset.F.proportion(Operation.READ_MODIFY_WRITE));
        assertEquals(Preset.C, Preset.of("workloadc"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Preset.of("g")).getMessage()
                .contains("one of a, b, c, d, e, f"));
    }

    @Test
    void proportionsAreObservedWithin2PercentOver10000Operations() {
        Map<Operation, Double> p = new EnumMap<>(Operation.class);
        p.put(Operation.READ, 0.4);
        p.put(Operation.UPDATE, 0.3);
        p.put(Operation.INSERT, 0.1);
        p.put(Operation.SCAN, 0.1);
        p.put(Operation.READ_MODIFY_WRITE, 0.1);
        OperationMix mix = new OperationMix(p);
        Map<Operation, Integer> seen = new EnumMap<>(Operation.class);
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 10_000; i++) {
            seen.merge(mix.next(random), 1, Integer::sum);
        }
        for (Operation op : Operation.values()) {
            assertEquals(p.get(op), seen.get(op) / 10_000.0, 0.02, op.label());
        }
    }

    @Test
    void theSameSeedGivesTheSameOperationsKeysAndValues() {
        List<String> first = trace(spec(Preset.A, 1000, 17), 17);
        List<String> again = trace(spec(Preset.A, 1000, 17), 17);
        List<String> other = trace(spec(Preset.A, 1000, 18), 18);
        assertEquals(first, again);
        assertTrue(!first.equals(other), "another seed gives another sequence");
    }

    private static List<String> trace(WorkloadSpec spec, long seed) {
        Workload w = new Workload(spec);
        SplittableRandom random = new SplittableRandom(seed);
        List<String> ops = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            ops.add(w.nextOperation(random).label() + " " + w.key(w.nextRecord(random)) + " " + w.nextValue(random));
        }
        return ops;
    }

    @Test
    void keysAreHashedOrOrderedAndPadded() {
        Workload hashed = new Workload(spec(Preset.C, 10, 1));
        assertEquals("user6284781860667377211", hashed.key(0));
        WorkloadSpec s = spec(Preset.C, 10, 1);
        Workload ordered = new Workload(new WorkloadSpec(s.preset(), s.table(), 10, 0, 10, 0, 10, 100, 1, "constant", true,
                false, s.proportions(), "uniform", 0.2, 0.8, 1, 1000, "uniform", true, 5, 1));
        assertEquals("user00007", ordered.key(7));
    }

    @Test
    void theLoadPhaseHandsOutEachRecordOnce() {
        Workload w = new Workload(spec(Preset.A, 5, 1));
        for (int i = 0; i < 5; i++) {
            assertEquals(i, w.nextLoadRecord());
        }
        assertEquals(-1, w.nextLoadRecord());
    }

    @Test
    void theOperationCountIsSharedByAllThreads() {
        WorkloadSpec s = spec(Preset.A, 10, 1);
        Workload w = new Workload(new WorkloadSpec(s.preset(), s.table(), 10, 0, 10, 3, 10, 100, 1, "constant", true,
                false, s.proportions(), "zipfian", 0.2, 0.8, 1, 1000, "uniform", false, 1, 1));
        assertTrue(w.claimOperation() && w.claimOperation() && w.claimOperation());
        assertTrue(!w.claimOperation());
    }

    @Test
    void valuesHaveTheConfiguredLength() {
        Workload w = new Workload(spec(Preset.A, 10, 1));
        assertEquals(100, w.nextValue(new SplittableRandom(1)).length());
    }

    @Test
    void badSettingsNameTheirField() {
        WorkloadSpec s = spec(Preset.A, 10, 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new WorkloadSpec(s.preset(),
                s.table(), 10, 5, 10, 0, 10, 100, 1, "constant", true, false, s.proportions(), "zipfian", 0.2, 0.8, 1,
                1000, "uniform", false, 1, 1));
        assertTrue(e.getMessage().startsWith("insertCount:"), e.getMessage());
    }
}
