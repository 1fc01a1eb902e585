package org.dsload.core;

import java.nio.charset.StandardCharsets;

import org.apache.jmeter.samplers.SampleResult;

/** Fills JMeter sample results the same way in every dsload sampler. */
public final class Results {
    /** Response code of a sample that could not run because its configuration is refused. */
    public static final String CONFIG_ERROR = "CONFIG";

    private Results() {
    }

    public static SampleResult create(String label) {
        return fill(new WireResult(), label);
    }

    /** Gives a new result the label and text settings every dsload sample has. */
    public static <R extends SampleResult> R fill(R result, String label) {
        result.setSampleLabel(label);
        result.setDataType(SampleResult.TEXT);
        result.setDataEncoding(StandardCharsets.UTF_8.name());
        result.setContentType("text/plain");
        return result;
    }

    public static void succeed(SampleResult result, String code, String message) {
        result.setSuccessful(true);
        result.setResponseCode(code);
        result.setResponseMessage(message);
    }

    /**
     * A failed sample. Its message is also its response data, for the person reading it in a
     * listener; that is no bytes received: a failure whose bytes no one counted ({@link #bytes})
     * received none.
     */
    public static void fail(SampleResult result, String code, String message) {
        result.setSuccessful(false);
        result.setResponseCode(code);
        result.setResponseMessage(message);
        if (result.getResponseData().length == 0) {
            result.setResponseData(message, StandardCharsets.UTF_8.name());
        }
        if (result instanceof WireResult wire) {
            wire.receivedUnlessCounted();
        }
    }

    /**
     * A sample for a sampler whose settings cannot work. It stops the test: running on would
     * only repeat the same failure as fast as the threads can loop.
     */
    public static SampleResult refused(String label, String samplerData, ConfigException error) {
        SampleResult result = create(label);
        result.setSamplerData(samplerData);
        result.sampleStart();
        result.sampleEnd();
        fail(result, CONFIG_ERROR, error.getMessage());
        result.setStopTest(true);
        return result;
    }

    /**
     * Bytes on the wire, 0 for a request that never reached a server. JMeter reports the body size
     * as the received bytes, which would otherwise be the (possibly truncated) response text, or a
     * failure's message ({@link WireResult}).
     */
    public static void bytes(SampleResult result, long sent, long received) {
        result.setSentBytes(sent);
        result.setBytes(received);
        result.setBodySize(received);
        if (result instanceof WireResult wire) {
            wire.received(received);
        }
        GeneratorMetrics.bytes(sent, received);
    }

    public static void text(SampleResult result, CharSequence text) {
        result.setResponseData(text.toString(), StandardCharsets.UTF_8.name());
    }

    /** Collects response text up to a limit, so that large replies cost no more than the limit. */
    public static final class LimitedText {
        private final StringBuilder text = new StringBuilder();
        private final int limit;
        private boolean truncated;

        public LimitedText(int limit) {
            this.limit = limit;
        }

        public boolean full() {
            return text.length() >= limit;
        }

        public LimitedText append(CharSequence part) {
            if (full()) {
                truncated |= part.length() > 0;
                return this;
            }
            int room = limit - text.length();
            if (part.length() > room) {
                text.append(part, 0, room);
                truncated = true;
            } else {
                text.append(part);
            }
            return this;
        }

        public LimitedText append(char c) {
            if (full()) {
                truncated = true;
            } else {
                text.append(c);
            }
            return this;
        }

        @Override
        public String toString() {
            return truncated ? text + "\n... (truncated at " + limit + " characters)" : text.toString();
        }
    }
}
