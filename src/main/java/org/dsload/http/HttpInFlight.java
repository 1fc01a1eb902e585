package org.dsload.http;

import java.util.List;
import java.util.function.Consumer;

import org.apache.jmeter.samplers.Sampler;
import org.dsload.core.Completion;
import org.dsload.core.IntendedStart;
import org.dsload.core.RequestsResult;
import org.dsload.core.inflight.InFlightWindow;
import org.dsload.core.inflight.LeftoverRows;

/**
 * One sampler clone's HTTP requests in flight: its window over the connection element's shared
 * client, paced by the arrival element in scope (if any), and the rows left when its thread
 * stops. Built at the thread's first sample, for the settings it serves.
 */
public final class HttpInFlight {
    private final Object settings;
    private final InFlightWindow<HttpPlace> window;
    private final LeftoverRows leftovers = new LeftoverRows();

    /** @param settings what the sampler compiled its fields into: the call is made again when they change */
    public HttpInFlight(Object settings, int places, AsyncHttp http, HttpTransport.Answers answers) {
        this.settings = settings;
        this.window = new InFlightWindow<>(places, new HttpTransport(http, answers));
    }

    public boolean serves(Object compiled) {
        return settings.equals(compiled);
    }

    /**
     * Sends what there is room for and returns the next row of requests that ended.
     *
     * @return the row, or empty when the thread has nothing more to send (its schedule ended)
     */
    public List<Completion> next(Sampler sampler, InFlightWindow.Preparer<HttpPlace> preparer) {
        leftovers.remember();
        window.pace(IntendedStart.takeOffer(sampler), IntendedStart.threadEndNanos());
        return window.next(preparer);
    }

    /** Makes a waiting sample return; from another thread (a stopping test). */
    public void stop() {
        window.requestStop();
    }

    /**
     * The thread ends: outstanding requests are cancelled; every row left goes to the thread's
     * listeners after {@code account} has seen its requests (what the sampler notes of them) and
     * {@code finish} its result (what the sampler sets on every row).
     */
    public void close(String label, Consumer<List<Completion>> account, Consumer<RequestsResult> finish) {
        List<List<Completion>> rows = window.drain();
        rows.forEach(account);
        leftovers.deliver(label, rows, finish);
    }
}
