package org.dsload.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.session.Request;

@Timeout(30)
class RequestCounterTest {
    private static final Request INSERT = SimpleStatement.newInstance("INSERT INTO ks.t (k) VALUES (1)");

    /**
     * What the driver does with a reply: it completes the request's future, and only then, on the
     * same thread, tells its tracker; here a moment later, as when that thread is preempted.
     */
    private static CompletableFuture<Void> answer(RequestCounter counter, Request request, long trackerLagMillis) {
        CompletableFuture<Void> future = new CompletableFuture<>();
        Thread io = new Thread(() -> {
            future.complete(null);
            try {
                Thread.sleep(trackerLagMillis);
            } catch (InterruptedException e) {
                return;
            }
            counter.onNodeSuccess(request, 1, null, null, "s0|1");
            counter.onSuccess(request, 1, null, null, "s0|1");
        }, "driver-io");
        io.setDaemon(true);
        io.start();
        return future;
    }

    /** A sampler's blocking call: back when the future completes, then it tells the counter what it read. */
    private static void sample(CassandraClient client, CompletableFuture<Void> reply) {
        reply.join();
        client.replied(1);
    }

    @Test
    void theCountReadAtTestEndHoldsTheLastReplyTheDriverReportedAfterHandingItOver() {
        RequestCounter counter = new RequestCounter("ks");
        CassandraClient client = new CassandraClient(idleSession(), "test", Duration.ofSeconds(2), counter);
        AtomicReference<Map<String, Long>> lastReading = new AtomicReference<>();
        client.recordGauges(() -> lastReading.set(counter.snapshot())); // as the gauges' last poll reads it

        sample(client, answer(counter, INSERT, 0));
        sample(client, answer(counter, INSERT, 300));
        client.close(); // test end: every sample is in

        assertEquals(2L, lastReading.get().get(RequestCounter.WRITES), "both writes, the last reported late: "
                + lastReading.get());
    }

    @Test
    void theWaitIsBoundedWhenAReplyIsNeverReported() {
        RequestCounter counter = new RequestCounter("ks");
        counter.replied(1);
        long start = System.nanoTime();
        assertFalse(counter.awaitReported(Duration.ofMillis(100)));
        assertTrue(System.nanoTime() - start >= Duration.ofMillis(100).toNanos());
        assertEquals(1, counter.unreported());
    }

    @Test
    void nothingReadIsNothingToWaitFor() {
        RequestCounter counter = new RequestCounter("ks");
        counter.onNodeSuccess(INSERT, 1, null, null, "s0|1");
        counter.onSuccess(INSERT, 1, null, null, "s0|1");
        counter.replied(0);
        assertTrue(counter.awaitReported(Duration.ZERO));
        assertEquals(Map.of(RequestCounter.READS, 0L, RequestCounter.WRITES, 1L), counter.snapshot());
    }

    /** A session that is never asked anything but to close. */
    private static CqlSession idleSession() {
        return (CqlSession) Proxy.newProxyInstance(CqlSession.class.getClassLoader(), new Class<?>[] {CqlSession.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("close")) {
                        return null;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }
}
