package org.dsload.kairosdb;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hc.client5.http.async.methods.SimpleHttpRequest;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpHeaders;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.pool.PoolConcurrencyPolicy;
import org.apache.hc.core5.pool.PoolReusePolicy;
import org.apache.hc.core5.pool.PoolStats;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.dsload.core.ConnectionCounting;
import org.dsload.http.AsyncHttp;
import org.dsload.http.Gzip;

/**
 * The shared HTTP client of a KairosDB Connection: one Apache HttpClient 5 with a connection pool
 * over one or more KairosDB nodes, taken in turn (round robin). It never retries or follows
 * redirects (a load tool that retries hides the failures it should show), and it counts the
 * bytes each request moved on its connection, headers and compression included.
 */
public final class KairosDbClient implements AutoCloseable, ConnectionCounting {
    private static final ContentType JSON = ContentType.APPLICATION_JSON;

    private final List<URI> nodes;
    private final ClientSettings settings;
    private final String authorization;
    private final PoolingHttpClientConnectionManager pool;
    private final CloseableHttpClient http;
    /** The timeouts of every request but those given a response timeout of their own. */
    private final RequestConfig requests;
    private final AtomicLong turn = new AtomicLong();
    private final WriteLedger ledger = new WriteLedger();
    /** The async client of samplers with requests in flight, made at the first such sample. */
    private AsyncHttp async;

    /** The settings of a client, all checked by the connection element. */
    public record ClientSettings(int maxConnectionsPerNode, boolean keepAlive, boolean gzip, int connectTimeoutMillis,
            int responseTimeoutMillis, int poolTimeoutMillis) {
        /** The pool and timeouts, for messages: "Max connections per node 2, response timeout 30000 ms". */
        String describe() {
            return "Max connections per node " + maxConnectionsPerNode + ", connect timeout " + connectTimeoutMillis
                    + " ms, response timeout " + responseTimeoutMillis + " ms, pool timeout " + poolTimeoutMillis + " ms";
        }
    }

    /** Reads a response body while the connection is still this request's. */
    @FunctionalInterface
    public interface BodyReader<T> {
        T read(int status, String contentType, InputStream body) throws IOException;
    }

    /** One request's outcome: which node answered, the status, what the reader made of the body, bytes moved. */
    public record Exchange<T>(URI node, int status, String reason, T body, long sentBytes, long receivedBytes) {
    }

    /** A request that failed on the way (no connection, no answer within the timeout ...), with the node it went to. */
    public static final class TransportException extends IOException {
        private static final long serialVersionUID = 1L;
        private final transient URI node;

        TransportException(URI node, IOException cause) {
            super(cause.getMessage(), cause);
            this.node = node;
        }

        public URI node() {
            return node;
        }
    }

    KairosDbClient(List<URI> nodes, ClientSettings settings, String user, String password) {
        this.nodes = List.copyOf(nodes);
        this.settings = settings;
        this.authorization = user.isEmpty() ? null : "Basic " + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        Timeout response = Timeout.ofMilliseconds(settings.responseTimeoutMillis());
        this.pool = new PoolingHttpClientConnectionManager(WireBytes.socketFactories(), PoolConcurrencyPolicy.STRICT,
                PoolReusePolicy.LIFO, TimeValue.NEG_ONE_MILLISECOND);
        pool.setDefaultMaxPerRoute(settings.maxConnectionsPerNode());
        pool.setMaxTotal(settings.maxConnectionsPerNode() * this.nodes.size());
        pool.setDefaultSocketConfig(SocketConfig.custom().setSoTimeout(response).setTcpNoDelay(true).build());
        // A connection the server closed while idle in the pool is found before use, not by a failed request.
        pool.setValidateAfterInactivity(TimeValue.ofSeconds(2));
        this.requests = RequestConfig.custom()
                .setConnectTimeout(Timeout.ofMilliseconds(settings.connectTimeoutMillis()))
                .setResponseTimeout(response)
                .setConnectionRequestTimeout(Timeout.ofMilliseconds(settings.poolTimeoutMillis()))
                .build();
        var builder = HttpClients.custom().setConnectionManager(pool).setDefaultRequestConfig(requests)
                .disableAutomaticRetries().disableRedirectHandling().disableCookieManagement().disableAuthCaching()
                .setUserAgent("dsload");
        if (!settings.keepAlive()) {
            builder.setConnectionReuseStrategy((request, reply, context) -> false);
        }
        this.http = builder.build();
    }

    public List<URI> nodes() {
        return nodes;
    }

    public ClientSettings settings() {
        return settings;
    }

    /** What this client wrote and queried in the current test, for the cross-check at its end. */
    public WriteLedger ledger() {
        return ledger;
    }

    /** POST of a JSON body to the next node; the body is gzipped when the connection says so and {@code compressible}. */
    public <T> Exchange<T> post(String path, byte[] json, boolean compressible, BodyReader<T> reader) throws IOException {
        URI node = next();
        return execute(node, post(node, path, json, compressible), reader);
    }

    /**
     * As {@link #post(String, byte[], boolean, BodyReader)}, waiting up to {@code responseTimeoutMillis}
     * for the answer rather than the connection's response timeout: for a request that is not load,
     * such as the count at test end, which a busy node may take longer to answer than a write.
     */
    <T> Exchange<T> post(String path, byte[] json, BodyReader<T> reader, int responseTimeoutMillis) throws IOException {
        URI node = next();
        HttpPost post = post(node, path, json, false);
        post.setConfig(RequestConfig.copy(requests).setResponseTimeout(Timeout.ofMilliseconds(responseTimeoutMillis))
                .build());
        return execute(node, post, reader);
    }

    private HttpPost post(URI node, String path, byte[] json, boolean compressible) {
        HttpPost post = new HttpPost(node.resolve(path));
        if (compressible && settings.gzip()) {
            post.setEntity(new ByteArrayEntity(Gzip.of(json), JSON, "gzip"));
        } else {
            post.setEntity(new ByteArrayEntity(json, JSON));
        }
        return post;
    }

    public <T> Exchange<T> get(String path, BodyReader<T> reader) throws IOException {
        URI node = next();
        return execute(node, new HttpGet(node.resolve(path)), reader);
    }

    /** The same GET to every node in turn, for the check at test start. */
    public <T> Exchange<T> get(URI node, String path, BodyReader<T> reader) throws IOException {
        return execute(node, new HttpGet(node.resolve(path)), reader);
    }

    /** The async client for requests in flight, over the same nodes with the same limits and timeouts. */
    synchronized AsyncHttp async() {
        if (async == null) {
            async = new AsyncHttp(new AsyncHttp.Settings(settings.maxConnectionsPerNode(), nodes.size(),
                    settings.connectTimeoutMillis(), settings.responseTimeoutMillis(), settings.keepAlive()));
        }
        return async;
    }

    /** A POST of a JSON body for the async client, with this client's headers; gzipped as {@link #post} does. */
    SimpleHttpRequest request(URI node, String path, byte[] json, boolean compressible) {
        SimpleHttpRequest post = SimpleHttpRequest.create("POST", node.resolve(path));
        if (authorization != null) {
            post.setHeader(HttpHeaders.AUTHORIZATION, authorization);
        }
        if (!settings.keepAlive()) {
            post.setHeader(HttpHeaders.CONNECTION, "close");
        }
        if (compressible && settings.gzip()) {
            post.setHeader(HttpHeaders.CONTENT_ENCODING, "gzip");
            post.setBody(Gzip.of(json), JSON);
        } else {
            post.setBody(json, JSON);
        }
        return post;
    }

    /** The next node (round robin). */
    URI next() {
        return nodes.size() == 1 ? nodes.get(0) : nodes.get((int) Math.floorMod(turn.getAndIncrement(), (long) nodes.size()));
    }

    private <T> Exchange<T> execute(URI node, HttpUriRequestBase request, BodyReader<T> reader)
            throws IOException {
        if (authorization != null) {
            request.setHeader(HttpHeaders.AUTHORIZATION, authorization);
        }
        if (!settings.keepAlive()) {
            request.setHeader(HttpHeaders.CONNECTION, "close");
        }
        WireBytes.reset();
        try {
            return http.execute(request, response -> exchange(node, response, reader));
        } catch (IOException e) {
            throw new TransportException(node, e);
        }
    }

    private <T> Exchange<T> exchange(URI node, ClassicHttpResponse response, BodyReader<T> reader) throws IOException {
        HttpEntity entity = response.getEntity();
        T body;
        if (entity == null) {
            body = reader.read(response.getCode(), "", InputStream.nullInputStream());
        } else {
            try (InputStream in = entity.getContent()) {
                body = reader.read(response.getCode(), entity.getContentType() == null ? "" : entity.getContentType(), in);
                in.transferTo(java.io.OutputStream.nullOutputStream());
            }
        }
        return new Exchange<>(node, response.getCode(), response.getReasonPhrase(), body, WireBytes.sent(),
                WireBytes.received());
    }

    @Override
    public int openConnections() {
        PoolStats stats = pool.getTotalStats();
        AsyncHttp inFlight;
        synchronized (this) {
            inFlight = async;
        }
        return stats.getLeased() + stats.getAvailable() + (inFlight == null ? 0 : inFlight.openConnections());
    }

    /** Connections now in use by a request, for tests and messages. */
    public int leasedConnections() {
        return pool.getTotalStats().getLeased();
    }

    /** Requests waiting for a connection of the pool. */
    public int pendingRequests() {
        return pool.getTotalStats().getPending();
    }

    @Override
    public void close() throws IOException {
        AsyncHttp inFlight;
        synchronized (this) {
            inFlight = async;
            async = null;
        }
        try {
            http.close();
        } finally {
            if (inFlight != null) {
                inFlight.close();
            }
        }
    }
}
