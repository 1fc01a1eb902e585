package org.dsload.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Whose limit a broken step met: the generator's (CPU, places, late while the server was fast) or the server's. */
class BottleneckTest {
    private static Limits.Verdict p99(boolean held) {
        return new Limits.Verdict("Measured", "p99", "<= 1ms", held, "p99 ...");
    }

    private static Limits.Verdict errors(boolean held) {
        return new Limits.Verdict("Measured", Limits.ERRORS, "<= 1%", held, "error rate ...");
    }

    private static Limits.Verdict late(boolean held) {
        return new Limits.Verdict("Measured", Limits.LATE, "<= 1%", held, "late arrivals ...");
    }

    @Test
    void lateArrivalsWhileTheServerAnsweredFastAreTheGenerators() {
        assertTrue(Bottleneck.generator(List.of(p99(true), errors(true), late(false)), 0.3, false));
    }

    @Test
    void lateArrivalsOfASlowServerAreTheServers() {
        assertFalse(Bottleneck.generator(List.of(p99(false), errors(true), late(false)), 0.3, false));
        assertFalse(Bottleneck.generator(List.of(p99(true), errors(false), late(false)), 0.3, false));
        assertFalse(Bottleneck.generator(List.of(p99(false), late(true)), 0.3, false), "a latency limit broken alone");
    }

    @Test
    void aSaturatedCpuIsTheGeneratorsWhateverBroke() {
        assertTrue(Bottleneck.generator(List.of(p99(false)), 0.95, false));
        assertFalse(Bottleneck.generator(List.of(p99(false)), 0.5, false), "a spinning thread on two cores: half the machine");
        assertFalse(Bottleneck.generator(List.of(p99(false)), Double.NaN, false), "unknown CPU: not saturated");
    }

    @Test
    void arrivalsUnsentWithEveryPlaceTakenAreTheGeneratorsUnlessTheServerWasSlow() {
        assertTrue(Bottleneck.generator(List.of(p99(true), errors(true)), 0.2, true));
        assertFalse(Bottleneck.generator(List.of(p99(false), errors(true)), 0.2, true));
    }
}
