package org.dsload.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PlanRunnerTest {

    @Test
    void timingColumnIsAddedToTheUsersSampleVariables() {
        assertEquals("dsload_timing", JMeterCommand.sampleVariables(null));
        assertEquals("user,dsload_timing", JMeterCommand.sampleVariables("user"));
        assertEquals("dsload_timing,user", JMeterCommand.sampleVariables("dsload_timing,user"));
    }

    @Test
    void secretLookingPropertiesAreMaskedInTheRunRecord() {
        assertEquals("****", RunFolder.mask("redis_password", "hunter2"));
        assertEquals("****", RunFolder.mask("api_token", "abc"));
        assertEquals("env:REDIS_PW", RunFolder.mask("redis_password", "env:REDIS_PW"));
        assertEquals("127.0.0.1:6379", RunFolder.mask("hosts", "127.0.0.1:6379"));
    }
}
