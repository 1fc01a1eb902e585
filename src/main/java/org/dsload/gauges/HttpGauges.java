package org.dsload.gauges;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The HTTP client of gauge sources that read a store's HTTP API (KairosDB, InfluxDB): a client of
 * its own (not the load's pool), short timeouts, basic authentication when a user is given. A
 * 401 or 403 is a refusal; no answer in time is an I/O error.
 */
public final class HttpGauges {
    private final HttpClient http;
    private final String authorization;
    private final Duration timeout;
    /** The time an answer's body may take beyond the request's timeout, which covers its head only. */
    static final long BODY_GRACE_MILLIS = 1000;

    public HttpGauges(String user, String password, Duration timeout) {
        this.http = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER).build();
        this.authorization = user == null || user.isEmpty() ? null : "Basic " + Base64.getEncoder()
                .encodeToString((user + ":" + (password == null ? "" : password)).getBytes(StandardCharsets.UTF_8));
        this.timeout = timeout;
    }

    /** GET, or POST of a JSON body when one is given; the answer's body when the status is 2xx. */
    public String call(URI uri, String jsonBody) throws GaugeSource.Refused, IOException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(timeout);
        if (jsonBody == null) {
            request.GET();
        } else {
            request.header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(jsonBody, StandardCharsets.UTF_8));
        }
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        HttpResponse<String> response;
        // the request's own timeout ends with the answer's head: a server stopped between its head and its body
        // (a KairosDB frozen while it answered) would hold this thread, and the recorder it polls for, for good
        CompletableFuture<HttpResponse<String>> answer = http.sendAsync(request.build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        long limitMillis = timeout.toMillis() + BODY_GRACE_MILLIS;
        try {
            response = answer.get(limitMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            answer.cancel(true);
            throw new HttpTimeoutException("no whole answer from " + uri.getPath() + " within " + limitMillis + " ms");
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        } catch (InterruptedException e) {
            answer.cancel(true);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        int status = response.statusCode();
        if (status == 401 || status == 403) {
            throw new GaugeSource.Refused("HTTP " + status + " from " + uri.getPath()
                    + (authorization == null ? ": the server asks for a login" : ": the login is refused"));
        }
        if (status == 404) {
            throw new GaugeSource.Refused("HTTP 404: this server has no " + uri.getPath());
        }
        if (status / 100 != 2) {
            throw new IOException("HTTP " + status + " from " + uri.getPath());
        }
        return response.body();
    }
}
