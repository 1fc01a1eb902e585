package org.dsload.redis;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.core.Completion;
import org.dsload.core.Outcome;
import org.dsload.core.Results;
import org.dsload.core.Results.LimitedText;
import org.dsload.core.SampleTiming;

import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.exceptions.JedisDataException;

/** One command on a pooled connection, timed on its own: the sample is the command. */
final class CommandCall {
    private CommandCall() {
    }

    /** @return bytes received */
    static long run(RedisSampler.Compiled c, RedisClient client, CommandArguments command, SampleResult result) {
        Object reply;
        SampleTiming timing = new SampleTiming();
        timing.start(result);
        try {
            reply = client.execute(command);
        } catch (RuntimeException e) {
            timing.end(result);
            return failed(result, e, client);
        }
        timing.end(result);
        if (c.limit() > 0) {
            Results.text(result, shown(c, reply));
        }
        long received = Resp.replySize(reply);
        Outcome outcome = replied(c, command, reply, 0, received);
        if (outcome.success()) {
            Results.succeed(result, outcome.code(), outcome.message());
        } else {
            Results.fail(result, outcome.code(), outcome.message());
        }
        return received;
    }

    /** What a reply comes to: OK, or NIL (a failure when Nil is a failure is on). */
    private static Outcome replied(RedisSampler.Compiled c, CommandArguments command, Object reply, long sent,
            long received) {
        if (Resp.nils(reply) == 0) {
            return Outcome.ok(RedisSampler.OK, RedisSampler.OK, sent, received);
        }
        if (c.nilFails()) {
            return Outcome.failed(RedisSampler.NIL, "nil reply to " + c.plan().describe(command)
                    + " (Nil is a failure is on)", sent, received);
        }
        return Outcome.ok(RedisSampler.NIL, "nil reply", sent, received);
    }

    /** The reply as text, within the response data limit. */
    private static String shown(RedisSampler.Compiled c, Object reply) {
        LimitedText text = new LimitedText(c.limit());
        Resp.render(reply, text, "");
        return text.toString();
    }

    /**
     * One command of a sample of several ({@link org.dsload.core.BlockingBatch}), timed on its own.
     *
     * @param show whether the completion keeps what a row shows of it (the command, and the reply
     *             with a response data limit); a failed one always does
     */
    static Completion request(RedisSampler.Compiled c, RedisClient client, CommandArguments command,
            boolean show) {
        long sent = Resp.commandSize(command);
        long start = System.nanoTime();
        Object reply;
        try {
            reply = client.execute(command);
        } catch (RuntimeException e) {
            long end = System.nanoTime();
            Outcome failed = Outcome.failed(RedisErrors.code(e), RedisErrors.message(e, client), sent,
                    e instanceof JedisDataException ? Resp.errorSize(e) : 0);
            return new Completion(Completion.UNSCHEDULED, start, end, 0, 1, failed,
                    new RedisInFlight.Shown(c.plan().describe(command), null));
        }
        long end = System.nanoTime();
        Outcome outcome = replied(c, command, reply, sent, Resp.replySize(reply));
        Object detail = null;
        if (show || !outcome.success()) {
            detail = new RedisInFlight.Shown(c.plan().describe(command), c.limit() > 0 ? shown(c, reply) : null);
        }
        return new Completion(Completion.UNSCHEDULED, start, end, 0, 1, outcome, detail);
    }

    /**
     * Fills a failed sample.
     *
     * @return bytes received: an error reply's, or none when the connection failed
     */
    static long failed(SampleResult result, RuntimeException e, RedisClient client) {
        Results.fail(result, RedisErrors.code(e), RedisErrors.message(e, client));
        return e instanceof JedisDataException ? Resp.errorSize(e) : 0;
    }
}
