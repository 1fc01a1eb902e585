package org.dsload.influxdb;

import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.concurrent.TimeoutException;

import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.core5.http.ConnectionClosedException;
import org.dsload.core.Errors;
import org.dsload.core.Outcome;
import org.dsload.http.AsyncHttp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Response codes and messages of InfluxDB writes. An HTTP answer's code is its status; a request
 * that got none has JMeter's HTTP sampler's code, {@code Non HTTP response code: <exception>},
 * which the summary counts as status code 0, as vegeta does.
 */
final class InfluxDbErrors {
    static final String NON_HTTP = "Non HTTP response code: ";
    private static final String TIMEOUT_CODE = NON_HTTP + SocketTimeoutException.class.getName();
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private InfluxDbErrors() {
    }

    /**
     * What InfluxDB says in an error answer: the {@code error} of 1.x's {@code {"error":"..."}},
     * the {@code message} of 2.x's {@code {"code":"...","message":"..."}}, or the text itself.
     */
    static String serverSentence(String body) {
        String text = body == null ? "" : body.strip();
        if (text.startsWith("{")) {
            try {
                JsonNode json = MAPPER.readTree(text);
                for (String field : new String[] {"error", "message"}) {
                    if (json.path(field).isTextual()) {
                        return json.path(field).asText();
                    }
                }
            } catch (IOException e) {
                // not JSON after all: the text is shown
            }
        }
        String line = text.replaceAll("\\s+", " ");
        return line.length() > 300 ? line.substring(0, 300) + " ..." : line;
    }

    /** A refused write: its status as the code, and InfluxDB's own sentence. */
    static Outcome refused(int status, String reason, String server, String body, long sent, long received) {
        String why = serverSentence(body);
        String hint = switch (status) {
            case 401 -> " (check the connection's User and Password, or Token)";
            case 403 -> " (the login may not write to this database or bucket)";
            case 404 -> " (check the connection's Database, or Organization and Bucket, and API version)";
            default -> "";
        };
        return Outcome.failed(Integer.toString(status), "HTTP " + status + (reason == null ? "" : " " + reason)
                + " from " + server + ": " + (why.isEmpty() ? "(no body)" : why) + hint, sent, received);
    }

    /** No HTTP answer: the exception's class in JMeter's code, a sentence naming the server. */
    static Outcome transport(Exception error, String server, AsyncHttp.Settings settings) {
        Throwable cause = error;
        String text;
        if (error instanceof ConnectTimeoutException) {
            text = "no connection to " + server + " within the connect timeout of " + settings.connectTimeoutMillis() + " ms";
        } else if (Errors.rootCause(error) instanceof ConnectException refused) {
            // HttpClient's own subclass says no more than the JDK's, whose name users know
            cause = new ConnectException(refused.getMessage());
            text = "cannot connect to " + server + ": " + Errors.sentence(String.valueOf(cause.getMessage()))
                    + ". Is InfluxDB running there? (the thread pauses its sends up to 1 s after failed connections)";
        } else if (Errors.rootCause(error) instanceof UnknownHostException) {
            cause = Errors.rootCause(error);
            text = "unknown host in " + server;
        } else if (error instanceof SocketTimeoutException || error instanceof TimeoutException) {
            return timedOut(server, settings.responseTimeoutMillis());
        } else if (error instanceof ConnectionClosedException) {
            text = server + " closed the connection without answering";
        } else {
            text = server + ": " + Errors.describe(error);
        }
        return Outcome.failed(NON_HTTP + cause.getClass().getName(), text, 0, 0);
    }

    /** Whether a request that ended with this code was sent and got no answer within the response timeout. */
    static boolean timedOut(String code) {
        return TIMEOUT_CODE.equals(code);
    }

    static Outcome timedOut(String server, long timeoutMillis) {
        return Outcome.failed(TIMEOUT_CODE, "no response from " + server + " within the response timeout of "
                + timeoutMillis + " ms", 0, 0);
    }

    /**
     * What no retry cures: a refused login (401), a login without the right (403), a database,
     * bucket or endpoint that does not exist (404).
     */
    static boolean unrecoverable(Outcome failed) {
        String code = failed.code();
        return code.equals("401") || code.equals("403") || code.equals("404");
    }
}
