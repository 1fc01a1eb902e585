package org.dsload.chaos;

import java.lang.reflect.Field;
import java.util.Optional;

import org.apache.jmeter.engine.StandardJMeterEngine;

/**
 * Whether the test this engine runs has its thread groups run one after another (the Test Plan's
 * "Run Thread Groups consecutively", {@code TestPlan.serialize_threadgroups}). A Fault Schedule
 * is alone in its thread group, so in such a test its faults could only come before or after the
 * load, never during it.
 *
 * <p>JMeter keeps the flag in its engine (read from the Test Plan when the test is configured),
 * and neither the engine nor a test element offers it: it is read from the engine's field. A
 * JMeter that names it otherwise gives no answer, and the check is skipped.
 */
final class ConsecutiveGroups {
    private ConsecutiveGroups() {
    }

    /** The flag of this JVM's engine for the test starting; empty when it cannot be read. */
    static Optional<Boolean> inThisEngine() {
        try {
            Field engineField = StandardJMeterEngine.class.getDeclaredField("engine");
            engineField.setAccessible(true);
            Object engine = engineField.get(null);
            if (engine == null) {
                return Optional.empty();
            }
            Field serialized = StandardJMeterEngine.class.getDeclaredField("serialized");
            serialized.setAccessible(true);
            return Optional.of(serialized.getBoolean(engine));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * Ends the test before its thread groups start: asked from a {@code testStarted}, the engine
     * notes the stop in a thread of its own, which is waited for (at most a second), so that the
     * load does not start meanwhile.
     */
    static void stopBeforeTheLoad() {
        StandardJMeterEngine.stopEngineNow();
        long deadline = System.nanoTime() + 1_000_000_000L;
        while (engineStillSet() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** The engine clears its shared instance first thing when it stops. */
    private static boolean engineStillSet() {
        try {
            Field engineField = StandardJMeterEngine.class.getDeclaredField("engine");
            engineField.setAccessible(true);
            return engineField.get(null) != null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }
}
