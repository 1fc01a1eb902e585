package org.dsload.influxdb;

import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hc.client5.http.async.methods.SimpleHttpRequest;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.HttpHeaders;
import org.apache.hc.core5.http.HttpHost;
import org.dsload.core.ConnectionCounting;
import org.dsload.core.Errors;
import org.dsload.http.AsyncHttp;
import org.dsload.http.Gzip;

/**
 * The shared client of a dsload InfluxDB Connection: Apache HttpClient 5's async client over one
 * or more InfluxDB servers, taken in turn, and the write endpoint of each: {@code /write?db=} of
 * the 1.x API or {@code /api/v2/write?org=&bucket=} of the 2.x API, with the precision.
 */
public final class InfluxDbClient implements AutoCloseable, ConnectionCounting {
    private static final ContentType LINE_PROTOCOL = ContentType.create("text/plain", "UTF-8");
    /** Rounds of pings at most that open the connections asked for at start. */
    private static final int OPENING_ROUNDS = 8;

    private final List<Target> targets;
    private final AsyncHttp http;
    private final String authorization;
    private final boolean gzip;
    private final String describe;
    private final AtomicLong turn = new AtomicLong();
    /** The server gauges recorded while the client is open, and the count of its writes for them; null without. */
    private AutoCloseable gauges;
    private volatile WriteCounter gaugeWrites;

    /** One server and its write endpoint; host and path apart, so that a request costs no URI parsing. */
    public record Target(URI base, URI write, URL url, HttpHost host, String path) {
        static Target of(URI base, String writePath) {
            URI write = base.resolve(writePath);
            try {
                return new Target(base, write, write.toURL(), HttpHost.create(write),
                        write.getRawPath() + (write.getRawQuery() == null ? "" : "?" + write.getRawQuery()));
            } catch (MalformedURLException e) {
                throw new IllegalArgumentException("not a URL: " + write, e);
            }
        }
    }

    /**
     * @param writePath     the write endpoint below each base URL, with its query ({@code write?db=test})
     * @param authorization the Authorization header's value, or null
     * @param describe      the settings for messages (no secret in it)
     */
    InfluxDbClient(List<URI> bases, String writePath, String authorization, boolean gzip, AsyncHttp.Settings settings,
            String describe) {
        this.targets = bases.stream().map(b -> Target.of(b, writePath)).toList();
        this.authorization = authorization;
        this.gzip = gzip;
        this.describe = describe;
        this.http = new AsyncHttp(settings);
    }

    public AsyncHttp http() {
        return http;
    }

    public List<Target> targets() {
        return targets;
    }

    /** The connection's settings for messages: API, servers, timeouts. */
    public String describe() {
        return describe;
    }

    public boolean gzip() {
        return gzip;
    }

    /** The next server's endpoint (round robin). */
    Target next() {
        return targets.size() == 1 ? targets.get(0)
                : targets.get((int) Math.floorMod(turn.getAndIncrement(), (long) targets.size()));
    }

    /** A write of line protocol to a server: the body as given, or gzipped when the connection says so. */
    SimpleHttpRequest write(Target target, byte[] lineProtocol) {
        SimpleHttpRequest post = new SimpleHttpRequest("POST", target.host(), target.path());
        if (authorization != null) {
            post.setHeader(HttpHeaders.AUTHORIZATION, authorization);
        }
        if (gzip) {
            post.setHeader(HttpHeaders.CONTENT_ENCODING, "gzip");
            post.setBody(Gzip.of(lineProtocol), LINE_PROTOCOL);
        } else {
            post.setBody(lineProtocol, LINE_PROTOCOL);
        }
        return post;
    }

    /**
     * GETs of /ping on every server, {@code connections} at once, each of which must answer 204
     * within the timeouts, or the reason is thrown. HTTP/1.1 gives each request outstanding a
     * connection of its own, so the pool holds up to that many connections to the server
     * afterwards, ready for the first writes (a ping is not a write: InfluxDB counts it apart). A
     * ping answered before the last of its round is sent lends its connection to that one, so
     * rounds follow until the pool holds them, {@value #OPENING_ROUNDS} at most. The first round
     * always runs, so that it is the start check too; each round waits for the connections of the
     * one before to be back in the pool, so that none is opened beside one not yet returned.
     */
    void open(int connections, long timeoutMillis) throws IOException {
        int wanted = Math.min(connections, http.settings().connectionsPerNode()) * targets.size();
        for (int round = 0; round < OPENING_ROUNDS && (round == 0 || http.openConnections() < wanted); round++) {
            try {
                http.settle(timeoutMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while opening connections to InfluxDB", e);
            }
            ping(connections, timeoutMillis);
        }
    }

    private void ping(int concurrent, long timeoutMillis) throws IOException {
        for (Target target : targets) {
            List<Future<SimpleHttpResponse>> pings = new ArrayList<>(concurrent);
            for (int i = 0; i < concurrent; i++) {
                SimpleHttpRequest ping = SimpleHttpRequest.create("GET", target.base().resolve("ping"));
                if (authorization != null) {
                    ping.setHeader(HttpHeaders.AUTHORIZATION, authorization);
                }
                pings.add(http.execute(ping, HttpClientContext.create(), null));
            }
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
            try {
                for (Future<SimpleHttpResponse> ping : pings) {
                    answered(target, ping, deadline, timeoutMillis);
                }
            } finally {
                // only those left unanswered: cancelling an answered exchange can close its connection
                pings.stream().filter(ping -> !ping.isDone()).forEach(ping -> ping.cancel(true));
            }
        }
    }

    private static void answered(Target target, Future<SimpleHttpResponse> ping, long deadlineNanos,
            long timeoutMillis) throws IOException {
        SimpleHttpResponse answer;
        try {
            answer = ping.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw new IOException(target.base() + ": " + Errors.describe(e.getCause()), e.getCause());
        } catch (TimeoutException e) {
            throw new IOException("no answer from " + target.base() + "ping within " + timeoutMillis + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        if (answer.getCode() != 204) {
            throw new IOException(target.base() + "ping answered HTTP " + answer.getCode() + ", not 204: is this "
                    + "InfluxDB? " + InfluxDbErrors.serverSentence(answer.getBodyText()));
        }
    }

    @Override
    public int openConnections() {
        return http.openConnections();
    }

    void recordGauges(AutoCloseable lease, WriteCounter writes) {
        this.gauges = lease;
        this.gaugeWrites = writes;
    }

    /** Where the samplers count this client's writes for its server gauges' cross-check; null when none are recorded. */
    WriteCounter gaugeWrites() {
        return gaugeWrites;
    }

    /** The gauges are read a last time first: after the load, before the client goes. */
    @Override
    public void close() throws IOException {
        if (gauges != null) {
            try {
                gauges.close();
            } catch (Exception e) {
                // the gauges are a side figure: closing the client matters more
            }
            gauges = null;
        }
        http.close();
    }
}
