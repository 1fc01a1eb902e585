package org.dsload.ycsb;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * YCSB's core workloads A to F, as its workloads/workload[a-f] files define them. Record count
 * and operation count are left to the user; every preset reads all fields.
 */
public enum Preset {
    A("update heavy", "zipfian", 1000, mix(0.5, 0.5, 0, 0, 0)),
    B("read mostly", "zipfian", 1000, mix(0.95, 0.05, 0, 0, 0)),
    C("read only", "zipfian", 1000, mix(1, 0, 0, 0, 0)),
    D("read latest", "latest", 1000, mix(0.95, 0, 0.05, 0, 0)),
    E("short ranges", "zipfian", 100, mix(0, 0, 0.05, 0.95, 0)),
    F("read-modify-write", "zipfian", 1000, mix(0.5, 0, 0, 0, 0.5));

    private final String description;
    private final String requestDistribution;
    private final int maxScanLength;
    private final Map<Operation, Double> proportions;

    Preset(String description, String requestDistribution, int maxScanLength, Map<Operation, Double> proportions) {
        this.description = description;
        this.requestDistribution = requestDistribution;
        this.maxScanLength = maxScanLength;
        this.proportions = proportions;
    }

    private static Map<Operation, Double> mix(double read, double update, double insert, double scan, double rmw) {
        Map<Operation, Double> m = new EnumMap<>(Operation.class);
        m.put(Operation.READ, read);
        m.put(Operation.UPDATE, update);
        m.put(Operation.INSERT, insert);
        m.put(Operation.SCAN, scan);
        m.put(Operation.READ_MODIFY_WRITE, rmw);
        return Map.copyOf(m);
    }

    /** @throws IllegalArgumentException for anything but a to f (either case) */
    public static Preset of(String letter) {
        String name = letter == null ? "" : letter.trim().toUpperCase(Locale.ROOT);
        if (name.startsWith("WORKLOAD")) {
            name = name.substring("WORKLOAD".length());
        }
        try {
            return valueOf(name);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("must be one of a, b, c, d, e, f (YCSB's core workloads), got '" + letter + "'", e);
        }
    }

    public String description() {
        return description;
    }

    public String requestDistribution() {
        return requestDistribution;
    }

    public int maxScanLength() {
        return maxScanLength;
    }

    public double proportion(Operation op) {
        return proportions.get(op);
    }
}
