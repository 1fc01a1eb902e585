package org.dsload.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.dsload.report.FindMaxReport.Step;
import org.junit.jupiter.api.Test;

/** The one rule of every rate search, a step at a time: kept and broken sequences, the step limit, the resolution. */
class RateSearchRuleTest {

    private static Step step(int index, double rate, boolean kept) {
        return new Step(index, rate, rate, 0, 10, 20, 30, 0, 100, 0.1, kept, kept ? null : "p99 above the limit", false,
                "");
    }

    /** The rates the rule asks for when the steps keep the limits as {@code kept} says, in order, until it is done. */
    private static List<Double> asked(RateSearchRule rule, boolean... kept) {
        List<Double> rates = new ArrayList<>();
        for (boolean k : kept) {
            assertFalse(rule.done(), "asked for more steps than the rule wanted: " + rates);
            rates.add(rule.next());
            rule.judged(step(rates.size(), rule.next(), k));
        }
        return rates;
    }

    @Test
    void doublesWhileKeptThenBisectsBetweenTheLastKeptAndTheFirstBroken() {
        RateSearchRule rule = new RateSearchRule(1000, 20, 0.1);
        assertEquals(List.of(1000.0, 2000.0, 4000.0, 8000.0, 6000.0, 5000.0, 5500.0),
                asked(rule, true, true, true, false, false, true, false));
        assertTrue(rule.done(), "5000 kept, 5500 broken: within 10 %");
        assertTrue(Double.isNaN(rule.next()));
        assertEquals(5000, rule.answer().rate());
        assertEquals(5500, rule.broken().rate());
        assertEquals(FindMaxReport.SERVER, rule.answer().limitedBy());
        assertEquals(7, rule.steps().size());
    }

    @Test
    void aRepeatOfTheAnswerThatBreaksTheLimitsMovesTheSearchBelowIt() {
        // 4500 kept, 4750 broke: 4500's repeat breaks, so 4500 is a broken rate; the search goes on below it
        RateSearchRule rule = new RateSearchRule(1000, 20, 0.1).confirmedBy(1);
        assertEquals(List.of(1000.0, 2000.0, 4000.0, 8000.0, 6000.0, 5000.0, 4500.0, 4750.0, 4500.0, 4250.0, 4250.0),
                asked(rule, true, true, true, false, false, false, true, false, false, true, true));
        assertTrue(rule.done(), "4250 kept twice, 4500 broken: within 10 %");
        assertEquals(4250, rule.answer().rate());
        assertEquals(4500, rule.broken().rate());
        assertEquals(2, rule.keptAt(4250));
        assertEquals(1, rule.keptAt(4500), "the first step at 4500 kept; the rate is broken all the same");

        // a repeat that keeps them ends the search at once
        RateSearchRule confirmed = new RateSearchRule(1000, 20, 1.0).confirmedBy(2);
        assertEquals(List.of(1000.0, 2000.0, 1000.0, 1000.0), asked(confirmed, true, false, true, true));
        assertTrue(confirmed.done());
        assertEquals(1000, confirmed.answer().rate());

        // a search at its ceiling repeats its answer too; the repeats count among the steps
        RateSearchRule ceiling = new RateSearchRule(10, 3, 0.1).confirmedBy(1).upTo(20);
        assertEquals(List.of(10.0, 20.0, 20.0), asked(ceiling, true, true, true));
        assertTrue(ceiling.done());
        RateSearchRule short_ = new RateSearchRule(10, 2, 0.1).confirmedBy(1);
        asked(short_, true, false);
        assertTrue(short_.done(), "the steps ran out: the answer stands on one step");
        assertEquals(10, short_.answer().rate());
        assertThrows(IllegalArgumentException.class, () -> new RateSearchRule(10, 2, 0.1).confirmedBy(-1));
    }

    @Test
    void aBrokenFirstStepEndsTheSearchWithoutAnAnswer() {
        RateSearchRule rule = new RateSearchRule(300, 10, 0.1);
        asked(rule, false);
        assertTrue(rule.done());
        assertFalse(rule.answer().found());
        assertEquals("p99 above the limit", rule.answer().broke());
    }

    @Test
    void theStepLimitEndsDoublingAndBisection() {
        RateSearchRule doubling = new RateSearchRule(10, 4, 0.1);
        assertEquals(List.of(10.0, 20.0, 40.0, 80.0), asked(doubling, true, true, true, true));
        assertTrue(doubling.done());
        assertEquals(80, doubling.answer().rate());
        assertNull(doubling.answer().broke(), "nothing broke: no limit found");

        RateSearchRule bisecting = new RateSearchRule(1000, 5, 0.01);
        asked(bisecting, true, true, true, false, false);
        assertTrue(bisecting.done());
        assertEquals(4000, bisecting.answer().rate());
        assertEquals(6000, bisecting.broken().rate());
    }

    @Test
    void theResolutionAndWholeUnitsEndTheBisection() {
        // domains, hosts: whole units; 4 kept and 5 broken are one apart, whatever the resolution
        RateSearchRule units = new RateSearchRule(1, 20, 0.001);
        assertEquals(List.of(1.0, 2.0, 4.0, 8.0, 6.0, 5.0), asked(units, true, true, true, false, false, false));
        assertTrue(units.done());
        assertEquals(4, units.answer().rate());

        RateSearchRule coarse = new RateSearchRule(1000, 20, 1.0);
        asked(coarse, true, false);
        assertTrue(coarse.done(), "1000 kept, 2000 broken: within 100 % of 1000");
    }

    @Test
    void ratesAreWholeFromTenUpAndStartIsChecked() {
        RateSearchRule rule = new RateSearchRule(0.75, 20, 0.1);
        assertEquals(List.of(0.75, 1.5, 3.0, 6.0, 12.0, 9.0), asked(rule, true, true, true, true, false, false));
        assertEquals(7.5, rule.next(), "between 6 kept and 9 broken");
        assertEquals(1235, RateSearchRule.whole(1234.6));
        assertThrows(IllegalArgumentException.class, () -> new RateSearchRule(0, 5, 0.1));
        assertThrows(IllegalArgumentException.class, () -> new RateSearchRule(5, 0, 0.1));
        RateSearchRule over = new RateSearchRule(5, 1, 0.1);
        over.judged(step(1, 5, true));
        assertThrows(IllegalStateException.class, () -> over.judged(step(2, 10, true)));
    }

    @Test
    void wholeUnitsAreCountsOfOneAtLeast() {
        // domains or hosts: 7.5 domains cannot run; the bisection rounds to whole ones and ends one apart
        RateSearchRule domains = new RateSearchRule(3, 20, 0.01, true);
        assertEquals(List.of(3.0, 6.0, 12.0, 9.0, 8.0, 7.0), asked(domains, true, true, false, false, false, false));
        assertTrue(domains.done());
        assertEquals(6, domains.answer().rate());
        assertEquals(1, new RateSearchRule(0.3, 5, 0.1, true).next(), "a count of one at least");
    }

    @Test
    void aCeilingCapsTheDoublingAndAGapEndsTheBisection() {
        // domains from 5 up to 20, to within 5: 5, 10, 20 (the ceiling, not 40), then 15
        RateSearchRule capped = new RateSearchRule(5, 20, 0, true).upTo(20).within(5);
        assertEquals(List.of(5.0, 10.0, 20.0, 15.0), asked(capped, true, true, false, true));
        assertTrue(capped.done(), "15 kept and 20 broken lie 5 apart");
        assertEquals(15, capped.answer().rate());
        RateSearchRule all = new RateSearchRule(5, 20, 0, true).upTo(12).within(1);
        assertEquals(List.of(5.0, 10.0, 12.0), asked(all, true, true, true));
        assertTrue(all.done(), "the ceiling kept: the answer is at least it");
        assertNull(all.answer().broke());
        RateSearchRule one = new RateSearchRule(7, 20, 0, true).upTo(7);
        assertEquals(List.of(7.0), asked(one, true));
        assertTrue(one.done(), "a search of one count is one step");
        assertThrows(IllegalArgumentException.class, () -> new RateSearchRule(5, 20, 0.1).upTo(4));
    }

    @Test
    void mostStepsBoundsEverySearchUpToTheCeiling() {
        assertEquals(1, RateSearchRule.mostSteps(7, 7, 1));
        for (int start : new int[] {1, 3, 5, 10}) {
            for (int max : new int[] {start, start + 1, 20, 33, 100}) {
                for (int gap : new int[] {1, 2, 5}) {
                    int bound = RateSearchRule.mostSteps(start, max, gap);
                    // every pattern of kept and broken steps ends within the bound
                    for (int broken = 0; broken < 1 << 12; broken += 7) {
                        RateSearchRule rule = new RateSearchRule(start, 1000, 0, true).upTo(max).within(gap);
                        int n = 0;
                        while (!rule.done()) {
                            rule.judged(step(++n, rule.next(), (broken >> Math.min(n - 1, 11) & 1) == 0));
                        }
                        assertTrue(n <= bound, start + ".." + max + " by " + gap + ": " + n + " steps > " + bound);
                    }
                }
            }
        }
    }
}
