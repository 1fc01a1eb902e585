package org.dsload.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dsload.core.ConfigException;
import org.dsload.core.Fields;
import org.dsload.testing.JMeterRuntime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The YCSB Workload's fields as it compiles them at test start. */
class YcsbWorkloadTest {

    private static WorkloadSpec open(String retryLimit, String retryInterval) {
        JMeterRuntime.init();
        YcsbWorkload w = new YcsbWorkload();
        w.setName("w");
        w.setInsertionRetryLimit(retryLimit);
        w.setInsertionRetryInterval(retryInterval);
        return w.open(new Fields(YcsbWorkload.class, "w")).workload().spec();
    }

    @Test
    void insertionRetriesDefaultToYcsbsNoneEvery3SecondsAndAreWrittenUnderYcsbsNames() {
        WorkloadSpec defaults = open("0", "3");
        assertEquals(0, defaults.insertionRetryLimit());
        assertEquals(3.0, defaults.insertionRetryInterval());
        assertTrue(defaults.describe().contains("core_workload_insertion_retry_limit=0\n"
                + "core_workload_insertion_retry_interval=3\n"), defaults.describe());
        WorkloadSpec saved = open("", "");
        assertEquals(0, saved.insertionRetryLimit(), "a plan saved before the fields existed: YCSB's defaults");
        assertEquals(3.0, saved.insertionRetryInterval());
        WorkloadSpec set = open("3", "0.25");
        assertEquals(3, set.insertionRetryLimit());
        assertEquals(0.25, set.insertionRetryInterval());
        assertTrue(set.describe().contains("core_workload_insertion_retry_interval=0.25\n"), set.describe());
    }

    @ParameterizedTest(name = "limit {0}, interval {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {"-1 | 3 | 'Insertion retry limit' must be",
        "x | 3 | 'Insertion retry limit' must be", "1001 | 3 | 'Insertion retry limit' must be",
        "2 | abc | 'Insertion retry interval (s)' must be a number",
        "2 | -0.5 | 'Insertion retry interval (s)' must be from 0",
        "2 | 3601 | 'Insertion retry interval (s)' must be from 0"})
    void aBadInsertionRetryIsRefusedNamingItsField(String limit, String interval, String problem) {
        ConfigException e = assertThrows(ConfigException.class, () -> open(limit, interval));
        assertTrue(e.getMessage().startsWith("dsload YCSB Workload 'w': field "), e.getMessage());
        assertTrue(e.getMessage().contains(problem), e.getMessage());
    }

    @Test
    void aFailedInsertIsRetriedWithItsKeyAndValuesUntilItsAttemptsAreSpent() {
        WorkloadSpec spec = open("2", "1");
        Workload w = new Workload(spec);
        DrawnOperation first = DrawnOperation.load(w, 0, new java.util.SplittableRandom(1));
        DrawnOperation second = first.retried();
        DrawnOperation third = second.retried();
        org.dsload.core.Outcome failed = org.dsload.core.Outcome.failed("TIMEOUT", "no answer", 0, 0);
        assertEquals(first.key(), third.key());
        assertTrue(first.values() == third.values(), "the same values");
        assertEquals("INSERT " + first.key() + " (attempt 3)", third.describe());
        assertTrue(InsertionRetry.left(spec, first, failed) && InsertionRetry.left(spec, second, failed));
        assertTrue(!InsertionRetry.left(spec, third, failed), "3 attempts: the first and 2 retries");
        assertTrue(!InsertionRetry.left(spec, first, org.dsload.core.Outcome.failed("CANCELLED", "stopped", 0, 0)),
                "a request cancelled by a stopping test is not retried");
        for (int i = 0; i < 100; i++) {
            long delay = InsertionRetry.delayNanos(spec);
            assertTrue(delay >= 800_000_000L && delay < 1_200_000_000L, "YCSB's jitter, 0.8 to 1.2 times: " + delay);
        }
        assertEquals("no answer (attempt 2 of 3: the insert is tried again in 1.05 s)",
                InsertionRetry.retried("no answer", spec, second, 1_050_000_000L));
        assertEquals(first.key() + " (attempt 3 of 3)", InsertionRetry.failedAt(spec, third));
        assertEquals(first.key(), InsertionRetry.failedAt(open("0", "3"), first), "no retries: the key as before");
    }
}
