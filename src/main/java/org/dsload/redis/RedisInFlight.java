package org.dsload.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.dsload.core.BatchResult;
import org.dsload.core.Completion;
import org.dsload.core.RequestsResult;
import org.dsload.core.Results;
import org.dsload.core.inflight.InFlightCall;
import org.dsload.core.inflight.SamplerWindow;

/**
 * Requests in flight: the thread keeps up to In flight commands outstanding on connections of
 * its own ({@link RedisEventLoop}), each timed on its own, and each sample returns the replies
 * that came in, one row per kind. Connections are opened at the first sample and closed when the
 * thread ends ({@link #close}), when whatever is still outstanding is cancelled and reported.
 */
final class RedisInFlight implements InFlightCall {
    /** What a row shows of its first request: the command and, with a response data limit, the reply. */
    record Shown(String request, String reply) {
    }

    private final RedisEventLoop loop;
    private final SamplerWindow<RedisRequest> window;
    private final RedisClient client;
    /** A command like the ones sent, to count them by name for the cross-check with the server. */
    private final redis.clients.jedis.CommandArguments likeSent;
    private final int thread = JMeterContextService.getContext().getThreadNum() + 1;

    RedisInFlight(RedisSampler.Compiled settings, RedisClient client, RedisSampler.Sequence seq) {
        this.client = client;
        this.likeSent = settings.plan().build(0, 0, 0);
        RedisEndpoint endpoint = client.endpoint();
        try {
            this.loop = new RedisEventLoop(endpoint, settings.inFlight(), settings.depth(), settings.nilFails(),
                    settings.limit(), settings.plan(), endpoint.cluster() ? client.clusterSlots() : null);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a selector for this thread's Redis connections", e);
        }
        this.window = new SamplerWindow<>(settings.inFlight(), loop, request -> {
            request.clear();
            request.command = settings.plan().build(seq.next(), 0, thread);
        });
    }

    /** @return the row, or null when the thread has nothing more to send (its schedule ended) */
    SampleResult sample(RedisSampler sampler, String label) {
        RequestsResult result = window.sample(sampler, label);
        countSent();
        if (result != null) {
            show(result, result.requests());
        }
        return result;
    }

    /** Shows a row's first request: its command (and how many more the row holds) and, if kept, its reply. */
    static void show(RequestsResult result, List<Completion> row) {
        if (row.get(0).detail() instanceof Shown shown) {
            result.setSamplerData(shown.request() + BatchResult.andMore(row, " ", "requests"));
            if (shown.reply() != null) {
                Results.text(result, shown.reply());
            }
        }
    }

    @Override
    public void stop() {
        window.stop();
    }

    /** The thread ends: outstanding requests are cancelled, every row left is reported, connections close. */
    @Override
    public void close(String label) {
        window.close(label);
        countSent();
    }

    private void countSent() {
        int sent = loop.takeSent();
        if (sent > 0) {
            client.countSent(likeSent, sent);
        }
    }
}
