package org.dsload.redis;

import java.util.ArrayList;
import java.util.List;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.core.RequestsResult;
import org.dsload.core.Results;
import org.dsload.core.Results.LimitedText;
import org.dsload.core.SampleTiming;

import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Response;

/**
 * N commands in one pipeline on a pooled connection, timed together: the sample counts N, and a
 * failed one N errors, as the summary counts it (JMeter's own rule would count 1 error in N, so its
 * console and dashboard would show a fraction of the failures).
 */
final class PipelineCall {
    private PipelineCall() {
    }

    /** @return bytes received */
    static long run(RedisSampler.Compiled c, RedisClient client, CommandArguments[] commands,
            RequestsResult result) {
        long received = exchange(c, client, commands, result);
        result.setErrorCount(result.isSuccessful() ? 0 : commands.length);
        return received;
    }

    private static long exchange(RedisSampler.Compiled c, RedisClient client, CommandArguments[] commands,
            SampleResult result) {
        result.setSampleCount(commands.length);
        client.countSent(commands[0], commands.length);
        List<Response<Object>> responses = new ArrayList<>(commands.length);
        SampleTiming timing = new SampleTiming();
        timing.start(result);
        try (AbstractPipeline pipe = client.pipelined()) {
            for (CommandArguments command : commands) {
                responses.add(pipe.sendCommand(command));
            }
            pipe.sync();
        } catch (RuntimeException e) {
            timing.end(result);
            return CommandCall.failed(result, e, client);
        }
        timing.end(result);

        long received = 0;
        int nils = 0;
        int errors = 0;
        RuntimeException firstError = null;
        int firstErrorAt = -1;
        int firstNilAt = -1;
        LimitedText text = c.limit() > 0 ? new LimitedText(c.limit()) : null;
        for (int i = 0; i < responses.size(); i++) {
            Object reply;
            try {
                reply = responses.get(i).get();
            } catch (RuntimeException e) {
                errors++;
                if (firstError == null) {
                    firstError = e;
                    firstErrorAt = i;
                }
                received += Resp.errorSize(e);
                reply = e;
            }
            if (!(reply instanceof RuntimeException)) {
                received += Resp.replySize(reply);
                int n = Resp.nils(reply);
                if (n > 0 && firstNilAt < 0) {
                    firstNilAt = i;
                }
                nils += n;
            }
            if (text != null && !text.full()) {
                text.append(Integer.toString(i + 1)).append(") ");
                Resp.render(reply, text, "   ");
                text.append('\n');
            }
        }
        if (text != null) {
            Results.text(result, text.toString());
        }
        int n = commands.length;
        if (errors > 0) {
            Results.fail(result, RedisErrors.code(firstError), errors + " of " + n + " commands failed; first, "
                    + c.plan().describe(commands[firstErrorAt]) + ": " + RedisErrors.message(firstError, client));
        } else if (nils > 0 && c.nilFails()) {
            Results.fail(result, RedisSampler.NIL, nils + " nil replies in " + n + " commands; first to "
                    + c.plan().describe(commands[firstNilAt]) + " (Nil is a failure is on)");
        } else if (nils > 0) {
            Results.succeed(result, RedisSampler.NIL, nils + " nil replies in " + n + " commands");
        } else {
            Results.succeed(result, RedisSampler.OK, RedisSampler.OK);
        }
        return received;
    }
}
