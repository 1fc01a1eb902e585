package org.dsload.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class KeyChoosersTest {
    private static final int DRAWS = 200_000;

    private static long[] counts(KeyChooser chooser, int records, long seed) {
        long[] counts = new long[records];
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < DRAWS; i++) {
            long n = chooser.next(random);
            assertTrue(n >= 0 && n < records, "record " + n + " outside [0, " + records + ")");
            counts[(int) n]++;
        }
        return counts;
    }

    private static double shareOfTop(long[] counts, int top) {
        long[] sorted = counts.clone();
        Arrays.sort(sorted);
        long sum = 0;
        for (int i = 0; i < top; i++) {
            sum += sorted[sorted.length - 1 - i];
        }
        return (double) sum / DRAWS;
    }

    @Test
    void yscbKeyNamesComeFromTheFnvHashOfTheRecordNumber() {
        // the first key of every hashed YCSB load
        assertEquals(6284781860667377211L, Fnv.hash64(0));
        assertEquals(8517097267634966620L, Fnv.hash64(1));
        assertEquals(2071219101098386137L, Fnv.hash64(999));
    }

    @Test
    void zipfianRanksFollowAPowerLaw() {
        Zipfian zipfian = new Zipfian(0, 999);
        long[] counts = new long[1000];
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < DRAWS; i++) {
            counts[(int) zipfian.next(random)]++;
        }
        // with theta 0.99, P(rank r) ~ 1 / r^0.99 / zeta(1000) and zeta(1000) ~ 7.1
        double zeta = Zipfian.zeta(0, 1000, Zipfian.CONSTANT, 0);
        for (int rank : new int[] {0, 1, 9, 99}) {
            double expected = 1 / Math.pow(rank + 1, Zipfian.CONSTANT) / zeta;
            double observed = (double) counts[rank] / DRAWS;
            assertEquals(expected, observed, expected * 0.15 + 0.001, "share of rank " + rank);
        }
        assertTrue(counts[0] > counts[1] && counts[1] > counts[9] && counts[9] > counts[99], Arrays.toString(
                new long[] {counts[0], counts[1], counts[9], counts[99]}));
    }

    @Test
    void scrambledZipfianSpreadsPopularRecordsButKeepsTheSkew() {
        int records = 1000;
        long[] counts = counts(KeyChoosers.scrambledZipfian(0, records - 1), records, 11);
        // Ranks are drawn over 10^10 items (zeta 26.47), so rank r has 1 / (r^0.99 * 26.47) of the requests:
        // the hottest record about 3.8 %, the 10 hottest about 11 %, against 0.1 % and 1 % if uniform.
        assertEquals(0.038, shareOfTop(counts, 1), 0.008, "the hottest record");
        double top1 = shareOfTop(counts, records / 100);
        double top10 = shareOfTop(counts, records / 10);
        assertTrue(top1 > 0.10, "top 1% of records get " + top1);
        assertTrue(top10 > 0.22, "top 10% of records get " + top10);
        // scrambled: the most popular records are not the first ones
        int hottest = 0;
        for (int i = 1; i < records; i++) {
            if (counts[i] > counts[hottest]) {
                hottest = i;
            }
        }
        assertTrue(hottest != 0 || counts[0] < counts[1] * 3, "the hottest record is scattered, got " + hottest);
        long touched = Arrays.stream(counts).filter(c -> c > 0).count();
        assertTrue(touched > records * 0.6, "the tail is still reached: " + touched + " of " + records + " records");
    }

    @Test
    void uniformTouchesEveryRecordAlike() {
        long[] counts = counts(KeyChoosers.uniform(0, 99), 100, 3);
        for (long c : counts) {
            assertEquals(DRAWS / 100.0, c, DRAWS / 100.0 * 0.15);
        }
    }

    @Test
    void hotspotSendsTheHotFractionOfOperationsToTheHotSet() {
        long[] counts = counts(KeyChoosers.hotspot(0, 999, 0.2, 0.8), 1000, 5);
        long hot = Arrays.stream(counts, 0, 200).sum();
        assertEquals(0.8, (double) hot / DRAWS, 0.01);
    }

    @Test
    void latestFavoursTheNewestRecordsAndFollowsInserts() {
        AcknowledgedCounter inserted = new AcknowledgedCounter(1000);
        KeyChooser latest = KeyChoosers.latest(inserted);
        SplittableRandom random = new SplittableRandom(9);
        int newest10 = 0;
        for (int i = 0; i < 10_000; i++) {
            long n = latest.next(random);
            assertTrue(n >= 0 && n <= 999, "record " + n);
            if (n >= 990) {
                newest10++;
            }
        }
        assertTrue(newest10 > 3000, "the 10 newest of 1000 records get " + newest10 + " of 10000 reads");
        for (int i = 0; i < 100; i++) {
            inserted.acknowledge(inserted.next());
        }
        assertEquals(1099, inserted.lastValue());
        long max = 0;
        for (int i = 0; i < 10_000; i++) {
            max = Math.max(max, latest.next(random));
        }
        assertEquals(1099, max, "reads reach the records inserted since");
    }

    @Test
    void acknowledgedCounterWaitsForGapsToClose() {
        AcknowledgedCounter counter = new AcknowledgedCounter(10);
        long a = counter.next();
        long b = counter.next();
        long c = counter.next();
        counter.acknowledge(c);
        counter.acknowledge(b);
        assertEquals(9, counter.lastValue(), "record 10 is still in flight");
        counter.acknowledge(a);
        assertEquals(12, counter.lastValue());
    }
}
