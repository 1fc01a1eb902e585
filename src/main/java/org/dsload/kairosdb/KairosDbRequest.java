package org.dsload.kairosdb;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.URI;

import org.dsload.core.Outcome;
import org.dsload.http.HttpPlace;
import org.dsload.http.HttpReply;
import org.dsload.http.HttpTransport;

/**
 * A KairosDB request kept in flight ({@link WriteCall}, {@link QueryCall}): it judges its own answer
 * or failure, as it does when sent one at a time, so both ways give the same outcomes.
 */
interface KairosDbRequest {

    Outcome answered(URI node, HttpReply reply);

    Outcome failed(IOException error);

    /** The answers of a transport whose requests carry a {@link KairosDbRequest} as their payload. */
    static HttpTransport.Answers answers() {
        return new HttpTransport.Answers() {
            @Override
            public Outcome answered(HttpPlace.Sent sent, HttpReply reply) {
                return ((KairosDbRequest) sent.payload()).answered(sent.node(), reply);
            }

            @Override
            public Outcome failed(HttpPlace.Sent sent, Exception error) {
                IOException io = error instanceof IOException e ? e : new IOException(error.toString(), error);
                return ((KairosDbRequest) sent.payload()).failed(new KairosDbClient.TransportException(sent.node(), io));
            }

            @Override
            public Outcome timedOut(HttpPlace.Sent sent, long timeoutMillis) {
                return failed(sent, new SocketTimeoutException("no response within " + timeoutMillis + " ms"));
            }
        };
    }
}
