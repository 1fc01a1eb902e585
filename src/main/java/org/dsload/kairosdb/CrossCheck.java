package org.dsload.kairosdb;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.dsload.core.Errors;
import org.dsload.kairosdb.report.CapacityRecord.Check;

/**
 * Counts in KairosDB the points a connection's samplers reported written: for every metric
 * written, a count query over the tags and the time range written, summed. KairosDB acknowledges
 * a write before its queue has stored it, so the count is repeated each second until it equals
 * the reported figure, stops changing, or the wait is over.
 */
final class CrossCheck {
    /** Metrics per count query: one request per 25 keeps each small. */
    static final int METRICS_PER_QUERY = 25;
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final long POLL_MILLIS = 1000;
    /** How long the count asks again when no node answers at all (none listens, or none in time), within the wait. */
    private static final long DOWN_WAIT_NANOS = 5_000_000_000L;
    /**
     * How long a count query may take within the wait, unless the load's response timeout is
     * longer: a node that has just carried the load (or been frozen under it) may take seconds to
     * answer a query, and the load's timeout is set for writes, not for the count.
     */
    static final int COUNT_TIMEOUT_MILLIS = 10_000;
    /** Polls without change after which the count is taken as final. */
    private static final int STABLE_POLLS = 3;

    /** The counts, how long the check waited, what it concluded, and in a word how it went. */
    record Result(long reported, long found, long waitedMillis, String note, Check check) {
    }

    private CrossCheck() {
    }

    static Result run(KairosDbClient client, WriteLedger ledger, long waitMillis) {
        long reported = ledger.points();
        if (reported == 0) {
            return new Result(0, -1, 0, "no points were written", Check.SKIPPED);
        }
        if (ledger.tooManySeries()) {
            return new Result(reported, -1, 0, "not checked: more than " + WriteLedger.MAX_SERIES + " series written",
                    Check.SKIPPED);
        }
        long unanswered = ledger.unansweredPoints();
        List<byte[]> queries = queries(ledger);
        long started = System.nanoTime();
        long deadline = started + waitMillis * 1_000_000;
        long found = -1;
        int unchanged = 0;
        while (true) {
            long count;
            try {
                count = count(client, queries, countTimeoutMillis(client, deadline));
            } catch (KairosDbClient.TransportException e) {
                // no node answered: one that is back within a moment of the load's end is counted
                if (System.nanoTime() + POLL_MILLIS * 1_000_000 <= Math.min(deadline, started + DOWN_WAIT_NANOS)
                        && sleep()) {
                    continue;
                }
                long waited = elapsed(started);
                return new Result(reported, -1, waited, "no node answered the count "
                        + (waited < 1000 ? "" : "within " + Math.round(waited / 1000.0) + " s ") + "after the load: "
                        + Errors.sentence(e.getMessage()), Check.UNREACHABLE);
            } catch (IOException e) {
                return new Result(reported, -1, elapsed(started), "count query failed: " + Errors.sentence(e.getMessage()),
                        Check.FAILED);
            }
            unchanged = count == found ? unchanged + 1 : 0;
            found = count;
            boolean stable = unchanged >= STABLE_POLLS - 1;
            boolean last = System.nanoTime() + POLL_MILLIS * 1_000_000 > deadline;
            // with writes that got no answer the count may still grow as a node that was frozen stores them
            Result agreed = agreed(reported, unanswered, found, elapsed(started));
            if (agreed != null && (unanswered == 0 || stable || last)) {
                return agreed;
            }
            if (stable && found > 0) {
                return new Result(reported, found, elapsed(started), "count stable", Check.DIFFERS);
            }
            if (last) {
                return new Result(reported, found, elapsed(started), (unchanged > 0 ? "count unchanged"
                        : "count still changing") + " when the wait of " + waitMillis / 1000 + " s ended", Check.DIFFERS);
            }
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Result(reported, found, elapsed(started), "interrupted", Check.FAILED);
            }
        }
    }

    /**
     * The count agrees with the writes: exactly the points reported, or those and some of the
     * points whose writes got no answer (sent, then timed out: KairosDB may store them all the
     * same); null when it does not.
     */
    static Result agreed(long reported, long unanswered, long found, long waitedMillis) {
        if (found == reported) {
            return new Result(reported, found, waitedMillis, "match", Check.MATCH);
        }
        if (found > reported && found <= reported + unanswered) {
            return new Result(reported, found, waitedMillis, String.format(Locale.ROOT, "%d of the %d points whose writes "
                    + "got no answer were stored as well", found - reported, unanswered), Check.WITHIN);
        }
        return null;
    }

    /** Waits a poll; false when interrupted. */
    private static boolean sleep() {
        try {
            Thread.sleep(POLL_MILLIS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static long elapsed(long started) {
        return (System.nanoTime() - started) / 1_000_000;
    }

    /**
     * Count queries for the series written: per metric name, the tag names every series of that
     * name has, with every value written (a tag only some series carry would exclude the others).
     */
    static List<byte[]> queries(WriteLedger ledger) {
        Map<String, List<Map<String, String>>> byName = new TreeMap<>();
        for (WriteLedger.Series s : ledger.series()) {
            byName.computeIfAbsent(s.name(), k -> new ArrayList<>()).add(s.tags());
        }
        List<byte[]> queries = new ArrayList<>();
        ObjectNode query = null;
        for (Map.Entry<String, List<Map<String, String>>> metric : byName.entrySet()) {
            if (query == null || query.withArray("metrics").size() == METRICS_PER_QUERY) {
                if (query != null) {
                    queries.add(bytes(query));
                }
                query = MAPPER.createObjectNode();
                query.put("start_absolute", ledger.countFrom());
                query.put("end_absolute", ledger.countTo());
                query.putArray("metrics");
            }
            ObjectNode entry = query.withArray("metrics").addObject();
            entry.put("name", metric.getKey());
            ObjectNode tags = entry.putObject("tags");
            for (Map.Entry<String, Set<String>> tag : commonTags(metric.getValue()).entrySet()) {
                ArrayNode values = tags.putArray(tag.getKey());
                tag.getValue().forEach(values::add);
            }
            ObjectNode count = entry.putArray("aggregators").addObject();
            count.put("name", "count");
            count.putObject("sampling").put("value", 100).put("unit", "years");
        }
        if (query != null) {
            queries.add(bytes(query));
        }
        return queries;
    }

    private static Map<String, Set<String>> commonTags(List<Map<String, String>> series) {
        Set<String> common = new HashSet<>(series.get(0).keySet());
        series.forEach(tags -> common.retainAll(tags.keySet()));
        Map<String, Set<String>> values = new LinkedHashMap<>();
        for (String name : new TreeSet<>(common)) {
            Set<String> set = new TreeSet<>();
            series.forEach(tags -> set.add(tags.get(name)));
            values.put(name, set);
        }
        return values;
    }

    private static byte[] bytes(ObjectNode query) {
        return query.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The count from the first node that answers: a node that is down during the load must not
     * keep the others from counting what they stored.
     */
    private static KairosDbClient.Exchange<KairosDbReplies.Text> anyNode(KairosDbClient client, byte[] query,
            int timeoutMillis) throws IOException {
        for (int tries = 1;; tries++) {
            try {
                return client.post(KairosDbPaths.QUERY, query, KairosDbReplies.text(Integer.MAX_VALUE), timeoutMillis);
            } catch (KairosDbClient.TransportException e) {
                if (tries >= client.nodes().size()) {
                    throw e;
                }
            }
        }
    }

    /**
     * A count query's timeout: {@value #COUNT_TIMEOUT_MILLIS} ms, or what is left of the wait when
     * less (a short Cross-check wait stays short), and never less than the load's response timeout.
     */
    static int countTimeoutMillis(int responseTimeoutMillis, long leftMillis) {
        return (int) Math.max(responseTimeoutMillis, Math.min(COUNT_TIMEOUT_MILLIS, leftMillis));
    }

    private static int countTimeoutMillis(KairosDbClient client, long deadlineNanos) {
        long leftMillis = (deadlineNanos - System.nanoTime()) / 1_000_000;
        return countTimeoutMillis(client.settings().responseTimeoutMillis(), leftMillis);
    }

    private static long count(KairosDbClient client, List<byte[]> queries, int timeoutMillis) throws IOException {
        long total = 0;
        for (byte[] query : queries) {
            KairosDbClient.Exchange<KairosDbReplies.Text> reply = anyNode(client, query, timeoutMillis);
            String body = reply.body().text();
            if (reply.status() != 200) {
                throw new IOException("HTTP " + reply.status() + " from " + reply.node() + ": " + KairosDbReplies.errors(body));
            }
            JsonNode answers = MAPPER.readTree(body).path("queries");
            if (!answers.isArray()) {
                throw new IOException("an answer without queries from " + reply.node());
            }
            for (JsonNode answer : answers) {
                total += answer.path("sample_size").asLong();
            }
        }
        return total;
    }
}
