package org.dsload.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * An engine's CPU second by second, split into whose it was: the generator's own process, and the
 * other processes of its machine (the machine's CPU less the process's; both are shares of all
 * cores). A busy machine alone says nothing about the generator: on a machine shared with the
 * server under test, the server may take the CPU while the generator waits for it.
 */
final class CpuShares {
    /** One second's readings, in % of all cores. */
    record Second(long epochSecond, double generator, double machine) {
        double others() {
            return Math.max(0, machine - generator);
        }

        /** The generator's own CPU, or, on a machine with none left, the generator's when it held most of it. */
        double generatorBound() {
            return generator >= others() ? Math.max(generator, machine) : generator;
        }

        double machineBusy() {
            return machine;
        }
    }

    private final List<Second> seconds;

    private CpuShares(List<Second> seconds) {
        this.seconds = seconds;
    }

    static CpuShares of(GeneratorCsv.Engine engine) {
        Map<Long, Double> machine = new TreeMap<>();
        engine.series(GeneratorCsv.SYSTEM_CPU).stream().filter(p -> p.value() >= 0)
                .forEach(p -> machine.put(p.epochSecond(), p.value()));
        List<Second> seconds = new ArrayList<>();
        for (GeneratorCsv.Point p : engine.series(GeneratorCsv.PROCESS_CPU)) {
            seconds.add(new Second(p.epochSecond(), p.value(), machine.getOrDefault(p.epochSecond(), -1.0)));
        }
        return new CpuShares(seconds);
    }

    /** The highest CPU of the machine's other processes; NaN without both readings. */
    double peakOthers() {
        return seconds.stream().filter(s -> s.machine() >= 0).mapToDouble(Second::others).max().orElse(Double.NaN);
    }

    /** The longest run of consecutive seconds whose figure is above the threshold. */
    int longestRun(ToDoubleFunction<Second> figure, double threshold) {
        int longest = 0;
        int current = 0;
        for (Second s : seconds) {
            current = figure.applyAsDouble(s) > threshold ? current + 1 : 0;
            longest = Math.max(longest, current);
        }
        return longest;
    }
}
