package org.dsload.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Where a schedule stands: which faults wait, which are in force, which are over, and what
 * happens next and when. Times are epoch milliseconds; a fault whose start depends on something
 * that has not happened yet (an earlier fault still running, a trigger not fired) has no time yet.
 */
public final class Timeline {
    public static final long UNKNOWN = Long.MAX_VALUE;

    enum State { WAITING, APPLIED, OVER }

    /** The next thing to do: apply or revert one fault, due at a time (UNKNOWN when it waits on a trigger). */
    public record Event(boolean apply, PlannedFault fault, long due) {
    }

    private final List<PlannedFault> faults;
    private final long origin;
    private final State[] states;
    private final long[] appliedAt;
    private final long[] endedAt;

    public Timeline(List<PlannedFault> faults, long origin) {
        this.faults = List.copyOf(faults);
        this.origin = origin;
        this.states = new State[faults.size()];
        this.appliedAt = new long[faults.size()];
        this.endedAt = new long[faults.size()];
        java.util.Arrays.fill(states, State.WAITING);
    }

    /**
     * @param triggerFired when a trigger fired (epoch ms), or null if it has not
     * @return the next event, or null when every fault is over
     */
    public Event next(Function<String, Long> triggerFired) {
        Event best = null;
        for (int i = 0; i < faults.size(); i++) {
            PlannedFault f = faults.get(i);
            Event e = switch (states[i]) {
                case WAITING -> new Event(true, f, startTime(f, triggerFired));
                case APPLIED -> new Event(false, f, appliedAt[i] + f.durationMillis());
                case OVER -> null;
            };
            if (e != null && (best == null || e.due() < best.due())) {
                best = e;
            }
        }
        return best;
    }

    private long startTime(PlannedFault f, Function<String, Long> triggerFired) {
        StartSpec s = f.start();
        return switch (s.kind()) {
            case OFFSET -> origin + s.offsetMillis();
            case AFTER -> states[s.afterFault() - 1] == State.OVER ? endedAt[s.afterFault() - 1] + s.offsetMillis() : UNKNOWN;
            case TRIGGER -> {
                Long fired = triggerFired.apply(s.trigger());
                yield fired == null ? UNKNOWN : fired + s.offsetMillis();
            }
        };
    }

    public void applied(PlannedFault f, long at) {
        int i = f.number() - 1;
        states[i] = f.instant() ? State.OVER : State.APPLIED;
        appliedAt[i] = at;
        endedAt[i] = at;
    }

    public void over(PlannedFault f, long at) {
        states[f.number() - 1] = State.OVER;
        endedAt[f.number() - 1] = at;
    }

    /** When the last fault ended (epoch ms), or the origin when none has. */
    public long lastEnd() {
        long last = origin;
        for (int i = 0; i < faults.size(); i++) {
            if (states[i] == State.OVER) {
                last = Math.max(last, endedAt[i]);
            }
        }
        return last;
    }

    /** Faults in force now. */
    public List<PlannedFault> inForce() {
        List<PlannedFault> list = new ArrayList<>();
        for (int i = 0; i < faults.size(); i++) {
            if (states[i] == State.APPLIED) {
                list.add(faults.get(i));
            }
        }
        return list;
    }

    /** Faults not applied yet. */
    public List<PlannedFault> waiting() {
        List<PlannedFault> list = new ArrayList<>();
        for (int i = 0; i < faults.size(); i++) {
            if (states[i] == State.WAITING) {
                list.add(faults.get(i));
            }
        }
        return list;
    }

    /** Marks every fault still waiting as over without applying it (the load ended first). */
    public void skipWaiting(long at) {
        for (int i = 0; i < faults.size(); i++) {
            if (states[i] == State.WAITING) {
                states[i] = State.OVER;
                endedAt[i] = at;
            }
        }
    }
}
