package org.dsload.kairosdb;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Counts the data points of a write body the user wrote (the sampler's template mode), the way
 * KairosDB reads it: an array of metrics or one metric, each with a {@code datapoints} array or a
 * single {@code timestamp} and {@code value}. A body that is not JSON is still sent, so that
 * KairosDB's own message reaches the sample; it counts no points.
 */
final class TemplateBody {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** The points found, the range of their time stamps, the series; or why none could be counted. */
    record Counted(int points, long firstPoint, long lastPoint, List<WriteLedger.Series> series, String problem) {
    }

    private TemplateBody() {
    }

    static Counted count(String body) {
        JsonNode root;
        try {
            root = MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            return new Counted(0, 0, 0, List.of(), "not JSON: " + e.getOriginalMessage());
        }
        if (root == null || root.isMissingNode()) {
            return new Counted(0, 0, 0, List.of(), "empty");
        }
        List<JsonNode> metrics = new ArrayList<>();
        if (root.isArray()) {
            root.forEach(metrics::add);
        } else if (root.isObject()) {
            metrics.add(root);
        } else {
            return new Counted(0, 0, 0, List.of(), "neither an array of metrics nor a metric");
        }
        int points = 0;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        List<WriteLedger.Series> series = new ArrayList<>();
        for (JsonNode metric : metrics) {
            List<Long> stamps = new ArrayList<>();
            JsonNode datapoints = metric.path("datapoints");
            if (datapoints.isArray()) {
                for (JsonNode point : datapoints) {
                    stamps.add(point.path(0).asLong());
                }
            } else if (metric.has("timestamp") && metric.has("value")) {
                stamps.add(metric.path("timestamp").asLong());
            }
            for (long stamp : stamps) {
                first = Math.min(first, stamp);
                last = Math.max(last, stamp);
            }
            points += stamps.size();
            Map<String, String> tags = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = metric.path("tags").fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> tag = it.next();
                tags.put(tag.getKey(), tag.getValue().asText());
            }
            if (!stamps.isEmpty()) {
                series.add(new WriteLedger.Series(metric.path("name").asText(), tags));
            }
        }
        return new Counted(points, first, last, series, null);
    }
}
