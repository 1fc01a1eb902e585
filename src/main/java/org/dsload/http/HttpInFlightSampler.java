package org.dsload.http;

import java.util.List;

import org.dsload.core.Completion;
import org.dsload.core.RequestsResult;
import org.dsload.core.inflight.InFlightSampler;
import org.dsload.core.inflight.InFlightWindow;
import org.dsload.core.inflight.SamplerWindow;

/**
 * A sampler whose thread may keep HTTP requests in flight over its connection element's client:
 * the clone's window is made again when the settings or the client change. Subclasses note what a
 * row's requests did ({@link #account}) and set what every row shows ({@link #finish}), for the
 * rows reported at the thread's end too.
 */
public abstract class HttpInFlightSampler extends InFlightSampler<SamplerWindow<HttpPlace>> {
    private static final long serialVersionUID = 1L;

    /**
     * The clone's window for these settings (the sampler's compiled fields) and this client, made
     * with {@code answers} and {@code preparer} when there is none for them yet.
     */
    protected final SamplerWindow<HttpPlace> call(Object settings, Object client, int places, AsyncHttp http,
            HttpTransport.Answers answers, InFlightWindow.Preparer<HttpPlace> preparer) {
        return inFlight(List.of(settings, client), () -> new SamplerWindow<>(places, new HttpTransport(http, answers),
                preparer, this::account, this::finish));
    }

    /** What the sampler notes of a row's requests (points written, answers read); nothing by default. */
    protected void account(List<Completion> row) {
    }

    /** What the sampler sets on every row, those reported at the thread's end too; nothing by default. */
    protected void finish(RequestsResult row) {
    }
}
