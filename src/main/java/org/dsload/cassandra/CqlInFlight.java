package org.dsload.cassandra;

import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.dsload.core.Outcome;
import org.dsload.core.RequestsResult;
import org.dsload.core.Results;
import org.dsload.core.Unrecoverable;
import org.dsload.core.inflight.InFlightCall;
import org.dsload.core.inflight.InFlightWindow;
import org.dsload.core.inflight.SamplerWindow;

/**
 * Requests in flight for a CQL Request: the thread keeps up to In flight statements outstanding
 * on the shared session ({@link CqlTransport}), each timed on its own, and each sample returns the
 * replies that came in, one row per kind. Whatever is still outstanding when the thread ends
 * ({@link #close}) is cancelled and reported.
 */
final class CqlInFlight implements InFlightCall {
    private final CqlSettings settings;
    private final CqlSampler sampler;
    private final CqlClient client;
    private final SamplerWindow<CqlTransport.Request> window;
    private final InFlightWindow.Preparer<CqlTransport.Request> preparer;
    private int thread;

    CqlInFlight(CqlSettings settings, CqlClient client, CqlSampler sampler) {
        this.settings = settings;
        this.sampler = sampler;
        this.client = client;
        this.window = new SamplerWindow<>(settings.inFlight(),
                new CqlTransport(client, settings.allPages(), settings.limit(), settings.timeout()), this::finish);
        this.preparer = request -> {
            request.clear();
            try {
                request.statement = settings.options(settings.plan().build(client, sampler.nextSeq(settings.plan().batchSize()), thread));
            } catch (IllegalArgumentException e) {
                request.notSent = Outcome.failed(CqlSampler.BAD_BIND_VALUE, e.getMessage(), 0, 0);
            } catch (RuntimeException e) {
                request.notSent = Outcome.failed(CqlErrors.code(e), "preparing the statement failed: "
                        + CqlErrors.message(e, client), 0, 0);
            }
        };
    }

    /** @return the row, or null when the thread has nothing more to send (its schedule ended) */
    SampleResult sample(String label) {
        thread = JMeterContextService.getContext().getThreadNum() + 1;
        RequestsResult result = window.sample(sampler, label, preparer);
        if (result != null) {
            Unrecoverable.stopIf(result, result.requests().get(0).outcome(), CqlErrors::unrecoverable,
                    settings.stopOnUnrecoverable(), label);
        }
        return result;
    }

    /** What every row shows: the statement, and of its first request the headers and rows when kept. */
    private void finish(RequestsResult result) {
        result.setSamplerData(settings.samplerData());
        if (result.requests().get(0).detail() instanceof CqlTransport.Shown shown) {
            if (shown.headers() != null) {
                result.setResponseHeaders(shown.headers());
            }
            if (shown.rows() != null) {
                Results.text(result, shown.rows());
            }
        }
    }

    @Override
    public void stop() {
        window.stop();
    }

    @Override
    public void close(String label) {
        window.close(label);
    }
}
