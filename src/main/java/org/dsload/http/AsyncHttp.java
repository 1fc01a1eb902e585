package org.dsload.http;

import java.io.IOException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.hc.client5.http.async.methods.SimpleHttpRequest;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.async.methods.SimpleRequestProducer;
import org.apache.hc.client5.http.async.methods.SimpleResponseConsumer;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManager;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.FormattedHeader;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.http.protocol.HttpCoreContext;
import org.apache.hc.core5.http2.HttpVersionPolicy;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.pool.PoolConcurrencyPolicy;
import org.apache.hc.core5.pool.PoolReusePolicy;
import org.apache.hc.core5.pool.PoolStats;
import org.apache.hc.core5.reactor.IOReactorConfig;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.dsload.core.ConnectionCounting;

/**
 * Apache HttpClient 5's async client as dsload's samplers with requests in flight use it: HTTP/1.1,
 * one pool shared by the threads of a connection element, no retries, no redirects, no cookies
 * (a load tool that retries hides the failures it should show), and the bytes of each request and
 * response as HTTP/1.1 puts them on the wire (request line or status line, headers, body).
 * Answers arrive on the client's I/O threads.
 */
public final class AsyncHttp implements AutoCloseable, ConnectionCounting {
    /** Context attributes: the request's and the response's head, in bytes. */
    private static final String SENT_HEAD = "dsload.sent.head";
    private static final String RECEIVED_HEAD = "dsload.received.head";
    private static final int CRLF = 2;

    private final PoolingAsyncClientConnectionManager pool;
    private final CloseableHttpAsyncClient client;
    private final Settings settings;

    /**
     * @param connectionsPerNode the pool's connections to one server at most
     * @param nodes              servers the pool serves (its total is connectionsPerNode x nodes)
     * @param keepAlive          false: every request on a connection of its own
     */
    public record Settings(int connectionsPerNode, int nodes, int connectTimeoutMillis, int responseTimeoutMillis,
            boolean keepAlive) {
    }

    public AsyncHttp(Settings settings) {
        this.settings = settings;
        this.pool = PoolingAsyncClientConnectionManagerBuilder.create()
                .setPoolConcurrencyPolicy(PoolConcurrencyPolicy.STRICT).setConnPoolPolicy(PoolReusePolicy.LIFO)
                .setMaxConnPerRoute(settings.connectionsPerNode())
                .setMaxConnTotal(settings.connectionsPerNode() * Math.max(1, settings.nodes()))
                .setValidateAfterInactivity(TimeValue.ofSeconds(2)).build();
        Timeout response = Timeout.ofMilliseconds(settings.responseTimeoutMillis());
        RequestConfig requests = RequestConfig.custom()
                .setConnectTimeout(Timeout.ofMilliseconds(settings.connectTimeoutMillis()))
                .setResponseTimeout(response)
                .setConnectionRequestTimeout(response)
                .build();
        var builder = HttpAsyncClients.custom().setConnectionManager(pool).setDefaultRequestConfig(requests)
                .setVersionPolicy(HttpVersionPolicy.FORCE_HTTP_1)
                .setIOReactorConfig(IOReactorConfig.custom().setIoThreadCount(1).setTcpNoDelay(true)
                        .setSoTimeout(response).build())
                .disableAutomaticRetries().disableRedirectHandling().disableCookieManagement().disableAuthCaching()
                .setUserAgent("dsload")
                // The HTTP/1.1 layer adds Host, Content-Length and more after the client's interceptors: the
                // request as it went out is the one in the context once the answer arrives.
                .addResponseInterceptorFirst((answer, entity, context) -> {
                    if (context.getAttribute(HttpCoreContext.HTTP_REQUEST) instanceof HttpRequest sent) {
                        context.setAttribute(SENT_HEAD, requestHead(sent));
                    }
                    context.setAttribute(RECEIVED_HEAD, responseHead(answer));
                });
        if (!settings.keepAlive()) {
            builder.setConnectionReuseStrategy((request, reply, context) -> false);
        }
        this.client = builder.build();
        client.start();
    }

    public Settings settings() {
        return settings;
    }

    /** Sends a request; the callback gets its response (body read in full) or failure on an I/O thread. */
    public Future<SimpleHttpResponse> execute(SimpleHttpRequest request, HttpClientContext context,
            FutureCallback<SimpleHttpResponse> callback) {
        return client.execute(SimpleRequestProducer.create(request), SimpleResponseConsumer.create(), null, context,
                callback);
    }

    /** Bytes of the request head as sent (0 before it was), from the context of its exchange. */
    static long sentHead(HttpContext context) {
        return context.getAttribute(SENT_HEAD) instanceof Long n ? n : 0;
    }

    static long receivedHead(HttpContext context) {
        return context.getAttribute(RECEIVED_HEAD) instanceof Long n ? n : 0;
    }

    private static long requestHead(HttpRequest request) {
        // "POST /write?db=x HTTP/1.1" CRLF, headers, CRLF
        long n = request.getMethod().length() + 1 + request.getRequestUri().length() + 1 + "HTTP/1.1".length() + CRLF;
        return n + headers(request.getHeaders()) + CRLF;
    }

    private static long responseHead(HttpResponse response) {
        String reason = response.getReasonPhrase();
        long n = "HTTP/1.1 200 ".length() + (reason == null ? 0 : reason.length()) + CRLF;
        return n + headers(response.getHeaders()) + CRLF;
    }

    private static long headers(Header[] headers) {
        long n = 0;
        for (Header h : headers) {
            if (h instanceof FormattedHeader parsed) {
                n += parsed.getBuffer().length() + CRLF; // the line as it came, without making its value a string
            } else {
                n += h.getName().length() + 2 + (h.getValue() == null ? 0 : h.getValue().length()) + CRLF;
            }
        }
        return n;
    }

    @Override
    public int openConnections() {
        PoolStats stats = pool.getTotalStats();
        return stats.getLeased() + stats.getAvailable();
    }

    /**
     * Waits, up to {@code timeoutMillis}, until no connection is leased: an exchange's answer is
     * delivered a moment before its connection goes back to the pool, and a request sent in that
     * moment would open a connection of its own. Returns whether the pool settled in time.
     */
    public boolean settle(long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (pool.getTotalStats().getLeased() > 0) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(1);
        }
        return true;
    }

    /**
     * Closes every connection: the I/O thread is asked to stop and given a moment to (closing its
     * selector under it at once makes HttpClient 5.1 log a ConcurrentModificationException), then
     * whatever is left is closed at once.
     */
    @Override
    public void close() throws IOException {
        client.initiateShutdown();
        try {
            client.awaitShutdown(TimeValue.ofSeconds(2));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        client.close(CloseMode.IMMEDIATE);
    }
}
