package org.dsload.report;

import java.util.Arrays;

/**
 * The Mann-Whitney U test (Wilcoxon rank-sum), two-sided: do two sets of figures (a run's per-second
 * p99, say, against another's) come from the same distribution, or does one tend higher? It assumes
 * no shape, so a few slow seconds do not carry it as they would a t-test. The p-value is exact (the
 * distribution of U over every ordering) for small sets without ties, and otherwise the normal
 * approximation with the tie correction and a continuity correction.
 *
 * @param u  U of the second set: how many of the (first, second) pairs have the second higher, ties half
 * @param p  two-sided p-value
 * @param n1 size of the first set
 * @param n2 size of the second set
 */
public record MannWhitney(double u, double p, int n1, int n2) {
    public static final String NAME = "Mann-Whitney U";
    /** Up to this many values in both sets together, without ties, the p-value is exact. */
    private static final int EXACT_UP_TO = 60;

    public static MannWhitney test(double[] first, double[] second) {
        int n1 = first.length;
        int n2 = second.length;
        if (n1 == 0 || n2 == 0) {
            return new MannWhitney(0, 1, n1, n2);
        }
        int n = n1 + n2;
        double[] all = new double[n];
        System.arraycopy(first, 0, all, 0, n1);
        System.arraycopy(second, 0, all, n1, n2);
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(all[a], all[b]));
        double[] ranks = new double[n];
        double tieTerm = 0;
        for (int i = 0; i < n; ) {
            int j = i;
            while (j + 1 < n && all[order[j + 1]] == all[order[i]]) {
                j++;
            }
            double rank = (i + j) / 2.0 + 1;
            for (int k = i; k <= j; k++) {
                ranks[order[k]] = rank;
            }
            int t = j - i + 1;
            tieTerm += (double) t * t * t - t;
            i = j + 1;
        }
        double rankSum2 = 0;
        for (int i = n1; i < n; i++) {
            rankSum2 += ranks[i];
        }
        double u2 = rankSum2 - n2 * (n2 + 1) / 2.0;
        double mean = n1 * (double) n2 / 2;
        double p;
        if (tieTerm == 0 && n <= EXACT_UP_TO) {
            p = exact(Math.min(u2, n1 * (double) n2 - u2), n1, n2);
        } else {
            double variance = n1 * (double) n2 / 12 * ((n + 1) - tieTerm / ((double) n * (n - 1)));
            if (variance <= 0) {
                p = 1;
            } else {
                double z = Math.max(0, Math.abs(u2 - mean) - 0.5) / Math.sqrt(variance);
                p = Math.min(1, 2 * upperTail(z));
            }
        }
        return new MannWhitney(u2, p, n1, n2);
    }

    /** True when the second set tends higher than the first. */
    public boolean secondHigher() {
        return u > n1 * (double) n2 / 2;
    }

    /** True when the second set tends lower than the first. */
    public boolean secondLower() {
        return u < n1 * (double) n2 / 2;
    }

    /**
     * The smallest p-value sets of these sizes can give (every value of one above every value of the
     * other): when it is not below alpha, the test cannot find any difference, however large.
     */
    public static double smallestP(int n1, int n2) {
        if (n1 == 0 || n2 == 0) {
            return 1;
        }
        return Math.min(1, exact(0, n1, n2));
    }

    /** Two-sided exact p: twice the chance that U is at most {@code low} (the smaller of U and n1*n2-U). */
    private static double exact(double low, int n1, int n2) {
        int max = n1 * n2;
        // counts[m][u] for the current n: orderings of m first and n second values with U = u (of the second set)
        double[][] prev = new double[n1 + 1][];
        for (int m = 0; m <= n1; m++) {
            prev[m] = new double[max + 1];
        }
        for (int m = 0; m <= n1; m++) {
            prev[m][0] = 1; // n = 0: one ordering, U = 0
        }
        for (int k = 1; k <= n2; k++) {
            double[][] cur = new double[n1 + 1][max + 1];
            cur[0][0] = 1;
            for (int m = 1; m <= n1; m++) {
                for (int v = 0; v <= m * k; v++) {
                    // the largest value is the second set's (it is above all m first values) or the first set's
                    double c = (v >= m ? prev[m][v - m] : 0) + cur[m - 1][v];
                    cur[m][v] = c;
                }
            }
            prev = cur;
        }
        double total = 0;
        double atMost = 0;
        for (int v = 0; v <= max; v++) {
            total += prev[n1][v];
            if (v <= low + 1e-9) {
                atMost += prev[n1][v];
            }
        }
        return Math.min(1, 2 * atMost / total);
    }

    /** P(Z > z) of the standard normal distribution (Abramowitz and Stegun 7.1.26 on erfc, error below 1.5e-7). */
    static double upperTail(double z) {
        double x = z / Math.sqrt(2);
        double t = 1 / (1 + 0.3275911 * x);
        double erfc = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
                * Math.exp(-x * x);
        return erfc / 2;
    }
}
