package org.dsload.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PlanRunnerTest {

    @Test
    void timingColumnIsAddedToTheUsersSampleVariables() {
        assertEquals("dsload_timing", PlanRunner.sampleVariables(null));
        assertEquals("user,dsload_timing", PlanRunner.sampleVariables("user"));
        assertEquals("dsload_timing,user", PlanRunner.sampleVariables("dsload_timing,user"));
    }

    @Test
    void secretLookingPropertiesAreMaskedInTheRunRecord() {
        assertEquals("****", PlanRunner.mask("redis_password", "hunter2"));
        assertEquals("****", PlanRunner.mask("api_token", "abc"));
        assertEquals("env:REDIS_PW", PlanRunner.mask("redis_password", "env:REDIS_PW"));
        assertEquals("127.0.0.1:6379", PlanRunner.mask("hosts", "127.0.0.1:6379"));
    }
}
