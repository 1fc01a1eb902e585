package org.dsload.core.inflight;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;

import org.apache.jmeter.samplers.Sampler;
import org.dsload.core.ArrivalSource;
import org.dsload.core.BatchResult;
import org.dsload.core.Completion;
import org.dsload.core.GiveUp;
import org.dsload.core.IntendedStart;
import org.dsload.core.Outcome;
import org.dsload.core.RequestsResult;
import org.dsload.core.format.JtlColumns;

/**
 * One sampler clone's requests in flight as its samples see them: the window, paced by the
 * arrival element in scope (if any) and ending at the thread's end time, and the rows left when
 * the thread stops, which go to the thread's listeners. Every row, those of the thread's end too,
 * is seen by the sampler's {@code account} (what it notes of the requests) and, made a result,
 * by its {@code finish} (what it sets on every row).
 */
public final class SamplerWindow<R extends InFlightRequest> implements InFlightCall {
    private static final Consumer<List<Completion>> NOTHING_TO_NOTE = row -> {
    };
    private static final Consumer<RequestsResult> NOTHING_TO_SET = result -> {
    };

    static {
        // The row the measured window starts in, part warm-up and part measured, comes once per thread and
        // after C2 compiled the sample path from the warm-up's rows, none of which straddled. Where code C2
        // never saw run needs a class or a call site not yet resolved (the parts' lists, the warm-up label's
        // concatenation), C2 compiles a trap, and at the window's start that trap threw the compiled sample
        // path away: the arrivals thread ran interpreted code as the measured arrivals came. At 82,000 Redis
        // GETs/s, 3 of the 4 runs whose compiled path was thrown away there had 0.19-0.95 % of the measured
        // arrivals late, none of the 3 whose path stayed. So the straddling split and the label run once here,
        // on made-up requests.
        Outcome none = Outcome.ok("", "", 0, 0);
        split(List.of(new Completion(0, 0, 0, 0, 1, none), new Completion(2, 2, 2, 0, 1, none)), 1);
        warmUpLabel("");
    }

    private final InFlightWindow<R> window;
    private final LeftoverRows leftovers = new LeftoverRows();
    private final InFlightWindow.Preparer<R> preparer;
    private final Consumer<List<Completion>> account;
    private final Consumer<RequestsResult> finish;
    /** A counted run is under way: the next sample goes on with it rather than starting one. */
    private boolean counting;
    /** The arrivals last offered, asked where their measured window starts; null: none offered. */
    private ArrivalSource source;

    /** @param preparer fills each request on the sampler's thread */
    public SamplerWindow(int places, Transport<R> transport, InFlightWindow.Preparer<R> preparer) {
        this(places, transport, preparer, NOTHING_TO_NOTE, NOTHING_TO_SET);
    }

    public SamplerWindow(int places, Transport<R> transport, InFlightWindow.Preparer<R> preparer,
            Consumer<RequestsResult> finish) {
        this(places, transport, preparer, NOTHING_TO_NOTE, finish);
    }

    public SamplerWindow(int places, Transport<R> transport, InFlightWindow.Preparer<R> preparer,
            Consumer<List<Completion>> account, Consumer<RequestsResult> finish) {
        this.window = new InFlightWindow<>(places, transport);
        this.preparer = preparer;
        this.account = account;
        this.finish = finish;
    }

    /**
     * Sends what there is room for and returns the next row of requests that ended, noted by
     * {@code account} and set by {@code finish}.
     *
     * @return the row, or null when the thread has nothing more to send (its schedule ended)
     */
    public RequestsResult sample(Sampler sampler, String label) {
        leftovers.remember();
        ArrivalSource offered = IntendedStart.takeOffer(sampler);
        if (offered != null) {
            source = offered;
        }
        window.pace(offered, IntendedStart.threadEndNanos());
        List<Completion> row = window.next(preparer);
        if (row.isEmpty()) {
            return null;
        }
        account.accept(row);
        Split split = split(row);
        if (split.warmUp().isEmpty() || split.measured().isEmpty()) {
            return finished(BatchResult.of(split.warmUp().isEmpty() ? label : warmUpLabel(label), row));
        }
        // the row the measured window starts in: its warm-up part goes to the listeners first, apart
        leftovers.deliver(finished(BatchResult.of(warmUpLabel(label), split.warmUp())));
        return finished(BatchResult.of(label, split.measured()));
    }

    /**
     * A row's requests meant for the schedule's warm-up, and the others, each part in the row's order; a part
     * that would hold the whole row is the row itself, the other part empty.
     */
    private record Split(List<Completion> warmUp, List<Completion> measured) {
    }

    private Split split(List<Completion> row) {
        ArrivalSource s = source;
        return split(row, s == null ? ArrivalSource.NO_WARM_UP : s.measuredFromNanos());
    }

    private static Split split(List<Completion> row, long measuredFrom) {
        int warm = 0;
        if (measuredFrom != ArrivalSource.NO_WARM_UP) {
            for (Completion c : row) {
                warm += ArrivalSource.warmUp(c.intendedNanos(), measuredFrom) ? 1 : 0;
            }
        }
        if (warm == 0 || warm == row.size()) {
            return warm == 0 ? new Split(List.of(), row) : new Split(row, List.of());
        }
        List<Completion> warmUp = new ArrayList<>(warm);
        List<Completion> measured = new ArrayList<>(row.size() - warm);
        for (Completion c : row) {
            (ArrivalSource.warmUp(c.intendedNanos(), measuredFrom) ? warmUp : measured).add(c);
        }
        return new Split(warmUp, measured);
    }

    /** The label of a row's warm-up requests; one concatenation, so one call site to link. */
    private static String warmUpLabel(String label) {
        return label + JtlColumns.WARM_UP_SUFFIX;
    }

    private RequestsResult finished(RequestsResult result) {
        finish.accept(result);
        return result;
    }

    /**
     * A sample of {@code requests} requests (a counted run): sends them, up to the window's places
     * at once, and returns when the last has ended, with the last row; the rows before go to the
     * thread's listeners as they come (the results file, the summariser, a master), as JMeter
     * would give them a sample's result. A row that {@code returnsNow} (such as one that stops the
     * test) is returned at once; the run then goes on at the next sample, unless the test stopped
     * or the thread's end came.
     *
     * @param requests at least 1
     * @return the last row, or null when nothing ended (the thread's schedule ended first)
     */
    public RequestsResult sampleCounted(Sampler sampler, String label, long requests,
            Predicate<RequestsResult> returnsNow) {
        if (!counting) {
            window.count(requests);
            counting = true;
        }
        while (true) {
            RequestsResult row = sample(sampler, label);
            if (row == null || window.countEnded() || window.halted()) {
                counting = false;
                return row;
            }
            if (returnsNow.test(row) || GiveUp.check(row)) {
                return row;
            }
            leftovers.deliver(row);
        }
    }

    @Override
    public void stop() {
        window.requestStop();
    }

    @Override
    public void close(String label) {
        List<List<Completion>> rows = window.drain();
        rows.forEach(account);
        for (List<Completion> row : rows) {
            Split split = split(row);
            if (!split.warmUp().isEmpty()) {
                leftovers.deliver(warmUpLabel(label), List.of(split.warmUp()), finish);
            }
            if (!split.measured().isEmpty()) {
                leftovers.deliver(label, List.of(split.measured()), finish);
            }
        }
    }
}
