package org.dsload.redis;

import org.dsload.core.Outcome;
import org.dsload.core.Results.LimitedText;

import redis.clients.jedis.exceptions.JedisDataException;

/**
 * What a request of the event loop ended with, from the reply just read or from its absence: the
 * outcome (its code, and the bytes each way), and the request and reply text where someone will
 * look at it. Successful outcomes of the same size are shared rather than made per reply.
 */
final class RedisReplyOutcomes {
    private final RedisEndpoint endpoint;
    private final boolean nilFails;
    private final int textLimit;
    private final CommandPlan plan;
    private Outcome lastOk;
    private Outcome lastNil;

    RedisReplyOutcomes(RedisEndpoint endpoint, boolean nilFails, int textLimit, CommandPlan plan) {
        this.endpoint = endpoint;
        this.nilFails = nilFails;
        this.textLimit = textLimit;
        this.plan = plan;
    }

    /** Whether replies are kept as text (a Response data limit above 0). */
    boolean keepsText() {
        return textLimit > 0;
    }

    Outcome of(RedisRequest request, RespReply reply) {
        long sent = request.sentBytes();
        long received = reply.wireBytes;
        if (reply.kind == RespReply.Kind.ERROR) {
            return Outcome.failed(RedisErrors.errorClass(reply.error), reply.error, sent, received);
        }
        if (reply.nils > 0) {
            if (nilFails) {
                return Outcome.failed(RedisSampler.NIL, "nil reply to " + plan.describe(request.command)
                        + " (Nil is a failure is on)", sent, received);
            }
            Outcome nil = lastNil;
            if (nil == null || nil.sentBytes() != sent || nil.receivedBytes() != received) {
                nil = Outcome.ok(RedisSampler.NIL, "nil reply", sent, received);
                lastNil = nil;
            }
            return nil;
        }
        Outcome ok = lastOk;
        if (ok == null || ok.sentBytes() != sent || ok.receivedBytes() != received) {
            ok = Outcome.ok(RedisSampler.OK, RedisSampler.OK, sent, received);
            lastOk = ok;
        }
        return ok;
    }

    /** Request and reply text, only where someone will look at it. */
    Object shown(RedisRequest request, RespReply reply) {
        boolean failed = reply.kind == RespReply.Kind.ERROR || reply.nils > 0 && nilFails;
        if (textLimit <= 0 && !failed) {
            return null;
        }
        String text = null;
        if (textLimit > 0) {
            LimitedText out = new LimitedText(textLimit);
            Resp.render(reply.kind == RespReply.Kind.ERROR
                    ? new JedisDataException(reply.error) : reply.value, out, "");
            text = out.toString();
        }
        return new RedisInFlight.Shown(plan.describe(request.command), text);
    }

    /** The request's command, for a request that failed without a reply. */
    Object unanswered(RedisRequest request) {
        return new RedisInFlight.Shown(plan.describe(request.command), null);
    }

    /** A request without a reply within the socket timeout, and why it had none. */
    Outcome timedOut(RedisRequest request) {
        String why;
        if (request.orphaned) {
            why = "no reply from " + request.server + " within the socket timeout of " + endpoint.socketTimeoutMillis()
                    + " ms (its connection was closed when an earlier request on it timed out)";
        } else if (request.waitingOn != null) {
            why = "no connection to " + request.server + " became free within the socket timeout of "
                    + endpoint.socketTimeoutMillis() + " ms";
        } else {
            why = "no reply from " + request.server + " within the socket timeout of " + endpoint.socketTimeoutMillis()
                    + " ms";
        }
        return Outcome.failed(RedisErrors.TIMEOUT, why, request.sentBytes(), 0);
    }
}
