package org.dsload.core.inflight;

import java.util.function.Supplier;

import org.apache.jmeter.samplers.Interruptible;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.ThreadListener;
import org.dsload.core.Backoff;
import org.dsload.core.ClientSampler;
import org.dsload.core.IntendedStart;
import org.dsload.core.Outcome;
import org.dsload.core.Unreachable;

/**
 * A sampler whose thread may keep requests in flight: it holds the clone's {@link InFlightCall}
 * (made again when what it serves changes), closes it when the thread ends or the sampler goes
 * back to one request per sample, and makes a waiting sample return when the test stops.
 *
 * <p>A sample of one request is paced as the transports pace requests in flight: after a request
 * that could not reach the store ({@link Unreachable}), the clone's next request waits out a
 * {@link Backoff} (10 ms doubling to 1 s), so that a store that is down costs a few failed samples
 * per thread and second, not as many as the machine can fail; arrivals of a schedule that fall
 * due meanwhile are dropped (counted, not sent). A stopped test, or the thread's end, ends the wait.
 */
public abstract class InFlightSampler<C extends InFlightCall> extends ClientSampler
        implements IntendedStart.SelfPaced, ThreadListener, Interruptible {
    private static final long serialVersionUID = 1L;

    private transient volatile Held<C> held;
    /** Paces this clone's samples of one request while the store cannot be reached. */
    private transient volatile Backoff pause;
    /** How the sample under way is judged, once {@link #oneRequestDue} let it run; null: not at all. */
    private transient Unreachable.Judge judge;

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
     * A sample of one request (In flight 1): closes the call held, if any, waits out the back-off
     * after a request that could not reach the store, then waits for the arrival offered to this
     * sample, if any.
     *
     * @param unreachable the store's judge of the sample's failure
     * @return false when no arrival is left before the thread's end, or the test is stopping
     */
    protected final boolean oneRequestDue(Unreachable.Judge unreachable) {
        endInFlight();
        Backoff b = blockingBackoff();
        long dropBefore = 0;
        if (b.failures() > 0 && b.waiting(System.nanoTime())) {
            if (!b.await(IntendedStart.threadEndNanos())) {
                return false;
            }
            dropBefore = System.nanoTime();
        }
        if (!IntendedStart.awaitOffered(this, dropBefore)) {
            return false;
        }
        judge = unreachable;
        return true;
    }

    /** The back-off of this clone's samples of one request. */
    private Backoff blockingBackoff() {
        Backoff b = pause;
        if (b == null) {
            b = new Backoff();
            pause = b;
        }
        return b;
    }

    /** A sample that {@link #oneRequestDue} let run starts, lengthens or ends the back-off. */
    @Override
    protected void sampled(SampleResult result) {
        Unreachable.Judge j = judge;
        if (j == null) {
            return;
        }
        judge = null;
        if (!result.isSuccessful()
                && j.unreachable(Outcome.failed(result.getResponseCode(), result.getResponseMessage(), 0, 0))) {
            pause.failed(System.nanoTime());
        } else if (pause.failures() > 0) {
            pause.succeeded();
        }
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
        Backoff b = pause;
        if (b != null) {
            b.wake();
        }
        Held<C> current = held;
        if (current == null) {
            return false;
        }
        current.call().stop();
        return true;
    }
}
