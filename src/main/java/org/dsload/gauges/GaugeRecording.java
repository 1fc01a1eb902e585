package org.dsload.gauges;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.apache.jmeter.util.JMeterUtils;
import org.dsload.core.Errors;
import org.dsload.core.format.RunProperties;
import org.dsload.recording.Recording;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a connection element starts recording its servers' gauges: into the run folder named by
 * the JMeter property {@code dsload.run_dir} (the dsload runner sets it; on a local slave it names
 * the slave's own folder). Without a run folder, or when the recording cannot start, the load runs
 * without gauges and the log says why, once per store.
 */
public final class GaugeRecording {
    private static final Logger log = LoggerFactory.getLogger(GaugeRecording.class);
    private static final Set<String> TOLD_NO_RUN_DIR = ConcurrentHashMap.newKeySet();

    private GaugeRecording() {
    }

    /** The run folder, or empty (logged once per store) when the test runs without one. */
    public static Optional<Path> runFolder(GaugeFile spec) {
        return runFolder(spec.store());
    }

    /**
     * The folder a store's gauges go into: the run folder ({@code dsload.run_dir}, which the runner
     * sets for itself and for the slaves it starts); on a slave of a dsload run without one (started
     * by {@code dsload slaves start}, or on another machine), a folder the runner fetches after the
     * run ({@link Recording#fetchedFolder}); else empty, logged once per store.
     */
    public static Optional<Path> runFolder(String store) {
        String dir = JMeterUtils.getJMeterProperties() == null ? null
                : JMeterUtils.getProperty(RunProperties.RUN_DIR);
        if (dir == null || dir.isBlank()) {
            Optional<Path> fetched = JMeterUtils.getJMeterProperties() == null ? Optional.empty()
                    : Recording.fetchedFolder();
            if (fetched.isEmpty() && TOLD_NO_RUN_DIR.add(store)) {
                log.info("dsload: {} server gauges are not recorded: JMeter property {} names no run folder "
                        + "(bin/dsload run sets it)", store, RunProperties.RUN_DIR);
            }
            return fetched;
        }
        return Optional.of(Path.of(dir.trim()));
    }

    /**
     * Starts recording; the sources are built only when there is a run folder.
     *
     * @param client the kind of client the store's samplers look up: the labels of their samples
     *               are written beside what they sent ({@link org.dsload.core.StoreLabels})
     * @return the lease to close at test end, after the load; null when nothing is recorded
     */
    public static AutoCloseable start(GaugeFile spec, String element, Class<?> client, Supplier<List<GaugeSource>> sources,
            Supplier<Map<String, Long>> counts) {
        Optional<Path> dir = runFolder(spec);
        if (dir.isEmpty()) {
            return null;
        }
        List<GaugeSource> built;
        try {
            built = sources.get();
        } catch (RuntimeException e) {
            log.warn("dsload: {}: server gauges are not recorded: {}", element, Errors.describe(e));
            return null;
        }
        try {
            return GaugeRecorder.lease(spec, dir.get(), built, counts, client);
        } catch (Exception e) {
            log.warn("dsload: {}: cannot record server gauges into {}: {}", element, dir.get(), Errors.describe(e));
            built.forEach(GaugeSource::close);
            return null;
        }
    }
}
