package org.dsload.kairosdb;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;

import org.dsload.core.Outcome;
import org.dsload.http.HttpReply;

/**
 * One {@code POST /api/v1/datapoints/query}, its answer read in full. Sending and reading the
 * answer are apart: {@link #send} is the blocking call, {@link #answered} and {@link #failed} turn
 * what came back into the request's {@link Outcome}.
 */
final class QueryCall implements KairosDbRequest {
    private final KairosDbClient client;
    private final byte[] json;
    private final boolean emptyFails;
    private final int limit;
    /** Requests in flight: the answer, read on the client's thread, for the sampler's thread after the request ended. */
    private QueryAnswer answer;

    /**
     * @param emptyFails whether an answer without data points fails the request
     * @param limit      response text kept (characters)
     */
    QueryCall(KairosDbClient client, byte[] json, boolean emptyFails, int limit) {
        this.client = client;
        this.json = json;
        this.emptyFails = emptyFails;
        this.limit = limit;
    }

    byte[] json() {
        return json;
    }

    WriteLedger ledger() {
        return client.ledger();
    }

    String describe() {
        return "POST " + KairosDbPaths.QUERY + "\n" + new String(json, StandardCharsets.UTF_8);
    }

    KairosDbClient.Exchange<QueryAnswer> send() throws IOException {
        return client.post(KairosDbPaths.QUERY, json, false, QueryAnswer.reader(limit));
    }

    Outcome answered(KairosDbClient.Exchange<QueryAnswer> reply) {
        QueryAnswer answer = reply.body();
        String code = Integer.toString(reply.status());
        long sent = reply.sentBytes();
        long received = reply.receivedBytes();
        if (reply.status() != 200) {
            return Outcome.failed(code, "HTTP " + reply.status() + " " + reply.reason() + " from " + reply.node() + ": "
                    + answer.problem(), sent, received);
        }
        if (answer.problem() != null) {
            return Outcome.failed(code, answer.problem() + " (from " + reply.node() + ")", sent, received);
        }
        String figures = "sample_size " + answer.sampleSize() + ", results " + answer.results();
        if (answer.sampleSize() == 0 && emptyFails) {
            return Outcome.failed(KairosDbQuerySampler.NO_DATA, "no data points in the answer of " + reply.node() + " ("
                    + figures + "): nothing stored for these metrics, tags and range (Empty answer is a failure is on)",
                    sent, received);
        }
        return Outcome.ok(code, figures, sent, received);
    }

    /** The same judgement of an answer that came through the async client (requests in flight). */
    @Override
    public Outcome answered(URI node, HttpReply reply) {
        KairosDbClient.Exchange<QueryAnswer> exchange = exchange(node, reply);
        this.answer = exchange.body();
        return answered(exchange);
    }

    /** The answer read by {@link #answered(URI, HttpReply)}, or null before one came. */
    QueryAnswer answer() {
        return answer;
    }

    /** An answer of the async client as the blocking client gives it, its body read as a query's. */
    private KairosDbClient.Exchange<QueryAnswer> exchange(URI node, HttpReply reply) {
        QueryAnswer answer;
        try {
            answer = QueryAnswer.reader(limit).read(reply.status(), reply.contentType(),
                    new ByteArrayInputStream(reply.body()));
        } catch (IOException e) {
            throw new UncheckedIOException("reading bytes in memory", e);
        }
        return new KairosDbClient.Exchange<>(node, reply.status(), reply.reason(), answer, reply.wireSent(),
                reply.wireReceived());
    }

    @Override
    public Outcome failed(IOException e) {
        return Outcome.failed(KairosDbErrors.code(e), KairosDbErrors.message(e, client), 0, 0);
    }
}
