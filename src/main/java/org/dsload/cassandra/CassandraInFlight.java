package org.dsload.cassandra;

import org.apache.jmeter.threads.JMeterContextService;
import org.dsload.core.Outcome;
import org.dsload.core.RequestsResult;
import org.dsload.core.Results;
import org.dsload.core.inflight.InFlightWindow;
import org.dsload.core.inflight.SamplerWindow;

/**
 * Requests in flight for a CQL Request: the thread keeps up to In flight statements outstanding
 * on the shared session ({@link CassandraTransport}), each timed on its own, and each sample returns the
 * replies that came in, one row per kind. This fills the statements and shows the rows of the
 * clone's {@link SamplerWindow}.
 */
final class CassandraInFlight implements InFlightWindow.Preparer<CassandraTransport.Request> {
    private final CqlSettings settings;
    private final CassandraSampler sampler;
    private final CassandraClient client;
    private final int thread = JMeterContextService.getContext().getThreadNum() + 1;

    private CassandraInFlight(CqlSettings settings, CassandraClient client, CassandraSampler sampler) {
        this.settings = settings;
        this.sampler = sampler;
        this.client = client;
    }

    /** The window of the sampler's thread, made at a sample for these settings and this session. */
    static SamplerWindow<CassandraTransport.Request> window(CqlSettings settings, CassandraClient client, CassandraSampler sampler) {
        CassandraInFlight call = new CassandraInFlight(settings, client, sampler);
        return new SamplerWindow<>(settings.inFlight(),
                new CassandraTransport(client, settings.allPages(), settings.limit(), settings.timeout()), call, call::finish);
    }

    @Override
    public void prepare(CassandraTransport.Request request) {
        request.clear();
        try {
            request.statement = settings.options(settings.plan().build(client, sampler.nextSeq(settings.plan().batchSize()),
                    thread));
        } catch (IllegalArgumentException e) {
            request.notSent(Outcome.failed(CassandraSampler.BAD_BIND_VALUE, e.getMessage(), 0, 0));
        } catch (RuntimeException e) {
            request.notSent(Outcome.failed(CassandraErrors.code(e), "preparing the statement failed: "
                    + CassandraErrors.message(e, client), 0, 0));
        }
    }

    /** What every row shows: the statement, and of its first request the headers and rows when kept. */
    private void finish(RequestsResult result) {
        result.setSamplerData(settings.samplerData());
        if (result.requests().get(0).detail() instanceof CassandraTransport.Shown shown) {
            if (shown.headers() != null) {
                result.setResponseHeaders(shown.headers());
            }
            if (shown.rows() != null) {
                Results.text(result, shown.rows());
            }
        }
    }
}
