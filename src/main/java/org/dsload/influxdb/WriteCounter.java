package org.dsload.influxdb;

import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.samplers.SampleResult;
import org.dsload.core.RequestsResult;

/**
 * Counts the InfluxDB writes of the samplers in an element's scope (JMeter's HTTP Request, dsload
 * InfluxDB Write, whose rows stand for several requests): every request to {@code /write} (or the
 * 2.x {@code /api/v2/write}), and the line-protocol points of those the server accepted (2xx),
 * which is what InfluxDB counts as points written.
 */
final class WriteCounter {
    static final String REQUESTS = "write_requests";
    static final String POINTS = "points";
    /** Points of writes sent that got no answer in time: the server may have stored them. */
    static final String UNANSWERED_POINTS = "unanswered_points";

    private final LongAdder requests = new LongAdder();
    private final LongAdder points = new LongAdder();
    private final LongAdder unanswered = new LongAdder();

    void add(SampleResult result) {
        if (!isWrite(result)) {
            return;
        }
        requests.add(Math.max(1, result.getSampleCount()));
        if (result instanceof RequestsResult written) {
            points.add(InfluxDbWriteSampler.acceptedPoints(written));
            unanswered.add(InfluxDbWriteSampler.unansweredPoints(written));
            return;
        }
        String code = result.getResponseCode();
        if (result instanceof HTTPSampleResult http && code != null && code.length() == 3 && code.charAt(0) == '2') {
            points.add(points(http.getQueryString()));
        }
    }

    static boolean isWrite(SampleResult result) {
        if (result.getURL() == null) {
            return false;
        }
        String path = result.getURL().getPath();
        return path.endsWith("/write");
    }

    /** Lines of line protocol: neither blank nor a comment. */
    static long points(String body) {
        if (body == null) {
            return 0;
        }
        long n = 0;
        for (String line : body.split("\n")) {
            String text = line.strip();
            if (!text.isEmpty() && !text.startsWith("#")) {
                n++;
            }
        }
        return n;
    }

    Map<String, Long> snapshot() {
        return Map.of(REQUESTS, requests.sum(), POINTS, points.sum(), UNANSWERED_POINTS, unanswered.sum());
    }
}
