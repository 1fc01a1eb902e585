package org.dsload.kairosdb;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;

import org.dsload.core.Outcome;
import org.dsload.http.HttpReply;

/**
 * One {@code POST /api/v1/datapoints} of a batch. Sending and reading the answer are apart:
 * {@link #send} is the blocking call, {@link #answered} and {@link #failed} turn what came back
 * into the request's {@link Outcome}.
 */
final class WriteCall implements KairosDbRequest {
    private final KairosDbClient client;
    private final WriteBatch.Built batch;
    private final int limit;

    /** @param limit response text kept for a successful request (characters) */
    WriteCall(KairosDbClient client, WriteBatch.Built batch, int limit) {
        this.client = client;
        this.batch = batch;
        this.limit = limit;
    }

    /** Points the request carries: what its sample counts. */
    int points() {
        return batch.points();
    }

    long firstPoint() {
        return batch.firstPoint();
    }

    long lastPoint() {
        return batch.lastPoint();
    }

    KairosDbClient.Exchange<KairosDbReplies.Text> send() throws IOException {
        return client.post(KairosDbPaths.DATAPOINTS, batch.json(), true, KairosDbReplies.text(limit));
    }

    /**
     * KairosDB answers a stored batch with 204 (some versions 200). A batch without points is
     * acknowledged the same way and stores nothing: it is no write.
     */
    Outcome answered(KairosDbClient.Exchange<KairosDbReplies.Text> reply) {
        boolean accepted = reply.status() == 204 || reply.status() == 200;
        String status = Integer.toString(reply.status());
        if (accepted && batch.points() == 0) {
            return Outcome.failed(KairosDbWriteSampler.EMPTY, "the batch holds no data points: " + reply.node()
                    + " answered HTTP " + reply.status() + " and stored nothing", reply.sentBytes(), reply.receivedBytes());
        }
        if (accepted) {
            return Outcome.ok(status, batch.points() + " data points written", reply.sentBytes(), reply.receivedBytes());
        }
        return Outcome.failed(status, "HTTP " + reply.status() + " " + reply.reason() + " from " + reply.node() + ": "
                + KairosDbReplies.errors(reply.body().text()), reply.sentBytes(), reply.receivedBytes());
    }

    /** The same judgement of an answer that came through the async client (requests in flight). */
    @Override
    public Outcome answered(URI node, HttpReply reply) {
        KairosDbReplies.Text text;
        try {
            text = KairosDbReplies.read(new ByteArrayInputStream(reply.body()),
                    reply.status() >= 300 ? Math.max(limit, KairosDbReplies.ERROR_TEXT) : limit);
        } catch (IOException e) {
            throw new UncheckedIOException("reading bytes in memory", e);
        }
        return answered(new KairosDbClient.Exchange<>(node, reply.status(), reply.reason(), text, reply.wireSent(),
                reply.wireReceived()));
    }

    WriteLedger ledger() {
        return client.ledger();
    }

    WriteBatch.Built batch() {
        return batch;
    }

    @Override
    public Outcome failed(IOException e) {
        return Outcome.failed(KairosDbErrors.code(e), KairosDbErrors.message(e, client), 0, 0);
    }

    /** The request as the sample shows it: the first {@code shown} characters of its body. */
    String describe(int shown) {
        String json = new String(batch.json(), StandardCharsets.UTF_8);
        String body = shown <= 0 ? "" : json.length() > shown ? json.substring(0, shown) + " ... ("
                + json.length() + " characters)" : json;
        return "POST " + KairosDbPaths.DATAPOINTS + " (" + batch.points() + " data points"
                + (client.settings().gzip() ? ", gzip" : "") + ")\n" + body;
    }
}
