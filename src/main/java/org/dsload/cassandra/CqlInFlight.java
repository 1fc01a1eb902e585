package org.dsload.cassandra;

import org.apache.jmeter.threads.JMeterContextService;
import org.dsload.core.Outcome;
import org.dsload.core.RequestsResult;
import org.dsload.core.Results;
import org.dsload.core.inflight.InFlightWindow;
import org.dsload.core.inflight.SamplerWindow;

/**
 * Requests in flight for a CQL Request: the thread keeps up to In flight statements outstanding
 * on the shared session ({@link CqlTransport}), each timed on its own, and each sample returns the
 * replies that came in, one row per kind. This fills the statements and shows the rows of the
 * clone's {@link SamplerWindow}.
 */
final class CqlInFlight implements InFlightWindow.Preparer<CqlTransport.Request> {
    private final CqlSettings settings;
    private final CqlSampler sampler;
    private final CqlClient client;
    private final int thread = JMeterContextService.getContext().getThreadNum() + 1;

    private CqlInFlight(CqlSettings settings, CqlClient client, CqlSampler sampler) {
        this.settings = settings;
        this.sampler = sampler;
        this.client = client;
    }

    /** The window of the sampler's thread, made at a sample for these settings and this session. */
    static SamplerWindow<CqlTransport.Request> window(CqlSettings settings, CqlClient client, CqlSampler sampler) {
        CqlInFlight call = new CqlInFlight(settings, client, sampler);
        return new SamplerWindow<>(settings.inFlight(),
                new CqlTransport(client, settings.allPages(), settings.limit(), settings.timeout()), call, call::finish);
    }

    @Override
    public void prepare(CqlTransport.Request request) {
        request.clear();
        try {
            request.statement = settings.options(settings.plan().build(client, sampler.nextSeq(settings.plan().batchSize()),
                    thread));
        } catch (IllegalArgumentException e) {
            request.notSent(Outcome.failed(CqlSampler.BAD_BIND_VALUE, e.getMessage(), 0, 0));
        } catch (RuntimeException e) {
            request.notSent(Outcome.failed(CqlErrors.code(e), "preparing the statement failed: "
                    + CqlErrors.message(e, client), 0, 0));
        }
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
}
