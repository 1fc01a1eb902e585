package org.dsload.redis;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

import org.dsload.core.Errors;
import org.dsload.core.Outcome;
import org.dsload.core.inflight.InFlightWindow;
import org.dsload.core.inflight.Replies;

import redis.clients.jedis.CommandArguments;

/**
 * dsload's Redis event loop ({@link RedisEventLoop}) run on a thread of its own, for a caller that
 * hands over commands and is called back with each reply: a window of YCSB operations, which
 * waits for callbacks, and whose operations may be chains of commands, each sent on the reply to
 * the one before. A connection carries one command at a time, so N commands outstanding keep N
 * connections busy, opened on demand with the Redis Connection's handshake; a cluster's commands
 * go to the node that owns their key's slot. A command ends with its reply, its connection's
 * failure, or at its deadline; callbacks run on the loop's thread.
 */
final class RedisCallbackLoop implements AutoCloseable {
    /** How long the loop sleeps at most with nothing outstanding (a hand-over wakes it at once). */
    private static final long IDLE_NANOS = 200_000_000L;
    private static final long CLOSE_WAIT_MILLIS = 5_000;

    /** A command on its way, and who waits for its reply. */
    private static final class Call {
        final CommandArguments command;
        final long deadlineNanos;
        final Consumer<RedisYcsbSteps.Reply> callback;
        RedisRequest request;
        boolean ended;

        Call(CommandArguments command, long deadlineNanos, Consumer<RedisYcsbSteps.Reply> callback) {
            this.command = command;
            this.deadlineNanos = deadlineNanos;
            this.callback = callback;
        }
    }

    private final RedisEventLoop loop;
    private final Thread thread;
    /** Commands handed over by other threads. */
    private final Queue<Call> handedOver = new ConcurrentLinkedQueue<>();
    /** Commands sent from callbacks, on the loop's thread: sent once the reply being read is done with. */
    private final ArrayDeque<Call> fromCallbacks = new ArrayDeque<>();
    private final Map<RedisRequest, Call> outstanding = new HashMap<>();
    /** Outstanding calls by deadline (at most as many as the caller keeps in flight). */
    private final PriorityQueue<Call> deadlines = new PriorityQueue<>(Comparator.comparingLong(c -> c.deadlineNanos));
    private final Replies<RedisRequest> replies = this::ended;
    private volatile boolean selecting;
    private volatile boolean closed;
    /** Why the loop's thread ended before it was closed, or null. */
    private volatile String broken;

    /**
     * @param name the thread's name, for thread dumps
     */
    RedisCallbackLoop(RedisClient client, String name) throws IOException {
        RedisEndpoint endpoint = client.endpoint();
        // outstanding commands, bounded by the caller's window, open the connections: no limit here
        this.loop = new RedisEventLoop(endpoint, Integer.MAX_VALUE, 1, false, 0, CommandPlan.compile("YCSB", "", "",
                null), endpoint.cluster() ? client.clusterSlots() : null);
        this.thread = new Thread(this::run, name);
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Sends a command, from any thread; {@code callback} gets its reply, on the loop's thread, once
     * (a failed reply when the command got none by {@code deadlineNanos}, or the loop is closed).
     */
    void send(CommandArguments command, long deadlineNanos, Consumer<RedisYcsbSteps.Reply> callback) {
        Call call = new Call(command, deadlineNanos, callback);
        if (Thread.currentThread() == thread) {
            fromCallbacks.addLast(call);
            return;
        }
        handedOver.add(call);
        if (closed) {
            failHandedOver();
        } else if (selecting) {
            loop.wakeup();
        }
    }

    private void run() {
        try {
            while (!closed) {
                long now = System.nanoTime();
                sendWaiting(now);
                expire(now);
                long until = deadlines.isEmpty() ? now + IDLE_NANOS : deadlines.peek().deadlineNanos;
                selecting = true;
                if (handedOver.isEmpty() && fromCallbacks.isEmpty()) {
                    loop.await(until, false, replies);
                }
                selecting = false;
            }
        } catch (RuntimeException | Error e) {
            // every operation outstanding or sent later fails with this message: the problem shows in the results
            broken = "the Redis event loop of this thread's operations in flight failed: " + Errors.describe(e);
        } finally {
            closed = true;
            String why = broken != null ? broken : "the thread's operations in flight ended before the reply";
            for (Call call : outstanding.values()) {
                call.ended = true;
                reply(call, Outcome.failed(InFlightWindow.CANCELLED, why, call.request.sentBytes(), 0), null);
            }
            outstanding.clear();
            Call next;
            while ((next = fromCallbacks.pollFirst()) != null) {
                reply(next, Outcome.failed(InFlightWindow.CANCELLED, why, 0, 0), null);
            }
            failHandedOver();
            loop.close();
        }
    }

    private void sendWaiting(long now) {
        Call call;
        while ((call = fromCallbacks.pollFirst()) != null || (call = handedOver.poll()) != null) {
            if (call.deadlineNanos - now <= 0) {
                reply(call, Outcome.failed(RedisErrors.TIMEOUT, "the operation's socket timeout passed before "
                        + "this command of it could be sent", 0, 0), null);
                continue;
            }
            RedisRequest request = new RedisRequest();
            request.command = call.command;
            request.keepValue = true;
            call.request = request;
            outstanding.put(request, call);
            deadlines.add(call);
            loop.send(request, now, replies);
        }
        loop.flush(replies);
    }

    /** Commands still outstanding at their deadline end there; their connections close. */
    private void expire(long now) {
        while (!deadlines.isEmpty() && deadlines.peek().deadlineNanos - now <= 0) {
            Call call = deadlines.poll();
            Outcome timedOut = loop.timedOut(call.request);
            loop.abandon(call.request);
            outstanding.remove(call.request);
            call.ended = true;
            reply(call, timedOut, null);
        }
    }

    private void ended(RedisRequest request, Outcome outcome, long endNanos, Object detail) {
        Call call = outstanding.remove(request);
        if (call == null || call.ended) {
            return;
        }
        call.ended = true;
        deadlines.remove(call); // at once: an ended call must not keep its reply until its deadline
        reply(call, outcome, request.value);
    }

    private static void reply(Call call, Outcome outcome, Object value) {
        call.callback.accept(RedisYcsbSteps.Reply.of(outcome, value));
    }

    private void failHandedOver() {
        Call call;
        while ((call = handedOver.poll()) != null) {
            String why = broken != null ? broken : "the thread's operations in flight had ended";
            reply(call, Outcome.failed(InFlightWindow.CANCELLED, why, 0, 0), null);
        }
    }

    /** Ends the loop: commands still outstanding are answered as cancelled, the connections close. */
    @Override
    public void close() {
        closed = true;
        loop.wakeup();
        if (Thread.currentThread() != thread) {
            try {
                thread.join(CLOSE_WAIT_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
