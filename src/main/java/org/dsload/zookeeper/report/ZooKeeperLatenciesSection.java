package org.dsload.zookeeper.report;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.dsload.report.Durations;
import org.dsload.report.LabelStats;
import org.dsload.report.Latencies;
import org.dsload.report.RunSection;
import org.dsload.report.Summary;

/**
 * The operations of the zk-latencies benchmark (S4), one line each in the shape zk-latencies
 * prints them (count, time, ms/op, ops/sec), with exact percentiles beside. A phase counts the
 * calls that did what it names: those answered {@code OK} (or {@code OK_RETRIED}); a Watch on a
 * node that is not there ({@code NONODE}, a success of Exists) set no watch. A run has this
 * section when its results hold at least the Create and Get phases of test-plans/zk-latencies.jmx.
 */
public final class ZooKeeperLatenciesSection implements RunSection {

    @Override
    public int order() {
        return 200;
    }
    /** Label in the plan, and the verb and noun zk-latencies prints for it. */
    private record Phase(String label, String verb, String kind) {
    }

    static final List<Phase> PHASES = List.of(
            new Phase("Create", "created", "permanent"),
            new Phase("Set", "set", ""),
            new Phase("Get", "get", ""),
            new Phase("Delete", "deleted", "permanent"),
            new Phase("Create Ephemeral", "created", "ephemeral"),
            new Phase("Watch", "watched", ""),
            new Phase("Delete Ephemeral", "deleted", "ephemeral"),
            new Phase("Watch notification", "notified", "watched"));

    @Override
    public Optional<String> render(Path runDir, Summary summary) {
        if (summary.label("Create") == null || summary.label("Get") == null) {
            return Optional.empty();
        }
        StringBuilder out = new StringBuilder("== zk-latencies: operations per second (S4) ==\n");
        out.append("Each phase's rate: its calls answered OK over its own span (first start to last end), all clients "
                + "together.\n");
        for (Phase phase : PHASES) {
            LabelStats s = summary.label(phase.label);
            if (s == null) {
                continue;
            }
            long done = done(s);
            long spanMillis = Math.max(1, s.totalMillis());
            if (done == 0) {
                out.append(String.format(Locale.ROOT, "%-9s %9d %-9s znodes: no call answered OK (%d calls: %s)%n",
                        phase.verb, 0, phase.kind, s.requests(), codes(s)));
                continue;
            }
            Latencies h = s.latencies();
            out.append(String.format(Locale.ROOT, "%-9s %9d %-9s znodes in %8d ms (%.6f ms/op %.2f/sec)  "
                    + "p50 %s p99 %s max %s%s%n", phase.verb, done, phase.kind, spanMillis,
                    (double) spanMillis / done, done * 1000.0 / spanMillis,
                    Durations.format(h.percentile(50) / 1000.0), Durations.format(h.percentile(99) / 1000.0),
                    Durations.format(h.max() / 1000.0), done == s.requests() ? ""
                    : String.format(Locale.ROOT, "; %d of %d calls not OK (%s)", s.requests() - done, s.requests(),
                    codes(s))));
        }
        LabelStats notified = summary.label("Watch notification");
        if (notified != null) {
            out.append("Watch notification: latency from the triggering write (sent by a second session) to the event, ")
                    .append("not a rate of calls.\n");
        }
        return Optional.of(out.toString());
    }

    /** Calls answered OK: the ZooKeeper sampler's code for a done operation, retried or not. */
    private static long done(LabelStats s) {
        return s.statusCodes().getOrDefault("OK", 0L) + s.statusCodes().getOrDefault("OK_RETRIED", 0L);
    }

    private static String codes(LabelStats s) {
        StringBuilder text = new StringBuilder();
        s.statusCodes().forEach((code, count) -> text.append(text.length() == 0 ? "" : ", ").append(code).append(' ')
                .append(count));
        return text.toString();
    }
}
