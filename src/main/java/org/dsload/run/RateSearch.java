package org.dsload.run;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.dsload.report.FindMaxReport;
import org.dsload.report.FindMaxReport.Step;

/**
 * The search of {@code dsload find-max}: from a start rate, double the rate step after step while
 * the limits are kept; then bisect between the highest rate that kept them and the lowest that broke
 * them, until the two lie within a resolution of each other. Every step is a call of a
 * {@link StepFunction} (a run of the plan), at most {@code maxSteps} in all.
 */
public final class RateSearch {
    /** How much each step raises the rate while the limits are kept. */
    public static final double FACTOR = 2;

    /** Runs one step at {@code rate} and judges it; {@code index} counts from 1. */
    @FunctionalInterface
    public interface StepFunction {
        Step run(int index, double rate) throws IOException, InterruptedException;
    }

    /**
     * The steps in the order they ran; {@code kept}, the highest-rate step that kept the limits, and
     * {@code broken}, the lowest that broke them (either null when none did); {@code stopped} when a
     * step function ended the search early by returning null (an interrupted run).
     */
    public record Result(List<Step> steps, Step kept, Step broken, boolean stopped) {
        /** The answer: the highest rate kept, whose limit ended the search and how to get past the generator's. */
        public FindMaxReport.Answer answer() {
            Step blamed = broken;
            String limitedBy = blamed == null ? null : blamed.generatorBound() ? FindMaxReport.GENERATOR : FindMaxReport.SERVER;
            String advice = blamed != null && blamed.generatorBound() ? Bottleneck.ADVICE : null;
            return new FindMaxReport.Answer(kept == null ? Double.NaN : kept.rate(), limitedBy,
                    blamed == null ? null : blamed.broke(), advice);
        }
    }

    private RateSearch() {
    }

    /**
     * @param start      the first step's rate, above 0
     * @param maxSteps   at most this many steps in all
     * @param resolution bisect until the rates kept and broken lie within this share of the kept one
     *                   (0.1: 10 %), or one whole request apart
     */
    public static Result search(double start, int maxSteps, double resolution, StepFunction steps)
            throws IOException, InterruptedException {
        if (!(start > 0) || maxSteps < 1 || !(resolution > 0)) {
            throw new IllegalArgumentException("start > 0, maxSteps >= 1 and resolution > 0, got " + start + ", " + maxSteps
                    + ", " + resolution);
        }
        List<Step> done = new ArrayList<>();
        Step kept = null;
        Step broken = null;
        double rate = start;
        while (done.size() < maxSteps) {
            Step step = steps.run(done.size() + 1, rate);
            if (step == null) {
                return new Result(done, kept, broken, true);
            }
            done.add(step);
            if (!step.kept()) {
                broken = step;
                break;
            }
            kept = step;
            rate = whole(rate * FACTOR);
        }
        while (kept != null && broken != null && done.size() < maxSteps) {
            double low = kept.rate();
            double high = broken.rate();
            double mid = whole((low + high) / 2);
            if (high - low <= Math.max(1, low * resolution) || mid <= low || mid >= high) {
                break;
            }
            Step step = steps.run(done.size() + 1, mid);
            if (step == null) {
                return new Result(done, kept, broken, true);
            }
            done.add(step);
            if (step.kept()) {
                kept = step;
            } else {
                broken = step;
            }
        }
        return new Result(done, kept, broken, false);
    }

    /** A rate from 10 up as a whole number (rate properties are mostly read as whole numbers), below it to 0.01. */
    static double whole(double rate) {
        return rate >= 10 ? Math.round(rate) : Math.round(rate * 100) / 100.0;
    }
}
