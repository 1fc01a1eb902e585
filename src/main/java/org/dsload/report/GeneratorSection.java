package org.dsload.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The generator's own figures next to the results (S3: a generator that runs out of CPU, network
 * or connections passes for a slow server unless this is shown): peaks per engine, and a warning
 * when the generator itself was saturated.
 */
public final class GeneratorSection implements RunSection {

    @Override
    public int order() {
        return 800;
    }
    /** CPU above this share ... */
    static final double SATURATED_CPU = 90;
    /** ... for this many seconds in a row counts as saturation (a single busy second is JIT or GC). */
    static final int SATURATED_SECONDS = 3;
    /** A second in which the machine's hypervisor took more than this share of its CPU is worth a note. */
    public static final double STOLEN_CPU = 5;

    @Override
    public Optional<String> render(Path runDir, Summary summary) throws IOException {
        List<GeneratorCsv.Engine> engines = GeneratorCsv.read(runDir);
        StringBuilder out = new StringBuilder();
        for (GeneratorCsv.Engine e : engines) {
            out.append("== Generator ").append(e.name()).append(" (peaks of per-second readings) ==\n");
            line(out, "CPU", "[generator, other procs, cores]", percent(e.peak(GeneratorCsv.PROCESS_CPU)) + ", "
                    + percent(CpuShares.of(e).peakOthers()) + ", " + whole(e.last(GeneratorCsv.CORES)));
            List<GeneratorCsv.Point> stolen = stolenSeconds(e);
            // -1 readings, or none: the machine does not account steal
            if (e.peak(GeneratorCsv.STOLEN_CPU) >= 0) {
                line(out, "CPU stolen", "[peak, seconds above " + (int) STOLEN_CPU + " %]",
                        percent(e.peak(GeneratorCsv.STOLEN_CPU)) + ", " + stolen.size());
            }
            line(out, "Heap", "[used]", megabytes(e.peak(GeneratorCsv.HEAP_USED)));
            line(out, "GC", "[total, per second]", millis(e.last(GeneratorCsv.GC_TIME)) + ", "
                    + millis(e.peakRate(GeneratorCsv.GC_TIME)));
            line(out, "Threads", "[JMeter, JVM]", whole(e.peak(GeneratorCsv.JMETER_THREADS)) + ", "
                    + whole(e.peak(GeneratorCsv.JVM_THREADS)));
            line(out, "Connections", "[open]", whole(e.peak(GeneratorCsv.CONNECTIONS)));
            line(out, "Sent", "[total, per second]", whole(e.last(GeneratorCsv.BYTES_SENT)) + " B, "
                    + whole(e.peakRate(GeneratorCsv.BYTES_SENT)) + " B/s");
            line(out, "Received", "[total, per second]", whole(e.last(GeneratorCsv.BYTES_RECEIVED)) + " B, "
                    + whole(e.peakRate(GeneratorCsv.BYTES_RECEIVED)) + " B/s");
            line(out, "Arrivals", "[late, dropped, missed]", whole(e.last(GeneratorCsv.ARRIVALS_LATE)) + ", "
                    + whole(e.last(GeneratorCsv.ARRIVALS_DROPPED)) + ", " + whole(orZero(e.last(GeneratorCsv.ARRIVALS_MISSED))));
            double warmUpDropped = orZero(e.last(GeneratorCsv.WARM_UP_ARRIVALS_DROPPED));
            double warmUpMissed = orZero(e.last(GeneratorCsv.WARM_UP_ARRIVALS_MISSED));
            if (warmUpDropped + warmUpMissed > 0) {
                line(out, "Warm-up", "[arrivals dropped, missed]", whole(warmUpDropped) + ", " + whole(warmUpMissed));
            }
            warnings(out, e, stolen);
        }
        poolWarning(out, summary);
        return out.length() == 0 ? Optional.empty() : Optional.of(out.toString());
    }

    private static void warnings(StringBuilder out, GeneratorCsv.Engine e, List<GeneratorCsv.Point> stolen) {
        CpuShares cpu = CpuShares.of(e);
        int own = cpu.longestRun(CpuShares.Second::generatorBound, SATURATED_CPU);
        int busy = cpu.longestRun(CpuShares.Second::machineBusy, SATURATED_CPU);
        if (own >= SATURATED_SECONDS) {
            out.append("Warning: generator ").append(e.name()).append(" saturated: its own process was the bottleneck for ")
                    .append(own).append(" s in a row (it used more than ").append((int) SATURATED_CPU)
                    .append(" % of the machine's CPU, or most of a machine that had none left); the results may show "
                            + "the generator's limit, not the server's.\n");
        } else if (busy >= SATURATED_SECONDS) {
            out.append("Note: generator ").append(e.name()).append("'s machine was busy for ").append(busy)
                    .append(" s in a row (more than ").append((int) SATURATED_CPU).append(" % CPU), but the generator "
                            + "process used at most ").append(percent(e.peak(GeneratorCsv.PROCESS_CPU)))
                    .append(": other processes on the machine (the server under test, other programs) took it. The "
                            + "generator was not its bottleneck; a server on the same machine shared its CPU.\n");
        }
        if (!stolen.isEmpty() && e.last(GeneratorCsv.ARRIVALS_LATE) > 0) {
            out.append("Note: generator ").append(e.name()).append("'s machine is virtual, and its hypervisor took more than ")
                    .append((int) STOLEN_CPU).append(" % of its CPU in ").append(stolen.size()).append(" s (at most ")
                    .append(percent(e.peak(GeneratorCsv.STOLEN_CPU))).append("): while it did, every thread of the machine "
                            + "stopped, the generator's timers with them. Late arrivals of those seconds may be the host's "
                            + "doing, not the generator's (jvm.cpu.stolen in its figures gives each second).\n");
        }
        double dropped = e.last(GeneratorCsv.ARRIVALS_DROPPED);
        if (dropped > 0) {
            out.append("Warning: generator ").append(e.name()).append(" dropped ").append(whole(dropped))
                    .append(" arrivals: too late to send (its threads or the Open Model Guard's cap were exhausted), or "
                            + "due while its threads backed off from a store they could not reach.\n");
        }
        double missed = orZero(e.last(GeneratorCsv.ARRIVALS_MISSED));
        if (missed > 0) {
            out.append("Warning: generator ").append(e.name()).append(" missed ").append(whole(missed))
                    .append(" scheduled arrivals: no thread took them before the schedule's end, every one being busy "
                            + "(waiting on a server that did not answer, or on a generator short of CPU).\n");
        }
    }

    /** The seconds in which the hypervisor took more than {@link #STOLEN_CPU} % of the machine's CPU. */
    public static List<GeneratorCsv.Point> stolenSeconds(GeneratorCsv.Engine e) {
        return e.series(GeneratorCsv.STOLEN_CPU).stream().filter(p -> p.value() > STOLEN_CPU).toList();
    }

    /** Samples that failed because the client's own pool had no connection to give. */
    private static void poolWarning(StringBuilder out, Summary summary) {
        long exhausted = 0;
        for (Map.Entry<String, Long> code : summary.total().statusCodes().entrySet()) {
            String c = code.getKey();
            if (c.contains("POOL_EXHAUSTED") || c.contains("ConnectionPoolTimeoutException")) {
                exhausted += code.getValue();
            }
        }
        if (exhausted > 0) {
            out.append("Warning: ").append(exhausted).append(" requests failed because the generator's connection pool "
                    + "was exhausted: raise the pool size (or lower the load) before reading this as the server's limit.\n");
        }
    }

    private static void line(StringBuilder out, String name, String fields, String values) {
        out.append(String.format(Locale.ROOT, "%-13s %-33s %s%n", name, fields, values));
    }

    private static String percent(double value) {
        return Double.isNaN(value) || value < 0 ? "n/a" : String.format(Locale.ROOT, "%.2f%%", value);
    }

    private static String whole(double value) {
        return Double.isNaN(value) ? "n/a" : Long.toString(Math.round(value));
    }

    /** A figure an engine of an older version did not record counts as none. */
    private static double orZero(double value) {
        return Double.isNaN(value) ? 0 : value;
    }

    private static String millis(double value) {
        return Double.isNaN(value) ? "n/a" : Durations.format(value);
    }

    private static String megabytes(double bytes) {
        return Double.isNaN(bytes) ? "n/a" : String.format(Locale.ROOT, "%.1f MB", bytes / 1_048_576);
    }
}
