package org.dsload.core.inflight;

import java.util.List;
import java.util.function.Consumer;

import org.apache.jmeter.samplers.Sampler;
import org.dsload.core.Completion;
import org.dsload.core.IntendedStart;
import org.dsload.core.RequestsResult;

/**
 * One sampler clone's requests in flight as its samples see them: the window, paced by the
 * arrival element in scope (if any) and ending at the thread's end time, and the rows left when
 * the thread stops, which go to the thread's listeners.
 */
public final class SamplerWindow<R extends InFlightRequest> {
    private final InFlightWindow<R> window;
    private final LeftoverRows leftovers = new LeftoverRows();

    public SamplerWindow(int places, Transport<R> transport) {
        this.window = new InFlightWindow<>(places, transport);
    }

    /**
     * Sends what there is room for and returns the next row of requests that ended.
     *
     * @return the row, or empty when the thread has nothing more to send (its schedule ended)
     */
    public List<Completion> next(Sampler sampler, InFlightWindow.Preparer<R> preparer) {
        leftovers.remember();
        window.pace(IntendedStart.takeOffer(sampler), IntendedStart.threadEndNanos());
        return window.next(preparer);
    }

    /** Makes a waiting sample return; from another thread (a stopping test). */
    public void stop() {
        window.requestStop();
    }

    /**
     * The thread ends: outstanding requests are cancelled and every row left goes to the thread's
     * listeners, {@code finish} setting on it what the sampler sets on every row.
     */
    public void close(String label, Consumer<RequestsResult> finish) {
        leftovers.deliver(label, window.drain(), finish);
    }
}
