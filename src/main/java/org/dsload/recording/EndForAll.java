package org.dsload.recording;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.core.Results;
import org.dsload.report.JtlReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An engine's end that ends a distributed run on every engine, seen from the master, which receives
 * every engine's samples and hears each engine end its test:
 * <ul>
 * <li>the engine that applied a Fault Schedule's faults: it ends its test once the last fault's recovery
 * is over, and the other engines, which only carry load bounded by the plan's duration (with room for a
 * killed node's restart), have nothing left to show;
 * <li>an engine that refused the test (a sample with response code {@value Results#CONFIG_ERROR}): the run is
 * refused whatever the others do.
 * </ul>
 * When such an engine has ended while others still run, the master says so on its console in one line
 * beginning with {@link #LINE}; {@code dsload run} then asks JMeter to shut the test down on every engine,
 * as JMeter's Shutdown command does (the samples under way end first). A plain {@code jmeter -n -R} run
 * only prints the line, and its other engines run to their duration.
 */
public final class EndForAll {
    /**
     * The start of the master's console line that the run ends on every engine. A constant, so that the runner,
     * whose JVM has no JMeter classes, reads it without loading this class.
     */
    public static final String LINE = "dsload: ending the test on every engine: ";

    private static final Logger log = LoggerFactory.getLogger(EndForAll.class);
    private static final String INJECTED = "the engine that injected the faults (%s) has ended its test";
    private static final String REFUSED = "engine %s refused the test (" + Results.CONFIG_ERROR + ")";
    /** Why a thread's engine ends the run, by thread name; each name begins with its engine's host:port. */
    private static final Map<String, String> THREADS = new ConcurrentHashMap<>();
    private static final AtomicBoolean TOLD = new AtomicBoolean();
    /**
     * The engines whose test runs, by host:port (guarded by the class): JMeter gives each remote engine its own
     * copy of the plan's listeners, so that no writer alone hears every engine start and end.
     */
    private static final Set<String> RUNNING = new HashSet<>();

    private EndForAll() {
    }

    /** Engine {@code host} has started its test (each writer of it says so); the first of a run forgets the last run. */
    static synchronized void started(String host) {
        if (RUNNING.isEmpty()) {
            THREADS.clear();
            TOLD.set(false);
        }
        RUNNING.add(host);
    }

    /** A sample reached the master: a fault marker or a refusal names its thread, and so its engine. */
    static void sampled(SampleResult result) {
        String label = result.getSampleLabel();
        if (!result.isSuccessful() && Results.CONFIG_ERROR.equals(result.getResponseCode())) {
            THREADS.put(result.getThreadName(), REFUSED);
        } else if (label != null && label.startsWith(JtlReader.FAULT_PREFIX)) {
            THREADS.putIfAbsent(result.getThreadName(), INJECTED);
        }
    }

    /**
     * Engine {@code host} (host:port as the master reached it, or the local engine's name) has ended its
     * test. Prints the line once, when {@code host} is one that ends the run (a refusal first) and another
     * engine's test still runs.
     */
    static void ended(String host) {
        boolean othersRun;
        synchronized (EndForAll.class) {
            RUNNING.remove(host);
            othersRun = !RUNNING.isEmpty();
        }
        if (!othersRun) {
            return;
        }
        String prefix = host + "-";
        List<String> reasons = THREADS.entrySet().stream().filter(e -> e.getKey().startsWith(prefix))
                .map(Map.Entry::getValue).toList();
        if (!reasons.isEmpty() && TOLD.compareAndSet(false, true)) {
            String line = LINE + String.format(reasons.contains(REFUSED) ? REFUSED : INJECTED, host);
            log.info(line);
            System.out.println(line); // NOSONAR the runner reads the master's console
        }
    }
}
