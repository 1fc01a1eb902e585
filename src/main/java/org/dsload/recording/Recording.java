package org.dsload.recording;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.apache.jmeter.samplers.SampleListener;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContext;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterThread;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.threads.SamplePackage;
import org.apache.jmeter.util.JMeterUtils;
import org.dsload.core.EngineService;
import org.dsload.core.SampleRecording;
import org.dsload.core.format.RunProperties;
import org.dsload.report.RecordingFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the samples of dsload samplers go on this engine: into the results file as rows (the
 * default), or in histograms mode ({@link RecordMode}) into this engine's interval logs, with the
 * sample itself marked ignored so that JMeter hands it to no listener (JMeterThread skips the
 * listeners, post-processors and assertions of an ignored result) and one aggregate row per label
 * and second going to the listeners instead.
 *
 * <p>A sampler reports each sample twice, through core's {@link SampleRecording}: {@link #timed}
 * when its timing is known (core's SampleTiming) and {@link #completed} when the result is
 * complete (core's ClientSampler, after the sampler returns); a row of several requests timed on
 * their own reports each with {@link #request} (core's BatchResult). Results that were not timed
 * (a refused configuration) stay rows in either mode. Core starts and ends the recording with the
 * test ({@link EngineService}).
 */
public final class Recording implements EngineService {
    private static final Logger log = LoggerFactory.getLogger(Recording.class);
    /** Where an engine without {@code dsload.run_dir} keeps its recordings, under its working folder. */
    public static final String DEFAULT_ROOT = "dsload-recordings";

    private static final ThreadLocal<Pending> PENDING = ThreadLocal.withInitial(Pending::new);
    private static volatile EngineRecording current;
    private static volatile String refusal;
    private static boolean started;

    /** The timing of the sample a thread is running, until the sampler returns. */
    private static final class Pending {
        SampleResult result;
        long micros;
        long delayMicros;
        long dropped;
        /** One request that counts as its sample count (a KairosDB batch of points). */
        boolean oneRequest;
    }

    /** Hands core's samplers' timings and results to this class while the engine records. */
    private static final SampleRecording.Recorder RECORDER = new SampleRecording.Recorder() {
        @Override
        public boolean histograms() {
            return Recording.histograms();
        }

        @Override
        public void timed(SampleResult result, long micros, long delayMicros, long dropped, boolean oneRequest) {
            Recording.timed(result, micros, delayMicros, dropped, oneRequest);
        }

        @Override
        public void completed(SampleResult result) {
            Recording.completed(result);
        }

        @Override
        public void request(String label, long startMillis, long elapsedMicros, long delayMicros, long dropped,
                int count, boolean success, String code, String message, long sentBytes, long receivedBytes) {
            Recording.request(label, startMillis, elapsedMicros, delayMicros, dropped, count, success, code, message,
                    sentBytes, receivedBytes);
        }

        @Override
        public void ignore(SampleResult row) {
            Recording.ignore(row);
        }
    };

    /** The engine's recording as core starts and ends it ({@code META-INF/services/org.dsload.core.EngineService}). */
    public Recording() {
    }

    @Override
    public void started(String engine, String remoteHost) {
        testStarted(remoteHost);
    }

    @Override
    public void ended(boolean last) {
        testEnded();
    }

    /**
     * Reads the mode at the start of a test on this engine; several elements may call it, the first
     * one counts. In histograms mode the recording starts; an unknown mode refuses every dsload sample.
     *
     * @param remoteHost the host:port the master reached this engine at, or null in a local run
     */
    public static synchronized void testStarted(String remoteHost) {
        SampleRecording.use(RECORDER);
        if (started) {
            return;
        }
        started = true;
        refusal = null;
        RecordMode mode;
        try {
            mode = RecordMode.parse(property(RunProperties.RECORD, ""));
        } catch (IllegalArgumentException e) {
            refusal = e.getMessage();
            log.error("dsload: {}", refusal);
            return;
        }
        if (mode != RecordMode.HISTOGRAMS) {
            return;
        }
        String engine = property(RunProperties.ENGINE, RunProperties.MASTER);
        String threadName = remoteHost == null || remoteHost.isBlank() ? RecordingFormat.AGGREGATE_THREAD
                : remoteHost.trim() + "-" + RecordingFormat.AGGREGATE_THREAD;
        Path root = root();
        try {
            current = EngineRecording.start(engine, threadName, root.resolve(RecordingFormat.FOLDER).resolve(engine));
            if (remoteHost != null && property(RunProperties.RUN_DIR, "").isBlank()) {
                // a slave without a run folder: the runner fetches its recording after the run
                RecordingFiles.serve(root.getParent());
            }
        } catch (IntervalFiles.WriteFailure e) {
            refusal = "dsload: histograms mode cannot record: " + e.getMessage();
            log.error(refusal, e);
        }
    }

    /** Ends this engine's recording once the test's threads are done: the last interval is written. */
    public static synchronized void testEnded() {
        if (!started) {
            return;
        }
        started = false;
        EngineRecording recording = current;
        current = null;
        if (recording != null) {
            recording.close();
        }
    }

    /** True while samples are recorded into histograms on this engine. */
    public static boolean histograms() {
        return current != null;
    }

    /**
     * A sample's timing, right after its driver call; the result is completed later.
     * {@code oneRequest}: the result was one request, whatever its sample count (a KairosDB batch counts its points), so that a failure
     * counts once among the errors, as the server saw it.
     */
    public static void timed(SampleResult result, long micros, long delayMicros, long dropped, boolean oneRequest) {
        if (current == null) {
            return;
        }
        Pending p = PENDING.get();
        p.result = result;
        p.micros = micros;
        p.delayMicros = delayMicros;
        p.dropped = dropped;
        p.oneRequest = oneRequest;
    }

    /**
     * Called with the result a dsload sampler returns. In histograms mode a timed result is recorded
     * and marked ignored; under an unknown mode it becomes a failure that stops the test.
     */
    public static void completed(SampleResult result) {
        if (result == null) { // a self-paced sampler whose schedule had no arrival left returns none
            return;
        }
        if (refusal != null) {
            refuse(result);
            return;
        }
        EngineRecording recording = current;
        if (recording == null) {
            return;
        }
        Pending p = PENDING.get();
        if (p.result != result) {
            return;
        }
        p.result = null;
        int requests = Math.max(1, result.getSampleCount());
        recording.record(new RecordedSample(result.getSampleLabel(), result.getStartTime(), result.getEndTime(),
                p.micros, p.delayMicros, p.dropped, requests, result.isSuccessful(), nonNull(result.getResponseCode()),
                nonNull(result.getResponseMessage()), result.getSentBytes(), result.getBytesAsLong(),
                p.oneRequest ? 1 : requests),
                Recording::listenersOfThisThread);
        result.setIgnore();
    }

    /**
     * Records one request of a row that stands for several (each timed on its own); the caller
     * marks the row ignored ({@link #ignore}) once all are recorded. Only in histograms mode.
     */
    public static void request(String label, long startMillis, long elapsedMicros, long delayMicros, long dropped,
            int count, boolean success, String code, String message, long sentBytes, long receivedBytes) {
        EngineRecording recording = current;
        if (recording == null) {
            return;
        }
        recording.record(new RecordedSample(label, startMillis, startMillis + elapsedMicros / 1000, elapsedMicros,
                delayMicros, dropped, count, success, nonNull(code), nonNull(message),
                sentBytes, receivedBytes), Recording::listenersOfThisThread);
    }

    /** Marks a row whose requests were recorded one by one ({@link #request}). */
    public static void ignore(SampleResult row) {
        if (current != null) {
            row.setIgnore();
        }
    }

    private static void refuse(SampleResult result) {
        result.setSuccessful(false);
        result.setResponseCode("CONFIG");
        result.setResponseMessage(refusal);
        result.setStopTest(true);
    }

    /** The listeners JMeter gives the sampler this thread is running, and its thread group. */
    private static LabelRecording.Listeners listenersOfThisThread() {
        JMeterContext context = JMeterContextService.getContext();
        JMeterVariables variables = context.getVariables();
        Object pack = variables == null ? null : variables.getObject(JMeterThread.PACKAGE_OBJECT);
        if (!(pack instanceof SamplePackage samplePackage)) {
            return null;
        }
        List<SampleListener> listeners = List.copyOf(samplePackage.getSampleListeners());
        String group = context.getThreadGroup() == null ? "" : context.getThreadGroup().getName();
        return new LabelRecording.Listeners(listeners, group);
    }

    /**
     * Where a slave of a dsload run that has no run folder (one started by {@code dsload slaves
     * start}, or on another machine) keeps its files, {@code dsload-recordings/<run id>}, served for
     * the runner to fetch after the run (into the run folder's {@code slaves/<host>_<port>/}); empty
     * for an engine with a run folder, or outside a dsload run.
     */
    public static Optional<Path> fetchedFolder() {
        if (!property(RunProperties.RUN_DIR, "").isBlank() || property(RunProperties.RUN_ID, "").isBlank()) {
            return Optional.empty();
        }
        Path root = root();
        RecordingFiles.serve(root.getParent());
        return Optional.of(root);
    }

    /** {@code <run folder>}, or {@code dsload-recordings/<run id>} in the working folder of an engine without one. */
    private static Path root() {
        String runDir = property(RunProperties.RUN_DIR, "").trim();
        if (!runDir.isEmpty()) {
            return Path.of(runDir);
        }
        String id = property(RunProperties.RUN_ID, "").trim();
        if (id.isEmpty() || !id.matches("[A-Za-z0-9._-]+")) {
            id = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT));
        }
        return Path.of(DEFAULT_ROOT, id).toAbsolutePath();
    }

    private static String property(String name, String fallback) {
        return JMeterUtils.getJMeterProperties() == null ? fallback : JMeterUtils.getPropDefault(name, fallback);
    }

    private static String nonNull(String s) {
        return s == null ? "" : s;
    }
}
