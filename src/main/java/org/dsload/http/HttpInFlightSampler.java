package org.dsload.http;

import java.util.List;

import org.apache.jmeter.samplers.Interruptible;
import org.apache.jmeter.testelement.ThreadListener;
import org.dsload.core.ClientSampler;
import org.dsload.core.Completion;
import org.dsload.core.IntendedStart;
import org.dsload.core.RequestsResult;

/**
 * A sampler whose thread may keep HTTP requests in flight: it holds the clone's {@link HttpInFlight}
 * (made again when the settings or the connection change), cancels and reports what is outstanding
 * at the thread's end, and makes a waiting sample return when the test stops. Subclasses note
 * what a row's requests did ({@link #account}) before the row is reported, including the rows
 * reported at the thread's end.
 */
public abstract class HttpInFlightSampler extends ClientSampler
        implements IntendedStart.SelfPaced, ThreadListener, Interruptible {
    private static final long serialVersionUID = 1L;

    private transient volatile HttpInFlight call;

    /** What a call serves: the sampler's compiled fields and the connection's client. */
    private record Serves(Object settings, Object client) {
    }

    /** The clone's call for these settings and this client; a new one when either changed. */
    protected final HttpInFlight call(Object settings, Object client, int places, AsyncHttp http,
            HttpTransport.Answers answers) {
        Serves serves = new Serves(settings, client);
        HttpInFlight current = call;
        if (current != null && !current.serves(serves)) {
            endCall();
            current = null;
        }
        if (current == null) {
            current = new HttpInFlight(serves, places, http, answers);
            call = current;
        }
        return current;
    }

    /** What the sampler notes of a row's requests (points written, answers read); nothing by default. */
    protected void account(List<Completion> row) {
    }

    /** What the sampler sets on every row, those reported at the thread's end too; nothing by default. */
    protected void finish(RequestsResult row) {
    }

    /** Ends the call, if any: outstanding requests cancelled, every row left reported. */
    protected final void endCall() {
        HttpInFlight ending = call;
        call = null;
        if (ending != null) {
            ending.close(getName(), this::account, this::finish);
        }
    }

    @Override
    public void threadStarted() {
        // the call is made at the first sample, once the fields are known
    }

    @Override
    public void threadFinished() {
        endCall();
    }

    @Override
    public boolean interrupt() {
        HttpInFlight current = call;
        if (current == null) {
            return false;
        }
        current.stop();
        return true;
    }
}
