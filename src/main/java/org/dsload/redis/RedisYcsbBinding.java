package org.dsload.redis;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.dsload.core.Errors;
import org.dsload.core.Outcome;
import org.dsload.core.Unreachable;
import org.dsload.ycsb.AsyncYcsbBinding;
import org.dsload.ycsb.YcsbBinding;

import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * YCSB on a Redis-protocol store, in the layout of YCSB's redis binding, so that data loaded by
 * either can be run by the other: each record is a hash under its key (HMSET key field0 v0 ...),
 * and a sorted set {@value RedisYcsbSteps#INDEX} holds every key, scored by the Java hash code of
 * the key, for scans (ZRANGEBYSCORE from the start key's score, then each record read). An
 * operation's commands go one after another, as that binding sends them ({@link RedisYcsbSteps}):
 * through the connection element's shared client, waiting for each, or, with operations in
 * flight, through this thread's own event loop ({@link RedisCallbackLoop}), where each command is
 * sent on the reply to the one before and the operation ends at the socket timeout from its start.
 * A cluster routes each command by its key.
 */
public final class RedisYcsbBinding implements AsyncYcsbBinding {
    /** How long past the socket timeout an operation in flight may stay before the window gives it up itself. */
    private static final long BACKSTOP_MARGIN_NANOS = 5_000_000_000L;

    private final RedisClient client;
    private final String[] fieldNames;
    /** This thread's event loop for operations in flight, made at the first one. */
    private RedisCallbackLoop loop;

    public RedisYcsbBinding(RedisClient client, int fieldCount) {
        this.client = client;
        this.fieldNames = new String[fieldCount];
        for (int i = 0; i < fieldCount; i++) {
            fieldNames[i] = "field" + i;
        }
    }

    public RedisClient client() {
        return client;
    }

    @Override
    public Outcome read(String key, int field) {
        return call(new RedisYcsbSteps.Read(fieldNames, key, field));
    }

    @Override
    public Outcome scan(String startKey, int count, int field) {
        return call(new RedisYcsbSteps.Scan(fieldNames, startKey, count, field));
    }

    @Override
    public Outcome update(String key, int field, String[] values) {
        return call(new RedisYcsbSteps.Update(fieldNames, key, field, values));
    }

    @Override
    public Outcome insert(String key, String[] values) {
        return call(new RedisYcsbSteps.Insert(fieldNames, key, values));
    }

    @Override
    public Outcome delete(String key) {
        return call(new RedisYcsbSteps.Delete(key));
    }

    /** Runs the operation's commands one after another through the shared client. */
    private Outcome call(RedisYcsbSteps steps) {
        CommandArguments command = steps.first();
        while (command != null) {
            command = steps.step(send(command));
        }
        return steps.outcome();
    }

    private RedisYcsbSteps.Reply send(CommandArguments command) {
        long sent = Resp.commandSize(command);
        try {
            Object value = client.execute(command);
            return new RedisYcsbSteps.Reply(value, null, null, sent, Resp.replySize(value));
        } catch (RuntimeException e) {
            return new RedisYcsbSteps.Reply(null, RedisErrors.code(e), RedisErrors.message(e, client), sent,
                    e instanceof JedisDataException ? Resp.errorSize(e) : 0);
        }
    }

    @Override
    public CompletionStage<Outcome> readAsync(String key, int field) {
        return inFlight(new RedisYcsbSteps.Read(fieldNames, key, field));
    }

    @Override
    public CompletionStage<Outcome> scanAsync(String startKey, int count, int field) {
        return inFlight(new RedisYcsbSteps.Scan(fieldNames, startKey, count, field));
    }

    @Override
    public CompletionStage<Outcome> updateAsync(String key, int field, String[] values) {
        return inFlight(new RedisYcsbSteps.Update(fieldNames, key, field, values));
    }

    @Override
    public CompletionStage<Outcome> insertAsync(String key, String[] values) {
        return inFlight(new RedisYcsbSteps.Insert(fieldNames, key, values));
    }

    /** Sends the operation's first command through this thread's event loop, and each next one on the reply before. */
    private CompletionStage<Outcome> inFlight(RedisYcsbSteps steps) {
        CompletableFuture<Outcome> ended = new CompletableFuture<>();
        RedisCallbackLoop thisThreads;
        try {
            thisThreads = loop();
        } catch (IOException e) {
            ended.complete(Outcome.failed(e.getClass().getSimpleName(), "cannot open a selector for this thread's "
                    + "Redis connections: " + Errors.describe(e), 0, 0));
            return ended;
        }
        long deadline = System.nanoTime() + client.socketTimeoutMillis() * 1_000_000L;
        sendStep(thisThreads, steps, steps.first(), deadline, ended);
        return ended;
    }

    private void sendStep(RedisCallbackLoop thisThreads, RedisYcsbSteps steps, CommandArguments command, long deadline,
            CompletableFuture<Outcome> ended) {
        client.countSent(command, 1);
        thisThreads.send(command, deadline, reply -> {
            CommandArguments next = steps.step(reply);
            if (next == null) {
                ended.complete(steps.outcome());
            } else {
                sendStep(thisThreads, steps, next, deadline, ended);
            }
        });
    }

    private RedisCallbackLoop loop() throws IOException {
        if (loop == null) {
            loop = new RedisCallbackLoop(client, "dsload redis ycsb " + Thread.currentThread().getName());
        }
        return loop;
    }

    /** Requests in flight go over plain TCP only. */
    @Override
    public String inFlightRefused() {
        return client.endpoint().tls() ? "the dsload Redis Connection has TLS on: operations in flight go over plain "
                + "TCP only. Set In flight to 1, or TLS to false" : null;
    }

    /** The thread's operations in flight ended: its event loop and connections go. */
    @Override
    public void release() {
        if (loop != null) {
            loop.close();
            loop = null;
        }
    }

    @Override
    public long backstopNanos() {
        return client.socketTimeoutMillis() * 1_000_000L + BACKSTOP_MARGIN_NANOS;
    }

    @Override
    public Outcome timedOut() {
        return Outcome.failed(RedisErrors.TIMEOUT, "no end within " + backstopNanos() / 1_000_000 + " ms, the socket "
                + "timeout of " + client.socketTimeoutMillis() + " ms and 5 s: the event loop did not end the "
                + "operation itself [" + client.target() + "]", 0, 0);
    }

    /** A connection that could not be made: refused, no route, unknown host, or its connect timeout passed. */
    @Override
    public boolean unreachable(Outcome failed) {
        return Unreachable.connectFailure(failed);
    }

    @Override
    public boolean unrecoverable(Outcome failed) {
        return RedisErrors.unrecoverable(failed);
    }
}
