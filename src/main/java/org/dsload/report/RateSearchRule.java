package org.dsload.report;

import java.util.ArrayList;
import java.util.List;

import org.dsload.report.FindMaxReport.Step;

/**
 * The rule of every rate search in dsload ({@code dsload find-max}, a run at a time; the Rate Search
 * element, a step of one test at a time): from a start rate, double the rate step after step while
 * the limits are kept; then bisect between the highest rate that kept them and the lowest that broke
 * them, until the two lie within a resolution of each other, or one whole unit apart; at most
 * {@code maxSteps} steps in all. With {@link #confirmedBy} the answer's rate is run again before it is
 * given: a rate is kept only when none of its steps broke the limits, so a repeat that breaks them moves
 * the search below it (a step judged once can keep a limit by the luck of one window). One step at a
 * time: {@link #next()} gives the rate to try, the caller runs and judges a step at it and hands it
 * back with {@link #judged}, until {@link #next()} says NaN. Not thread-safe: one caller drives it.
 */
public final class RateSearchRule {
    /** How much each step raises the rate while the limits are kept. */
    public static final double FACTOR = 2;

    private final int maxSteps;
    private final double resolution;
    private final boolean wholeUnits;
    private final List<Step> steps = new ArrayList<>();
    private Step kept;
    private Step broken;
    private double next;
    private double ceiling = Double.POSITIVE_INFINITY;
    private double gap;
    private int repeats;

    /**
     * @param start      the first step's rate, above 0
     * @param maxSteps   at most this many steps in all, 1 at least
     * @param resolution bisect until the rates kept and broken lie within this share of the kept one
     *                   (0.1: 10 %), or one whole unit apart (0: to one unit, or the gap of {@link #within})
     */
    public RateSearchRule(double start, int maxSteps, double resolution) {
        this(start, maxSteps, resolution, false);
    }

    /**
     * As {@link #RateSearchRule(double, int, double)}; with {@code wholeUnits} every rate is a whole
     * number, at least 1 (domains, hosts, threads: a count rather than a rate).
     */
    public RateSearchRule(double start, int maxSteps, double resolution, boolean wholeUnits) {
        if (!(start > 0) || maxSteps < 1 || !(resolution >= 0)) {
            throw new IllegalArgumentException("start > 0, maxSteps >= 1 and resolution >= 0, got " + start + ", " + maxSteps
                    + ", " + resolution);
        }
        this.maxSteps = maxSteps;
        this.resolution = resolution;
        this.wholeUnits = wholeUnits;
        this.next = round(start);
    }

    /**
     * No step above {@code max}: doubling stops there, and a search whose step at {@code max} kept the
     * limits is over (the answer is at least {@code max}). Set before the first step is judged.
     */
    public RateSearchRule upTo(double max) {
        if (!(max >= next) || !steps.isEmpty()) {
            throw new IllegalArgumentException("the ceiling lies at or above the first rate (" + next
                    + ") and is set before the first step, got " + max);
        }
        ceiling = max;
        return this;
    }

    /** Bisect no further once the rates kept and broken lie within {@code units} of each other, too. */
    public RateSearchRule within(double units) {
        if (!(units >= 0)) {
            throw new IllegalArgumentException("a bisection gap lies at 0 or above, got " + units);
        }
        gap = units;
        return this;
    }

    /**
     * Before the search gives its answer, the answer's rate keeps the limits in {@code repeats} more
     * steps than the one that found it (0: none, the default); a repeat that breaks them makes the rate
     * a broken one, and the search goes on below it.
     */
    public RateSearchRule confirmedBy(int repeats) {
        if (repeats < 0 || !steps.isEmpty()) {
            throw new IllegalArgumentException("repeats lie at 0 or above and are set before the first step, got " + repeats);
        }
        this.repeats = repeats;
        return this;
    }

    /**
     * At most how many steps a search from {@code start} up to {@code max}, bisected to within
     * {@code units} (and one unit), can take: the doublings up to the ceiling, then the bisections.
     */
    public static int mostSteps(double start, double max, double units) {
        int doublings = 1;
        for (double rate = start; rate < max; rate *= FACTOR) {
            doublings++;
        }
        double width = Math.max(1, max - start);
        int bisections = 0;
        for (double w = width; w > Math.max(1, units); w /= 2) {
            bisections++;
        }
        return doublings + bisections;
    }

    /** The rate of the next step to run, or NaN when the search is over. */
    public double next() {
        return next;
    }

    /** Whether the search is over: the answer is known, or the steps ran out. */
    public boolean done() {
        return Double.isNaN(next);
    }

    /** The step run at {@link #next()}, judged; the rate after it follows from the rule. */
    public void judged(Step step) {
        if (done()) {
            throw new IllegalStateException("the search is over; no step was asked for");
        }
        steps.add(step);
        if (!step.kept() && (broken == null || step.rate() < broken.rate())) {
            broken = step;
        }
        // kept: the highest rate below every broken step (no step at it broke the limits)
        kept = null;
        for (Step s : steps) {
            if (s.kept() && (broken == null || s.rate() < broken.rate()) && (kept == null || s.rate() > kept.rate())) {
                kept = s;
            }
        }
        next = steps.size() >= maxSteps ? Double.NaN : following();
    }

    private double following() {
        if (kept == null) {
            return Double.NaN; // even the first step broke the limits
        }
        double found;
        if (broken == null) {
            found = kept.rate() >= ceiling ? Double.NaN : Math.min(ceiling, round(kept.rate() * FACTOR));
        } else {
            double low = kept.rate();
            double high = broken.rate();
            double mid = round((low + high) / 2);
            found = high - low <= Math.max(Math.max(1, gap), low * resolution) || mid <= low || mid >= high ? Double.NaN : mid;
        }
        return Double.isNaN(found) && keptAt(kept.rate()) <= repeats ? kept.rate() : found;
    }

    /** How many steps at {@code rate} kept the limits. */
    public int keptAt(double rate) {
        return (int) FindMaxReport.keptAt(steps, rate);
    }

    /** The steps judged, in the order they ran. */
    public List<Step> steps() {
        return List.copyOf(steps);
    }

    /** The highest-rate step that kept the limits, or null. */
    public Step kept() {
        return kept;
    }

    /** The lowest-rate step that broke them, or null. */
    public Step broken() {
        return broken;
    }

    /** The answer so far: the highest rate kept, whose limit broke above it and how to get past the generator's. */
    public FindMaxReport.Answer answer() {
        Step blamed = broken;
        String limitedBy = blamed == null ? null : blamed.generatorBound() ? FindMaxReport.GENERATOR : FindMaxReport.SERVER;
        String advice = blamed != null && blamed.generatorBound() ? Bottleneck.ADVICE : null;
        return new FindMaxReport.Answer(kept == null ? Double.NaN : kept.rate(), limitedBy,
                blamed == null ? null : blamed.broke(), advice);
    }

    private double round(double rate) {
        return wholeUnits ? Math.max(1, Math.round(rate)) : whole(rate);
    }

    /** A rate from 10 up as a whole number (rate properties are mostly read as whole numbers), below it to 0.01. */
    public static double whole(double rate) {
        return rate >= 10 ? Math.round(rate) : Math.round(rate * 100) / 100.0;
    }
}
