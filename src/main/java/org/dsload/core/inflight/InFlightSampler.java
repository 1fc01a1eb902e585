package org.dsload.core.inflight;

import java.util.function.Supplier;

import org.apache.jmeter.samplers.Interruptible;
import org.apache.jmeter.testelement.ThreadListener;
import org.dsload.core.ClientSampler;
import org.dsload.core.IntendedStart;

/**
 * A sampler whose thread may keep requests in flight: it holds the clone's {@link InFlightCall}
 * (made again when what it serves changes), closes it when the thread ends or the sampler goes
 * back to one request per sample, and makes a waiting sample return when the test stops.
 */
public abstract class InFlightSampler<C extends InFlightCall> extends ClientSampler
        implements IntendedStart.SelfPaced, ThreadListener, Interruptible {
    private static final long serialVersionUID = 1L;

    private transient volatile Held<C> held;

    /** A call and what it was made for. */
    private record Held<C>(Object serves, C call) {
    }

    /**
     * The clone's call for {@code serves} (compared with {@code equals}: the compiled fields, and
     * the client where it may change between samples); the call held before is closed when it
     * served something else.
     */
    protected final C inFlight(Object serves, Supplier<C> make) {
        Held<C> current = held;
        if (current != null && current.serves().equals(serves)) {
            return current.call();
        }
        endInFlight();
        C call = make.get();
        held = new Held<>(serves, call);
        return call;
    }

    /**
     * A sample of one request (In flight 1): closes the call held, if any, then waits for the
     * arrival offered to this sample, if any.
     *
     * @return false when no arrival is left before the thread's end, or the test is stopping
     */
    protected final boolean oneRequestDue() {
        endInFlight();
        return IntendedStart.awaitOffered(this);
    }

    /** Closes the call, if any: outstanding requests cancelled, every row left reported. */
    private void endInFlight() {
        Held<C> ending = held;
        if (ending != null) {
            held = null;
            ending.call().close(getName());
        }
    }

    @Override
    public void threadStarted() {
        // requests in flight start with the first sample, once the fields are known
    }

    /** Requests still in flight are cancelled and reported. */
    @Override
    public void threadFinished() {
        endInFlight();
    }

    /** A stopping test: a sample waiting for replies returns at once, cancelling what is outstanding. */
    @Override
    public boolean interrupt() {
        Held<C> current = held;
        if (current == null) {
            return false;
        }
        current.call().stop();
        return true;
    }
}
