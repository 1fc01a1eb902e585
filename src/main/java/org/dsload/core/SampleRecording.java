package org.dsload.core;

import org.apache.jmeter.samplers.SampleResult;

/**
 * Where the samples of dsload samplers go on this engine, as core's samplers see it: rows as
 * JMeter writes them, unless the engine's recording registered a {@link Recorder} at test start
 * (histograms mode, or a recording mode it refused). {@link SampleTiming} tells it each sample's
 * microseconds and intended-start delay, {@link BatchResult} every request of a row of several,
 * {@link ClientSampler} the complete result.
 */
public final class SampleRecording {
    private static volatile Recorder recorder;

    private SampleRecording() {
    }

    /** What records samples other than as rows; its calls are those of the methods below. */
    public interface Recorder {
        /** True while samples are recorded into histograms, not rows. */
        boolean histograms();

        /**
         * A sample's timing, right after its driver call; the result is completed later.
         * {@code oneRequest}: the result was one request whatever its sample count (a KairosDB
         * batch counts its points), so that a failure counts once among the errors.
         */
        void timed(SampleResult result, long micros, long delayMicros, long dropped, boolean oneRequest);

        /** The result a dsload sampler returns (null when a self-paced sampler had no arrival left). */
        void completed(SampleResult result);

        /** One request of a row that stands for several, each timed on its own. */
        void request(String label, long startMillis, long elapsedMicros, long delayMicros, long dropped, int count,
                boolean success, String code, String message, long sentBytes, long receivedBytes);

        /** Marks a row whose requests were recorded one by one. */
        void ignore(SampleResult row);
    }

    /** Registers this engine's recorder; the recording calls it at every test start. */
    public static void use(Recorder engineRecorder) {
        recorder = engineRecorder;
    }

    static boolean histograms() {
        Recorder r = recorder;
        return r != null && r.histograms();
    }

    static void timed(SampleResult result, long micros, long delayMicros, long dropped, boolean oneRequest) {
        LiveFigures.timed(result, micros);
        Recorder r = recorder;
        if (r != null) {
            r.timed(result, micros, delayMicros, dropped, oneRequest);
        }
    }

    static void completed(SampleResult result) {
        Recorder r = recorder;
        if (r != null) {
            r.completed(result);
        }
    }

    static void request(String label, long startMillis, long elapsedMicros, long delayMicros, long dropped, int count,
            boolean success, String code, String message, long sentBytes, long receivedBytes) {
        Recorder r = recorder;
        if (r != null) {
            r.request(label, startMillis, elapsedMicros, delayMicros, dropped, count, success, code, message, sentBytes,
                    receivedBytes);
        }
    }

    static void ignore(SampleResult row) {
        Recorder r = recorder;
        if (r != null) {
            r.ignore(row);
        }
    }
}
