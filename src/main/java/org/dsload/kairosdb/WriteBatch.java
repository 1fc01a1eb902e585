package org.dsload.kairosdb;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import com.fasterxml.jackson.core.io.JsonStringEncoder;

/**
 * The write requests of one thread (one resource): each call makes the next batch of
 * {@code metricsPerRequest} metrics, taking the resource's metrics in turn, as the JSON body of
 * KairosDB's {@code POST /api/v1/datapoints}. Names and tags are fixed per metric and thread, so
 * their JSON is made once; a batch costs its time stamps and values.
 */
final class WriteBatch {
    private final BatchSpec spec;
    private final String[] heads;
    private final String tail;
    private final List<WriteLedger.Series> series;
    private final SplittableRandom random = new SplittableRandom();
    private final long[] counter = new long[1];
    /** Metrics this thread has written so far, over all its batches. */
    private long sequence;
    private long clockStart = Long.MIN_VALUE;
    private long lastStamp = Long.MIN_VALUE;

    /** One request: its body, its points and the range of their time stamps. */
    record Built(byte[] json, int points, long firstPoint, long lastPoint) {
    }

    WriteBatch(BatchSpec spec, int thread, String engine) {
        this.spec = spec;
        int k = spec.metricsPerResource();
        this.heads = new String[k];
        this.series = new ArrayList<>(k);
        JsonStringEncoder json = JsonStringEncoder.getInstance();
        for (int m = 0; m < k; m++) {
            String name = spec.name().expand(m, thread, engine);
            Map<String, String> tags = new LinkedHashMap<>();
            for (BatchSpec.Tag tag : spec.tags()) {
                tags.put(tag.name().expand(m, thread, engine), tag.value().expand(m, thread, engine));
            }
            StringBuilder head = new StringBuilder("{\"name\":\"").append(json.quoteAsString(name)).append("\",\"tags\":{");
            boolean first = true;
            for (Map.Entry<String, String> tag : tags.entrySet()) {
                head.append(first ? "" : ",").append('"').append(json.quoteAsString(tag.getKey())).append("\":\"")
                        .append(json.quoteAsString(tag.getValue())).append('"');
                first = false;
            }
            heads[m] = head.append("},\"datapoints\":[").toString();
            series.add(new WriteLedger.Series(name, tags));
        }
        this.tail = spec.ttlSeconds() > 0 ? "],\"ttl\":" + spec.ttlSeconds() + "}" : "]}";
    }

    /** The series this thread writes to. */
    List<WriteLedger.Series> series() {
        return series;
    }

    Built next(long nowMillis) {
        int m = spec.metricsPerRequest();
        int p = spec.pointsPerMetric();
        int k = spec.metricsPerResource();
        long interval = spec.intervalMillis();
        StringBuilder body = new StringBuilder(m * (heads[0].length() + 16 + p * 32));
        body.append('[');
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        long base = 0;
        if (spec.simulated()) {
            if (clockStart == Long.MIN_VALUE) {
                clockStart = nowMillis - spec.startOffsetMillis();
            }
        } else {
            // Strictly later than this thread's previous batch: two batches in one millisecond
            // would otherwise overwrite each other's points in KairosDB.
            base = Math.max(nowMillis, lastStamp + 1);
            lastStamp = base;
        }
        for (int i = 0; i < m; i++) {
            long s = sequence++;
            int metric = (int) (s % k);
            if (spec.simulated()) {
                base = clockStart + ((s / k) * p + p - 1) * interval;
            }
            if (i > 0) {
                body.append(',');
            }
            body.append(heads[metric]);
            for (int point = 0; point < p; point++) {
                long stamp = base - (long) (p - 1 - point) * interval;
                body.append(point == 0 ? "[" : ",[").append(stamp).append(',');
                spec.values().append(body, random, counter);
                body.append(']');
                first = Math.min(first, stamp);
                last = Math.max(last, stamp);
            }
            body.append(tail);
        }
        body.append(']');
        return new Built(body.toString().getBytes(StandardCharsets.UTF_8), m * p, first, last);
    }
}
