package org.dsload.redis;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.core.Backoff;
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
    static long run(RedisSampler.Compiled c, RedisClientHandle client, CommandArguments command, SampleResult result,
            Backoff backoff) {
        Object reply;
        SampleTiming timing = new SampleTiming();
        timing.start(result);
        try {
            reply = client.execute(command);
        } catch (RuntimeException e) {
            timing.end(result);
            return failed(result, e, client, backoff);
        }
        timing.end(result);
        backoff.succeeded();
        int nils = Resp.nils(reply);
        if (c.limit() > 0) {
            LimitedText text = new LimitedText(c.limit());
            Resp.render(reply, text, "");
            Results.text(result, text.toString());
        }
        if (nils == 0) {
            Results.succeed(result, RedisSampler.OK, RedisSampler.OK);
        } else if (c.nilFails()) {
            Results.fail(result, RedisSampler.NIL, "nil reply to " + c.plan().describe(command)
                    + " (Nil is a failure is on)");
        } else {
            Results.succeed(result, RedisSampler.NIL, "nil reply");
        }
        return Resp.replySize(reply);
    }

    /**
     * Fills a failed sample; a connection that could not be made starts or lengthens the thread's
     * back-off, any other outcome ends it.
     *
     * @return bytes received: an error reply's, or none when the connection failed
     */
    static long failed(SampleResult result, RuntimeException e, RedisClientHandle client, Backoff backoff) {
        if (RedisErrors.isConnectFailure(e)) {
            backoff.failed(System.nanoTime());
        } else {
            backoff.succeeded();
        }
        Results.fail(result, RedisErrors.code(e), RedisErrors.message(e, client));
        return e instanceof JedisDataException ? Resp.errorSize(e) : 0;
    }
}
