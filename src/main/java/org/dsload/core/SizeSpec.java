package org.dsload.core;

import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * A distribution of payload sizes in bytes, written as a fixed size ({@code 100}), a uniform
 * range ({@code 10-10240}) or a weighted mix of either ({@code 64:50,1024:30,8192-16384:20}, the
 * weights being relative).
 */
public final class SizeSpec {
    /** Redis refuses bulk strings over 512 MB; nothing here needs more. */
    public static final int MAX_SIZE = 512 * 1024 * 1024;

    private final String source;
    private final int[] min;
    private final int[] max;
    private final long[] cumulativeWeight;

    private SizeSpec(String source, int[] min, int[] max, long[] cumulativeWeight) {
        this.source = source;
        this.min = min;
        this.max = max;
        this.cumulativeWeight = cumulativeWeight;
    }

    /** @throws IllegalArgumentException with a message that says what is wrong */
    public static SizeSpec parse(String text) {
        String spec = text == null ? "" : text.replace(" ", "");
        if (spec.isEmpty()) {
            throw new IllegalArgumentException("is empty; write a size like 100, a range like 10-10240 "
                    + "or a mix like 64:50,1024:30,8192-16384:20");
        }
        List<int[]> ranges = new ArrayList<>();
        List<Long> weights = new ArrayList<>();
        for (String entry : spec.split(",")) {
            String range = entry;
            long weight = 1;
            int colon = entry.indexOf(':');
            if (colon >= 0) {
                range = entry.substring(0, colon);
                weight = number(entry.substring(colon + 1), entry, "weight");
                if (weight < 1) {
                    throw new IllegalArgumentException("has weight " + weight + " in '" + entry + "': weights are at least 1");
                }
            }
            int dash = range.indexOf('-', 1);
            long low = number(dash < 0 ? range : range.substring(0, dash), entry, "size");
            long high = dash < 0 ? low : number(range.substring(dash + 1), entry, "size");
            if (low < 0 || high < low || high > MAX_SIZE) {
                throw new IllegalArgumentException("has range '" + range + "': sizes go from 0 to " + MAX_SIZE
                        + " bytes, smallest first");
            }
            ranges.add(new int[] {(int) low, (int) high});
            weights.add(weight);
        }
        int n = ranges.size();
        int[] min = new int[n];
        int[] max = new int[n];
        long[] cumulative = new long[n];
        long total = 0;
        for (int i = 0; i < n; i++) {
            min[i] = ranges.get(i)[0];
            max[i] = ranges.get(i)[1];
            total += weights.get(i);
            cumulative[i] = total;
        }
        return new SizeSpec(text.trim(), min, max, cumulative);
    }

    private static long number(String text, String entry, String what) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("has a " + what + " that is not a whole number in '" + entry + "'");
        }
    }

    public int next(RandomGenerator random) {
        int entry = 0;
        if (cumulativeWeight.length > 1) {
            long pick = random.nextLong(cumulativeWeight[cumulativeWeight.length - 1]);
            while (pick >= cumulativeWeight[entry]) {
                entry++;
            }
        }
        return min[entry] == max[entry] ? min[entry] : min[entry] + random.nextInt(max[entry] - min[entry] + 1);
    }

    /** The mean size, for documentation and for estimating the bytes a load will move. */
    public double mean() {
        double sum = 0;
        long previous = 0;
        for (int i = 0; i < min.length; i++) {
            sum += (cumulativeWeight[i] - previous) * (min[i] + (double) max[i]) / 2;
            previous = cumulativeWeight[i];
        }
        return sum / cumulativeWeight[cumulativeWeight.length - 1];
    }

    @Override
    public String toString() {
        return source;
    }
}
