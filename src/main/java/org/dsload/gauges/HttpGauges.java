package org.dsload.gauges;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

/**
 * The HTTP client of gauge sources that read a store's HTTP API (KairosDB, InfluxDB): a client of
 * its own (not the load's pool), short timeouts, basic authentication when a user is given. A
 * 401 or 403 is a refusal; no answer in time is an I/O error.
 */
public final class HttpGauges {
    private final HttpClient http;
    private final String authorization;
    private final Duration timeout;

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
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
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
