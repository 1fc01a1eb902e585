package org.dsload.kairosdb;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.dsload.core.format.RunVerdict;
import org.dsload.gauges.GaugeRecording;
import org.dsload.kairosdb.report.CapacityRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a KairosDB Connection does when its test ends: counts back in KairosDB the points its
 * samplers reported written, says both figures on the console and in the log, and leaves them
 * for the run's summary ({@link CapacityRecord}) when the test runs under the dsload runner. A
 * count that failed or differs fails the run ({@link CapacityRecord#failure()}): said on the
 * console and recorded for the runner ({@link RunVerdict}).
 */
final class EndOfTest {
    private static final Logger log = LoggerFactory.getLogger(EndOfTest.class);

    /** Whether to count back, how long to wait for KairosDB's queue, and the element's name. */
    record Settings(boolean crossCheck, long waitMillis, String element) {
    }

    private EndOfTest() {
    }

    private static void say(String line) {
        System.out.println(line); // NOSONAR the console is where a headless user looks
        log.info(line);
    }

    static CrossCheck.Result run(KairosDbClient client, Settings settings) {
        WriteLedger ledger = client.ledger();
        if (ledger.isEmpty()) {
            return null;
        }
        CrossCheck.Result result = settings.crossCheck() ? CrossCheck.run(client, ledger, settings.waitMillis())
                : new CrossCheck.Result(ledger.points(), -1, 0, "not checked: Cross-check at test end is off",
                CapacityRecord.Check.SKIPPED);
        if (result.reported() > 0) {
            say(String.format(Locale.ROOT, "dsload kairosdb: %s: points reported written %d, found in KairosDB %s (%s)",
                    settings.element(), result.reported(), result.found() < 0 ? "-" : Long.toString(result.found()),
                    result.note()));
        }
        CapacityRecord record = new CapacityRecord(EngineId.current(), settings.element(), List.copyOf(ledger.writeLabels()),
                List.copyOf(ledger.queryLabels()), result.reported(), result.found(), ledger.firstPoint(),
                ledger.lastPoint(), result.waitedMillis(), result.note(), ledger.queries(), ledger.queryPoints(),
                List.copyOf(ledger.setupLabels()), ledger.setupPoints(), result.check(), ledger.unansweredPoints());
        String failure = record.failure();
        if (failure != null) {
            say("dsload kairosdb: " + settings.element() + ": the run FAILED: " + failure);
        }
        // the run folder, or on a slave without one the folder the runner fetches after the run
        Optional<Path> folder = GaugeRecording.runFolder("KairosDB");
        if (folder.isPresent()) {
            Path runDir = folder.get();
            try {
                record.append(runDir);
                if (failure != null && record.check() == CapacityRecord.Check.UNREACHABLE) {
                    RunVerdict.uncounted(runDir, "kairosdb cross-check of " + settings.element(), EngineId.current(),
                            failure);
                } else if (failure != null) {
                    RunVerdict.fail(runDir, "kairosdb cross-check of " + settings.element(), EngineId.current(), failure);
                }
            } catch (IOException e) {
                log.warn("dsload: cannot write {} or {}: {}", CapacityRecord.FILE, RunVerdict.FILE, e.toString());
            }
        }
        return result;
    }
}
