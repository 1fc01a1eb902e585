package org.dsload.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.Test;

/** Bytes received are what came over the wire: a failure's message shown as response data is not. */
class WireResultTest {

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
    void aResultNoDsloadCodeCountedKeepsJMetersRule() {
        SampleResult result = Results.create("other");
        result.setResponseData("abc", "UTF-8");
        assertEquals(3, result.getBytesAsLong());
    }
}
