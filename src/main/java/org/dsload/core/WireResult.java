package org.dsload.core;

import org.apache.jmeter.samplers.SampleResult;

/**
 * A sample result whose received bytes are what went over the wire, even when that is nothing.
 * JMeter reports the length of the response data when a result received no bytes, so a failure
 * whose message dsload puts into the response data (for the person reading View Results Tree)
 * would count its own message as bytes received: a request that never reached a server (no node
 * available, no connection) must count 0. {@link Results#bytes} sets the count.
 */
public class WireResult extends SampleResult {
    private static final long serialVersionUID = 1L;

    /** Bytes received on the wire, or negative when no dsload code counted them (JMeter's rule then). */
    private long received = -1;

    @Override
    public long getBytesAsLong() {
        return received >= 0 ? received : super.getBytesAsLong();
    }

    void received(long bytes) {
        this.received = bytes;
    }

    /** Nothing received, unless bytes were counted already (a later count still replaces it). */
    void receivedUnlessCounted() {
        if (received < 0) {
            received = 0;
        }
    }
}
