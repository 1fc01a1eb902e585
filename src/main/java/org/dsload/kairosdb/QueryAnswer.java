package org.dsload.kairosdb;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A query's answer read in full: KairosDB's {@code queries[].sample_size} summed (points
 * returned), the results (series) counted, and the text to show; or why it could not be read.
 */
record QueryAnswer(long sampleSize, int results, int queries, String text, boolean truncated, String problem) {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    static KairosDbClient.BodyReader<QueryAnswer> reader(int limit) {
        return (status, contentType, body) -> read(status, body, limit);
    }

    private static QueryAnswer read(int status, InputStream body, int limit) throws IOException {
        byte[] bytes = body.readAllBytes();
        String text = new String(bytes, StandardCharsets.UTF_8);
        int shown = status == 200 ? limit : Math.max(limit, KairosDbReplies.ERROR_TEXT);
        boolean truncated = text.length() > shown;
        String kept = truncated ? text.substring(0, shown) : text;
        if (status != 200) {
            return new QueryAnswer(0, 0, 0, kept, truncated, KairosDbReplies.errors(text));
        }
        JsonNode root;
        try {
            root = MAPPER.readTree(bytes);
        } catch (IOException e) {
            return new QueryAnswer(0, 0, 0, kept, truncated, "malformed answer, not JSON: " + e.getMessage().lines()
                    .findFirst().orElse(""));
        }
        JsonNode queries = root == null ? null : root.path("queries");
        if (queries == null || !queries.isArray()) {
            return new QueryAnswer(0, 0, 0, kept, truncated, "malformed answer: no \"queries\" array");
        }
        long points = 0;
        int results = 0;
        for (JsonNode query : queries) {
            if (!query.path("sample_size").canConvertToLong()) {
                return new QueryAnswer(0, 0, 0, kept, truncated, "malformed answer: a query without sample_size");
            }
            points += query.path("sample_size").asLong();
            results += query.path("results").size();
        }
        return new QueryAnswer(points, results, queries.size(), kept, truncated, null);
    }
}
