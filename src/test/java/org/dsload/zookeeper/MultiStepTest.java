package org.dsload.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;

class MultiStepTest {

    @Test
    void oneOperationPerLineWithOptionalVersions() {
        List<MultiStep> steps = MultiStep.parse("create /job#{seq}\n  set /job 3\n# a comment\n\ndelete /old\ncheck /x 0");
        assertEquals(4, steps.size());
        assertEquals("create", steps.get(0).kind());
        assertEquals("/job7", steps.get(0).path().expand(7, 0, 1));
        assertEquals(3, steps.get(1).version());
        assertEquals(-1, steps.get(2).version());
        assertEquals("check", steps.get(3).kind());
    }

    @Test
    void mistakesNameTheLine() {
        assertEquals("line 2 'rename /a /b' must start with create, set, delete or check",
                assertThrows(IllegalArgumentException.class, () -> MultiStep.parse("create /a\nrename /a /b")).getMessage());
        assertEquals("line 1 'set /a x' has a version that is not a whole number",
                assertThrows(IllegalArgumentException.class, () -> MultiStep.parse("set /a x")).getMessage());
        assertEquals("line 1 'create /a 3' must be 'create <path>'",
                assertThrows(IllegalArgumentException.class, () -> MultiStep.parse("create /a 3")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> MultiStep.parse(" \n# only a comment"));
    }
}
