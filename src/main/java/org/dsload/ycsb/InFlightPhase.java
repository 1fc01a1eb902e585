package org.dsload.ycsb;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.concurrent.CompletionStage;

import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.samplers.Sampler;
import org.dsload.core.ArrivalSource;
import org.dsload.core.BatchResult;
import org.dsload.core.Completion;
import org.dsload.core.IntendedStart;
import org.dsload.core.Outcome;
import org.dsload.core.RequestsResult;
import org.dsload.core.Unrecoverable;
import org.dsload.core.inflight.CallbackTransport;
import org.dsload.core.inflight.InFlightCall;
import org.dsload.core.inflight.InFlightRequest;
import org.dsload.core.inflight.InFlightWindow;
import org.dsload.core.inflight.LeftoverRows;

/**
 * A YCSB phase with operations in flight: the thread keeps up to N operations outstanding
 * through an {@link AsyncYcsbBinding}, each timed on its own, and each sample returns the ones
 * that ended, as one row of one operation and one outcome (rows of other operations wait for the
 * next samples). The phase ends like a blocking one: the load phase when every record is claimed,
 * the run phase at the operation count, both once the last operation outstanding has ended. A
 * failed load insert with a retry left ({@link InsertionRetry}) is a row of its own and is sent
 * again once its interval has passed, the records not yet claimed going on meanwhile; one with no
 * retry left stops the test, and so does an unrecoverable error of the run phase when the sampler
 * says so. Whatever is outstanding when the thread ends is cancelled and reported.
 */
public final class InFlightPhase implements InFlightCall {
    private final WorkloadRun run;
    private final Workload workload;
    private final boolean load;
    private final boolean stopOnUnrecoverable;
    private final String element;
    private final Sampler sampler;
    private final AsyncYcsbBinding binding;
    private final SplittableRandom random;
    private final InFlightWindow<Request> window;
    private final PhaseArrivals arrivals;
    private final LeftoverRows leftovers = new LeftoverRows();
    /** Rows already ended, of other operations than the row returned last, each returned by a sample of its own. */
    private final ArrayDeque<Row> queued = new ArrayDeque<>();
    private final InFlightWindow.Preparer<Request> preparer;

    /**
     * @param sampler the YCSB Operation whose thread this is (its offered arrival schedule paces the operations)
     */
    public InFlightPhase(WorkloadRun run, AsyncYcsbBinding binding, PhaseRunner runner, boolean load, int inFlight,
            boolean stopOnUnrecoverable, Sampler sampler, String element) {
        this.run = run;
        this.workload = run.workload();
        this.binding = binding;
        this.load = load;
        this.stopOnUnrecoverable = stopOnUnrecoverable;
        this.sampler = sampler;
        this.element = element;
        this.random = runner.random();
        this.arrivals = new PhaseArrivals(load ? workload::nextLoadRecord : () -> workload.claimOperation() ? 0 : -1);
        this.window = new InFlightWindow<>(inFlight, new Transport());
        // the phase's work is shared by its threads: one that finds none left ends at once
        window.workEndsWithArrivals();
        this.preparer = request -> {
            DrawnOperation retry = arrivals.claimedRetry();
            request.op = retry != null ? retry : load ? DrawnOperation.load(workload, arrivals.claimed(), random)
                    : DrawnOperation.draw(workload, random);
        };
    }

    /** The next row, or a result that ends the thread when the phase has nothing left. */
    public SampleResult sample() {
        if (queued.isEmpty()) {
            leftovers.remember();
            if (arrivals.ended() && window.outstanding() == 0) {
                // nothing left to send or wait for: hand back what has ended, then end the thread
                window.pace(arrivals, System.nanoTime());
            } else {
                window.pace(arrivals.offered(IntendedStart.takeOffer(sampler)), IntendedStart.threadEndNanos());
            }
            List<Completion> ended = window.next(preparer);
            if (ended.isEmpty()) {
                return PhaseRunner.finished();
            }
            queue(ended, true);
        }
        return row(queued.poll());
    }

    /**
     * A row to return: requests of one operation and outcome, and for a failed load insert tried
     * again (a row of its own), what its message adds.
     */
    private record Row(List<Completion> requests, String retried) {
    }

    /**
     * Acknowledges the inserts among {@code ended}, schedules the retries of the failed load inserts
     * that have retries left, and queues the requests as rows of one operation each (a failed load
     * insert: a row of its own).
     *
     * @param retrying false when the thread ends: nothing is tried again
     */
    private void queue(List<Completion> ended, boolean retrying) {
        Map<String, List<Completion>> byLabel = new LinkedHashMap<>();
        for (Completion c : ended) {
            DrawnOperation op = (DrawnOperation) c.detail();
            if (op.record() >= 0) {
                workload.acknowledgeInsert(op.record());
            }
            if (load && !c.outcome().success()) {
                queued.add(new Row(List.of(c), retrying ? retry(op, c.outcome()) : null));
            } else {
                byLabel.computeIfAbsent(op.label(), k -> new ArrayList<>(ended.size())).add(c);
            }
        }
        byLabel.values().forEach(row -> queued.add(new Row(row, null)));
    }

    /** Schedules the failed insert's next attempt if it has a retry left; what its row's message adds, or null. */
    private String retry(DrawnOperation failed, Outcome outcome) {
        InsertionRetry.Next next = InsertionRetry.next(workload.spec(), failed, outcome);
        if (next == null) {
            return null;
        }
        arrivals.retryLater(next.insert(), next.dueNanos());
        return next.message();
    }

    private SampleResult row(Row queuedRow) {
        List<Completion> row = queuedRow.requests();
        DrawnOperation first = (DrawnOperation) row.get(0).detail();
        RequestsResult result = BatchResult.of(first.label(), row);
        describe(result);
        Outcome outcome = row.get(0).outcome();
        if (queuedRow.retried() != null) {
            result.setResponseMessage(queuedRow.retried());
        } else if (!outcome.success()) {
            if (load) {
                PhaseRunner.loadFailed(result, element, InsertionRetry.failedAt(workload.spec(), first), outcome);
            } else {
                Unrecoverable.stopIf(result, outcome, binding::unrecoverable, stopOnUnrecoverable, element);
            }
        }
        return result;
    }

    /** The row's sampler data: its first operation, and how many more it holds. */
    private static void describe(RequestsResult result) {
        List<Completion> row = result.requests();
        String request = ((DrawnOperation) row.get(0).detail()).describe();
        result.setSamplerData(request + BatchResult.andMore(row, " ", "operations"));
    }

    @Override
    public void stop() {
        window.requestStop();
    }

    /**
     * The thread ends: outstanding operations are cancelled, and every row left is reported under
     * its operation's label (the sampler's name, {@code label}, is not one).
     */
    @Override
    public void close(String label) {
        for (List<Completion> ended : window.drain()) {
            queue(ended, false);
        }
        while (!queued.isEmpty()) {
            List<Completion> row = queued.poll().requests();
            leftovers.deliver(((DrawnOperation) row.get(0).detail()).label(), List.of(row), InFlightPhase::describe);
        }
    }

    /** An operation on its way. */
    private static final class Request extends InFlightRequest {
        DrawnOperation op;

        @Override
        protected Object unanswered() {
            return op;
        }
    }

    /** Hands each operation to the binding; the binding's stage completes on the client's thread. */
    private final class Transport extends CallbackTransport<Request> {
        @Override
        public Request newRequest() {
            return new Request();
        }

        @Override
        protected void start(Request request, Callback<Request> callback) {
            DrawnOperation op = request.op;
            CompletionStage<Outcome> sent = op.send(binding);
            sent.whenComplete((outcome, error) -> callback.complete(outcome, op));
        }

        @Override
        protected boolean unreachable(Outcome outcome) {
            return binding.unreachable(outcome);
        }

        @Override
        public Outcome timedOut(Request request) {
            return binding.timedOut();
        }

        @Override
        public long timeoutNanos() {
            return binding.backstopNanos();
        }

        @Override
        public void close() {
            binding.release();
        }
    }

    /**
     * The thread's arrivals: those of the offered schedule, or one whenever a place is free, for
     * as long as the phase has work: a record to load, an operation left of the operation count, a
     * failed insert to try again. A retry whose time has come is claimed before a new record; while
     * retries wait and no record is left, there is no arrival until the first is due.
     */
    private static final class PhaseArrivals implements ArrivalSource {
        private static final Arrival NOW = new Arrival(org.dsload.core.Completion.UNSCHEDULED, 0);

        /** An insert to send again from {@code dueNanos} on. */
        private record Retry(DrawnOperation insert, long dueNanos) {
        }

        /** Claims the next unit of work: a record number, 0 for an operation, or -1 when none is left. */
        private final java.util.function.LongSupplier claim;
        private final PriorityQueue<Retry> retries = new PriorityQueue<>(Comparator.comparingLong(Retry::dueNanos));
        private ArrivalSource offered;
        /** The offered schedule has no arrival left for this thread. */
        private boolean scheduleEnded;
        /** No new work is left to claim. */
        private boolean claimsEnded;
        private long claimed = -1;
        private DrawnOperation claimedRetry;

        PhaseArrivals(java.util.function.LongSupplier claim) {
            this.claim = claim;
        }

        PhaseArrivals offered(ArrivalSource source) {
            this.offered = source;
            return this;
        }

        /** No arrival is left: none in the schedule, or no work to claim and no retry waiting. */
        boolean ended() {
            return scheduleEnded || claimsEnded && retries.isEmpty();
        }

        /** The record claimed with the arrival being sent. */
        long claimed() {
            return claimed;
        }

        /** The insert tried again with the arrival being sent, or null for new work. */
        DrawnOperation claimedRetry() {
            return claimedRetry;
        }

        /** Hands an insert back, to be sent again from {@code dueNanos} on (a source that had ended resumes). */
        void retryLater(DrawnOperation insert, long dueNanos) {
            retries.add(new Retry(insert, dueNanos));
        }

        @Override
        public Arrival take(long nowNanos) {
            if (ended()) {
                return null;
            }
            Retry first = retries.peek();
            boolean retryDue = first != null && nowNanos - first.dueNanos() >= 0;
            if (claimsEnded && !retryDue) {
                return null; // none until the first retry is due
            }
            Arrival next = offered == null ? NOW : offered.take(nowNanos);
            if (next == null) {
                scheduleEnded = true;
                return null;
            }
            if (retryDue) {
                claimedRetry = retries.poll().insert();
                return next;
            }
            claimedRetry = null;
            claimed = claim.getAsLong();
            if (claimed < 0) {
                claimsEnded = true;
                return null;
            }
            return next;
        }

        @Override
        public long resumesAtNanos() {
            Retry first = retries.peek();
            return ended() || first == null ? Long.MAX_VALUE : first.dueNanos();
        }
    }
}
