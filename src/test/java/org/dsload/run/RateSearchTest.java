package org.dsload.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.dsload.report.Bottleneck;
import org.dsload.report.FindMaxReport;
import org.dsload.report.FindMaxReport.Step;
import org.junit.jupiter.api.Test;

/** The search of find-max against a step function whose limit is known: doubling, then bisection. */
class RateSearchTest {

    /** A step that keeps the limits up to {@code limit} and breaks them above; the server's or the generator's. */
    private static RateSearch.StepFunction limitAt(double limit, boolean generator) {
        return (index, rate) -> {
            boolean kept = rate <= limit;
            return new Step(index, rate, rate, 0, 100, 200, 300, 0, 1000, 0.2, kept, kept ? null : "p99 above the limit",
                    !kept && generator, "step-" + index);
        };
    }

    private static List<Double> rates(RateSearch.Result r) {
        return r.steps().stream().map(Step::rate).toList();
    }

    @Test
    void doublesWhileKeptThenBisectsToTheResolution() throws Exception {
        RateSearch.Result r = RateSearch.search(1000, 20, 0.1, limitAt(5000, false));
        assertEquals(List.of(1000.0, 2000.0, 4000.0, 8000.0, 6000.0, 5000.0, 5500.0), rates(r));
        assertEquals(5000, r.kept().rate());
        assertEquals(5500, r.broken().rate());
        FindMaxReport.Answer answer = r.answer();
        assertEquals(5000, answer.rate());
        assertEquals(FindMaxReport.SERVER, answer.limitedBy());
        assertEquals("p99 above the limit", answer.broke());
        assertNull(answer.advice());
        assertFalse(r.stopped());
    }

    @Test
    void theAnswerLiesWithinTheResolutionBelowTheTrueLimit() throws Exception {
        for (double limit : new double[] {137, 999, 1001, 3333, 77_777}) {
            RateSearch.Result r = RateSearch.search(100, 30, 0.05, limitAt(limit, false));
            double answer = r.answer().rate();
            assertTrue(answer <= limit && answer >= limit * 0.95 - 1, limit + " -> " + answer + " " + rates(r));
            assertTrue(r.broken().rate() > limit);
        }
    }

    @Test
    void aBrokenFirstStepHasNoAnswer() throws Exception {
        RateSearch.Result r = RateSearch.search(1000, 10, 0.1, limitAt(500, true));
        assertEquals(List.of(1000.0), rates(r));
        FindMaxReport.Answer answer = r.answer();
        assertFalse(answer.found());
        assertEquals(FindMaxReport.GENERATOR, answer.limitedBy());
        assertEquals(Bottleneck.ADVICE, answer.advice());
    }

    @Test
    void theStepsAreBoundedAndNoBreakMeansNoLimitFound() throws Exception {
        RateSearch.Result r = RateSearch.search(10, 4, 0.1, limitAt(1e9, false));
        assertEquals(List.of(10.0, 20.0, 40.0, 80.0), rates(r));
        assertEquals(80, r.answer().rate());
        assertNull(r.answer().broke());
        assertNull(r.answer().limitedBy());

        RateSearch.Result bisecting = RateSearch.search(1000, 5, 0.01, limitAt(5000, false));
        assertEquals(5, bisecting.steps().size(), "the bisection stops at the step limit too");
        assertEquals(List.of(1000.0, 2000.0, 4000.0, 8000.0, 6000.0), rates(bisecting));
        assertEquals(4000, bisecting.answer().rate(), "the highest kept when the steps ran out: 6000 broke");
    }

    @Test
    void anInterruptedStepEndsTheSearchWithTheStepsSoFar() throws Exception {
        RateSearch.StepFunction steps = (index, rate) -> index == 3 ? null : limitAt(1e9, false).run(index, rate);
        RateSearch.Result r = RateSearch.search(100, 10, 0.1, steps);
        assertTrue(r.stopped());
        assertEquals(List.of(100.0, 200.0), rates(r));
        assertEquals(200, r.answer().rate());
    }

    @Test
    void smallRatesKeepTwoDecimalsLargeOnesAreWhole() {
        assertEquals(0.75, org.dsload.report.RateSearchRule.whole(0.75));
        assertEquals(1235, org.dsload.report.RateSearchRule.whole(1234.6));
    }
}
