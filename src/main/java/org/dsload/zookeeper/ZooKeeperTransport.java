package org.dsload.zookeeper;

import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.BackgroundCallback;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.zookeeper.KeeperException;
import org.dsload.core.Outcome;
import org.dsload.core.Results.LimitedText;
import org.dsload.core.inflight.CallbackTransport;
import org.dsload.core.inflight.InFlightRequest;

/**
 * ZooKeeper requests kept in flight on the thread's session: each sent as a Curator background
 * call, its answer handed to the window by Curator's callback with the retries Curator made for
 * it. ZooKeeper's request timeout bounds only calls that wait, so the window applies it to each
 * request from its send. While the ensemble is out of reach, requests fail without being sent and
 * sends wait out the transport's back-off.
 */
final class ZooKeeperTransport extends CallbackTransport<ZooKeeperTransport.Request> {
    /** A request on its way: a znode call or a transaction. */
    static final class Request extends InFlightRequest {
        ZnodeCall znode;
        MultiCall multi;
        /** Where it writes, as the server sees it (for the watches waiting on it), or null. */
        String written;

        void clear() {
            znode = null;
            multi = null;
            written = null;
        }

        /** The request as a row shows it; made only when shown. */
        String describe() {
            return znode != null ? znode.describe() : multi.describe();
        }

        @Override
        protected Object unanswered() {
            return new Shown(describe(), null);
        }
    }

    /** What a row shows of its first request: the request and, with a response data limit, the reply. */
    record Shown(String request, String reply) {
    }

    private static final String CONNECTION_LOSS = KeeperException.Code.CONNECTIONLOSS.name();
    /** Curator's switch for its log of failed background calls (an ERROR with a stack trace each). */
    static final String QUIET_CURATOR = "curator-dont-log-connection-problems";

    private final CuratorFramework client;
    private final ClientSettings settings;
    private final int limit;
    private final long timeoutNanos;
    private final NamespaceTally tally;

    ZooKeeperTransport(CuratorFramework client, ClientSettings settings, NamespaceTally tally, int limit) {
        this.client = client;
        this.settings = settings;
        this.tally = tally;
        this.limit = limit;
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(settings.requestTimeoutMillis > 0
                ? settings.requestTimeoutMillis : settings.worstCaseMillis());
        // Each failed request is a failed sample with ZooKeeper's code already; an outage with
        // thousands in flight would otherwise put as many stack traces into the log. A user's own
        // setting of the property wins.
        if (System.getProperty(QUIET_CURATOR) == null) {
            System.setProperty(QUIET_CURATOR, "true");
        }
    }

    @Override
    public Request newRequest() {
        return new Request();
    }

    @Override
    protected void start(Request request, Callback<Request> callback) {
        request.sentBytes(request.znode != null ? request.znode.sentBytes() : request.multi.sentBytes());
        Answer answer = new Answer(request, callback);
        try {
            if (request.written != null) {
                WriteStamps.writing(request.written);
            }
            if (request.znode != null) {
                request.znode.sendInBackground(client, answer);
            } else {
                request.multi.writtenPaths().forEach(WriteStamps::writing);
                request.multi.sendInBackground(client, answer);
            }
        } catch (Exception e) {
            Outcome failed = request.znode != null ? request.znode.failed(e) : request.multi.failed(e, false);
            callback.complete(failed, new Shown(request.describe(), null));
        }
    }

    /** Curator's answer to one request, with the retries Curator made for it (counted on Curator's threads). */
    private final class Answer implements BackgroundCallback, CountedRetries.Counted {
        private final ZnodeCall znode;
        private final MultiCall multi;
        private final Callback<Request> callback;
        private volatile int retries;

        Answer(Request request, Callback<Request> callback) {
            this.znode = request.znode;
            this.multi = request.multi;
            this.callback = callback;
        }

        @Override
        public void retried() {
            retries++; // NOSONAR one Curator thread at a time retries a call
        }

        @Override
        public void processResult(CuratorFramework curator, CuratorEvent event) {
            LimitedText text = limit > 0 ? new LimitedText(limit) : null;
            Outcome outcome;
            try {
                outcome = znode != null ? znode.answered(event, text) : multi.answered(event, text);
            } catch (RuntimeException e) {
                outcome = znode != null ? znode.failed(e) : multi.failed(e, true);
            }
            if (znode != null) {
                znode.count(outcome, tally);
            } else {
                multi.count(outcome, tally);
            }
            if (retries > 0) {
                tally.retried();
            }
            outcome = ZooKeeperErrors.retried(outcome, retries);
            boolean shown = text != null || !outcome.success();
            callback.complete(outcome, shown ? new Shown(znode != null ? znode.describe() : multi.describe(),
                    text == null ? null : text.toString()) : null);
        }
    }

    /** A request not sent because the ensemble is out of reach, or one that lost its connection. */
    @Override
    protected boolean unreachable(Outcome outcome) {
        return ZooKeeperErrors.unreachable(outcome);
    }

    @Override
    public Outcome timedOut(Request request) {
        String bound = settings.requestTimeoutMillis > 0
                ? "the request timeout of " + settings.requestTimeoutMillis + " ms"
                : "the " + settings.worstCaseMillis() + " ms the connection and retry settings allow";
        return Outcome.failed(KeeperException.Code.REQUESTTIMEOUT.name(), "no reply from " + settings.connectString
                + " within " + bound + " (ZooKeeper bounds only calls that wait; a request in flight gets the same "
                + "bound from its send)", request.sentBytes(), 0);
    }

    @Override
    public long timeoutNanos() {
        return timeoutNanos;
    }

    @Override
    public void close() {
        // the session is the connection element's (per thread: closed when the thread ends)
    }
}
