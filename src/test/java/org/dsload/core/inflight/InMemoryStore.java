package org.dsload.core.inflight;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

import org.dsload.core.Outcome;

/**
 * A store in memory that answers on a thread of its own, like a driver with callbacks: each
 * request is answered after the delay its number asks for ({@code answers}), or never (a
 * negative delay). It counts what it was sent and how many requests it held at once.
 */
class InMemoryStore extends CallbackTransport<InMemoryStore.Request> implements AutoCloseable {
    static final Outcome OK = Outcome.ok("OK", "OK", 10, 20);

    /** What the store answers request number n: after how many ms (negative: never), and with what. */
    record Answer(long delayMillis, Outcome outcome) {
    }

    static final class Request extends InFlightRequest {
        int number;
    }

    private final ScheduledExecutorService server = Executors.newSingleThreadScheduledExecutor();
    private final IntFunction<Answer> answers;
    private final long timeoutNanos;
    final AtomicInteger sent = new AtomicInteger();
    final AtomicInteger held = new AtomicInteger();
    final AtomicInteger mostHeld = new AtomicInteger();
    final AtomicInteger answered = new AtomicInteger();
    volatile long readyAtNanos = Long.MIN_VALUE;
    final AtomicInteger readyChecks = new AtomicInteger();

    InMemoryStore(long timeoutMillis, IntFunction<Answer> answers) {
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        this.answers = answers;
    }

    @Override
    public Request newRequest() {
        return new Request();
    }

    @Override
    public long readyAt(long nowNanos) {
        readyChecks.incrementAndGet();
        long ready = readyAtNanos;
        return ready == Long.MIN_VALUE || ready - nowNanos <= 0 ? nowNanos : ready;
    }

    @Override
    protected void start(Request request, Callback<Request> callback) {
        Answer answer = answers.apply(request.number);
        sent.incrementAndGet();
        mostHeld.accumulateAndGet(held.incrementAndGet(), Math::max);
        request.sentBytes(answer.outcome().sentBytes());
        if (answer.delayMillis() < 0) {
            return;
        }
        server.schedule(() -> {
            held.decrementAndGet();
            answered.incrementAndGet();
            callback.complete(answer.outcome(), "reply to " + request.number);
        }, answer.delayMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public Outcome timedOut(Request request) {
        return Outcome.failed("TIMEOUT", "no reply", request.sentBytes(), 0);
    }

    @Override
    public long timeoutNanos() {
        return timeoutNanos;
    }

    @Override
    public void close() {
        server.shutdownNow();
    }
}
