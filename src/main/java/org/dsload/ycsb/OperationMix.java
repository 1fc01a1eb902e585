package org.dsload.ycsb;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.random.RandomGenerator;

/** Draws operations in given proportions (which need not add up to 1: they are relative). */
public final class OperationMix {
    private final Operation[] operations;
    private final double[] cumulative;
    private final Map<Operation, Double> proportions;

    public OperationMix(Map<Operation, Double> proportions) {
        List<Operation> ops = new ArrayList<>();
        List<Double> weights = new ArrayList<>();
        double total = 0;
        for (Operation op : Operation.values()) {
            double weight = proportions.getOrDefault(op, 0.0);
            if (weight < 0 || Double.isNaN(weight)) {
                throw new IllegalArgumentException("the " + op.label() + " proportion is negative");
            }
            if (weight > 0) {
                ops.add(op);
                weights.add(weight);
                total += weight;
            }
        }
        if (ops.isEmpty()) {
            throw new IllegalArgumentException("every proportion is 0: give at least one operation a share");
        }
        operations = ops.toArray(new Operation[0]);
        cumulative = new double[operations.length];
        double sum = 0;
        Map<Operation, Double> shares = new EnumMap<>(Operation.class);
        for (int i = 0; i < operations.length; i++) {
            sum += weights.get(i);
            cumulative[i] = sum / total;
            shares.put(operations[i], weights.get(i) / total);
        }
        cumulative[operations.length - 1] = 1.0;
        this.proportions = Map.copyOf(shares);
    }

    public Operation next(RandomGenerator random) {
        double u = random.nextDouble();
        for (int i = 0; i < cumulative.length; i++) {
            if (u < cumulative[i]) {
                return operations[i];
            }
        }
        return operations[operations.length - 1];
    }

    /** Each operation's share, adding up to 1. */
    public Map<Operation, Double> shares() {
        return proportions;
    }

    public double share(Operation op) {
        return proportions.getOrDefault(op, 0.0);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        for (Operation op : operations) {
            if (text.length() > 0) {
                text.append(' ');
            }
            text.append(op.label()).append(' ').append(String.format(Locale.ROOT, "%.3f", proportions.get(op)));
        }
        return text.toString();
    }
}
