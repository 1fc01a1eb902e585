package org.dsload.recording;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.samplers.SampleResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One test's recording in histograms mode on this engine: a {@link LabelRecording} per label, and
 * a flusher thread that closes an interval at every whole second of the clock, writes it
 * ({@link IntervalFiles}) and hands each label's aggregate row to its listeners. A file that cannot
 * be written stops the test with a message that says which and why, instead of a recording that
 * silently ends early.
 */
final class EngineRecording {
    private static final Logger log = LoggerFactory.getLogger(EngineRecording.class);
    static final String FAILURE_LABEL = "dsload recording";
    static final String FAILURE_CODE = "RECORDING";

    private final String engine;
    private final String rowThreadName;
    private final IntervalFiles files;
    private final Map<String, LabelRecording> labels = new ConcurrentHashMap<>();
    private final Thread flusher;
    private volatile boolean running = true;
    private volatile String failure;
    /** Start of the interval being recorded (flusher thread only). */
    private long intervalStart;

    private EngineRecording(String engine, String rowThreadName, IntervalFiles files, long start) {
        this.engine = engine;
        this.rowThreadName = rowThreadName;
        this.files = files;
        this.intervalStart = start;
        this.flusher = new Thread(this::flushEverySecond, "dsload-recording-" + engine);
        flusher.setDaemon(true);
    }

    /**
     * Starts recording into {@code folder}.
     *
     * @param rowThreadName thread name of the aggregate rows ({@code <host:port>-dsload histograms} on a
     *                      slave, so the master's reports tell slaves apart as they do with rows)
     */
    static EngineRecording start(String engine, String rowThreadName, Path folder) throws IntervalFiles.WriteFailure {
        long now = System.currentTimeMillis();
        EngineRecording recording = new EngineRecording(engine, rowThreadName, new IntervalFiles(folder, engine, now), now);
        recording.flusher.start();
        log.info("dsload: recording histograms of engine {} into {}", engine, folder);
        return recording;
    }

    Path folder() {
        return files.folder();
    }

    String engine() {
        return engine;
    }

    /** Why recording stopped, or null while it works. */
    String failure() {
        return failure;
    }

    LabelRecording label(String label) {
        return labels.computeIfAbsent(label, LabelRecording::new);
    }

    void record(RecordedSample sample, java.util.function.Supplier<LabelRecording.Listeners> listeners) {
        LabelRecording label = label(sample.label());
        label.listenersOnce(listeners);
        label.record(sample);
    }

    private void flushEverySecond() {
        while (running) {
            long now = System.currentTimeMillis();
            long next = (now / 1000 + 1) * 1000;
            try {
                Thread.sleep(Math.max(1, next - now));
            } catch (InterruptedException e) {
                return; // the final flush is close()'s
            }
            synchronized (this) {
                if (running) {
                    flush(System.currentTimeMillis());
                }
            }
        }
    }

    /** Closes the interval that ends now. Holds this object's lock, shared with {@link #close()}. */
    private void flush(long end) {
        if (failure != null) {
            return;
        }
        long start = intervalStart;
        intervalStart = end;
        List<Runnable> rows = new ArrayList<>();
        try {
            for (LabelRecording label : labels.values()) {
                IntervalTally closed = label.swap();
                if (closed.samples() == 0) {
                    continue;
                }
                files.write(label.label, closed, start, end);
                LabelRecording.Listeners to = label.listeners();
                if (to != null) {
                    SampleResult row = AggregateRow.of(label.label, closed, start, rowThreadName, engine);
                    rows.add(() -> AggregateRow.deliver(row, to, AggregateRow.timing(engine, start, end)));
                }
            }
            files.endInterval(start, end);
        } catch (IntervalFiles.WriteFailure e) {
            fail(e);
        }
        rows.forEach(Runnable::run);
    }

    private void fail(IntervalFiles.WriteFailure e) {
        failure = "dsload: " + e.getMessage() + ". The test is stopped rather than go on with a recording that "
                + "silently ends here; make room in " + e.file.getParent() + " (or record into another folder: "
                + "dsload.run_dir) and run it again.";
        log.error(failure, e);
        System.err.println(failure); // NOSONAR the console is where a person running the test looks
        SampleResult row = new SampleResult();
        row.setSampleLabel(FAILURE_LABEL);
        row.sampleStart();
        row.sampleEnd();
        row.setSuccessful(false);
        row.setResponseCode(FAILURE_CODE);
        row.setResponseMessage(failure);
        row.setThreadName(rowThreadName);
        row.setStopTest(true);
        for (LabelRecording label : labels.values()) {
            if (label.listeners() != null) {
                AggregateRow.deliver(row, label.listeners(), "");
                break;
            }
        }
        StandardJMeterEngine.stopEngineNow();
    }

    /** Flushes the last, partial interval and closes the files; call once every sampler thread is done. */
    void close() {
        running = false;
        flusher.interrupt();
        try {
            flusher.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            flush(System.currentTimeMillis());
            files.close();
        }
        log.info("dsload: recording of engine {} closed", engine);
    }
}
