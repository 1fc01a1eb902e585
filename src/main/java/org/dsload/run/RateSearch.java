package org.dsload.run;

import java.io.IOException;
import java.util.List;

import org.dsload.report.FindMaxReport;
import org.dsload.report.FindMaxReport.Step;
import org.dsload.report.RateSearchRule;

/**
 * The search of {@code dsload find-max}: the rule of {@link RateSearchRule} (double while the limits
 * are kept, then bisect), each step a call of a {@link StepFunction} (a run of the plan).
 */
public final class RateSearch {
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
    public record Result(List<Step> steps, Step kept, Step broken, boolean stopped, FindMaxReport.Answer answer) {
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
        return search(new RateSearchRule(start, maxSteps, resolution), steps);
    }

    /** The search by {@code rule} (a new one), each step a call of {@code steps}. */
    public static Result search(RateSearchRule rule, StepFunction steps) throws IOException, InterruptedException {
        boolean stopped = false;
        while (!rule.done()) {
            Step step = steps.run(rule.steps().size() + 1, rule.next());
            if (step == null) {
                stopped = true;
                break;
            }
            rule.judged(step);
        }
        return new Result(rule.steps(), rule.kept(), rule.broken(), stopped, rule.answer());
    }
}
