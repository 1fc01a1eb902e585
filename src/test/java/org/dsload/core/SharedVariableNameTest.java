package org.dsload.core;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.apache.jmeter.threads.JMeterContextService;
import org.dsload.process.Deadline;
import org.dsload.redis.RedisConnection;
import org.dsload.testing.JMeterRuntime;
import org.junit.jupiter.api.Test;

/** Two connection elements of one test that publish their clients under one variable name. */
class SharedVariableNameTest {

    private static RedisConnection connection(String name, String variable) {
        RedisConnection c = new RedisConnection();
        c.setName(name);
        c.setVariableName(variable);
        c.setHosts("127.0.0.1:1"); // never reached: no check at start, no gauges
        c.setCheckOnStart("false");
        c.setRecordGauges("false");
        return c;
    }

    /** When the last test started, in JMeter's milliseconds: a test's names belong to its start time. */
    private static long lastStart;

    private static String testStarted(RedisConnection... elements) {
        JMeterRuntime.freshVariables();
        JMeterContextService.startTest();
        lastStart = JMeterContextService.getTestStartTime();
        PrintStream console = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            for (RedisConnection c : elements) {
                c.testStarted();
            }
        } finally {
            System.setErr(console);
            for (RedisConnection c : elements) {
                c.testEnded();
            }
            JMeterContextService.endTest();
        }
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theSecondElementIsNamedWithTheFirstAtTestStart() throws Exception {
        String said = testStarted(connection("profiles", "redis"), connection("sessions", "redis"));
        assertTrue(said.contains("dsload: dsload Redis Connection 'profiles' and dsload Redis Connection 'sessions' both "
                + "publish their client as variable 'redis'"), said);
    }

    @Test
    void elementsWithNamesOfTheirOwnAndALaterTestAreNot() throws Exception {
        assertFalse(testStarted(connection("profiles", "redis"), connection("sessions", "redis2")).contains("both publish"));
        // a test that starts later (on JMeter's millisecond clock) starts with no name claimed
        assertTrue(Deadline.await(() -> System.currentTimeMillis() > lastStart, Duration.ofSeconds(1),
                Duration.ofMillis(1)));
        assertFalse(testStarted(connection("profiles", "redis")).contains("both publish"));
    }
}
