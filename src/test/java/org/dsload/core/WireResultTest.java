package org.dsload.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.testing.JMeterRuntime;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Bytes received are what came over the wire: a failure's message shown as response data is not. */
class WireResultTest {

    @BeforeAll
    static void jmeter() {
        JMeterRuntime.init(); // before the first SampleResult: its class reads JMeter's properties once
    }

    @Test
    void aFailureThatReceivedNothingCountsNoBytesWhateverItsMessage() {
        SampleResult result = Results.create("write");
        Results.fail(result, "NoNodeAvailableException", "No node was available to execute the query [127.0.0.1:9042]");
        Results.bytes(result, 0, 0);
        assertEquals(0, result.getBytesAsLong());
        assertEquals(0, result.getSentBytes());
        assertEquals("No node was available to execute the query [127.0.0.1:9042]", result.getResponseDataAsString(),
                "the message is still there to read");
    }

    @Test
    void bytesCountedBeforeTheFailureStand() {
        SampleResult result = Results.create("write");
        Results.bytes(result, 120, 40);
        Results.fail(result, "500", "Internal Server Error");
        assertEquals(40, result.getBytesAsLong());
        assertEquals(120, result.getSentBytes());
    }

    @Test
    void aFailureNoOneCountedBytesForReceivedNone() {
        SampleResult result = Results.create("query");
        Results.fail(result, "CONFIG", "dsload KairosDB Query 'q': field 'Metrics' must not be empty");
        assertEquals(0, result.getBytesAsLong());
    }

    @Test
    void aResultNoDsloadCodeCountedKeepsJMetersRule() {
        SampleResult result = Results.create("other");
        result.setResponseData("abc", "UTF-8");
        assertEquals(3, result.getBytesAsLong());
    }
}
