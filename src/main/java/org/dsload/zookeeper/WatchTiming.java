package org.dsload.zookeeper;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.core.SampleTiming;

/**
 * The time of a Watch sample is not the time of a call in this thread but the notification
 * latency: it starts when the triggering write was sent and ends when the event arrived. The
 * sample carries it the way every dsload sample carries its time: JMeter's start and elapsed
 * milliseconds, and the microseconds in {@link SampleTiming#VARIABLE}.
 */
final class WatchTiming {
    private WatchTiming() {
    }

    static void record(SampleResult result, long startMillis, long micros) {
        long millis = micros / 1000;
        result.setStampAndTime(startMillis, millis);
        result.setLatency(millis);
        SampleTiming.measured(result, startMillis, micros);
    }
}
