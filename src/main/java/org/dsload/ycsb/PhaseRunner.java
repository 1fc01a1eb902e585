package org.dsload.ycsb;

import java.util.SplittableRandom;

import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContext;
import org.apache.jmeter.threads.JMeterContextService;
import org.dsload.core.Outcome;
import org.dsload.core.Results;
import org.dsload.core.SampleTiming;
import org.dsload.core.TestStop;
import org.dsload.core.Unrecoverable;

/**
 * One thread's samples of a YCSB phase, through any binding. Load: each sample inserts the next
 * record (the first runs the binding's set-up, labelled {@value #SETUP}, while the other load
 * threads wait), and a failed set-up or insert stops the test, so that the run phase never starts
 * on a store that is not loaded. Run: each sample is one operation drawn from the workload's mix,
 * labelled with the operation's name whatever its outcome, so results group by operation.
 */
public final class PhaseRunner {
    public static final String LOAD = "LOAD";
    public static final String SETUP = "SCHEMA";
    private static final long SETUP_WAIT_SECONDS = 120;

    /** The thread's own random generator, seeded from the workload's seed and the thread. */
    private final SplittableRandom random;

    private PhaseRunner(long seed) {
        this.random = new SplittableRandom(seed);
    }

    /** Each thread its own stream: the seed mixed with the thread group, the thread number and the phase. */
    public static PhaseRunner forThisThread(long seed, boolean load) {
        JMeterContext context = JMeterContextService.getContext();
        String group = context.getThreadGroup() == null ? "" : context.getThreadGroup().getName();
        long mixed = seed * 0x9E3779B97F4A7C15L + group.hashCode();
        mixed = mixed * 31 + context.getThreadNum();
        return new PhaseRunner(mixed * 31 + (load ? 1 : 2));
    }

    /** A load-phase sample: the set-up, the next record's insert, or none when all are in (the thread ends). */
    public SampleResult load(WorkloadRun run, YcsbBinding binding, String element) {
        YcsbBinding.SetUp setUp = binding.setUp();
        if (setUp != null && run.claimSetUp()) {
            return setUp(run, setUp, element);
        }
        if (setUp != null) {
            String problem = run.awaitSetUp(SETUP_WAIT_SECONDS);
            if (problem != null) {
                SampleResult result = Results.create(LOAD);
                result.sampleStart();
                result.sampleEnd();
                Results.fail(result, SETUP, "the store is not set up: " + problem);
                result.setStopTest(true);
                return result;
            }
        }
        Workload w = run.workload();
        long record = w.nextLoadRecord();
        if (record < 0) {
            return finished();
        }
        String key = w.key(record);
        SampleResult result = Results.create(LOAD);
        result.setSamplerData("INSERT " + key);
        Outcome inserted = timed(result, () -> binding.insert(key, values(w, w.spec().fieldCount())));
        if (!inserted.success()) {
            TestStop.stop(result, "dsload: " + element + ": the load phase failed at " + key + ": " + inserted.code()
                    + ": " + inserted.message() + ". The test stops: the run phase would work on missing records");
        }
        return result;
    }

    private static SampleResult setUp(WorkloadRun run, YcsbBinding.SetUp setUp, String element) {
        SampleResult result = Results.create(SETUP);
        result.setSamplerData(setUp.describe());
        Outcome done;
        try {
            done = timed(result, setUp::run);
        } finally {
            // the waiting load threads must learn the outcome whatever happened here
            run.setUpDone(result.isSuccessful() ? null : result.getResponseMessage());
        }
        if (!done.success()) {
            TestStop.stop(result, "dsload: " + element + ": setting up the store failed: " + done.code() + ": "
                    + done.message() + ". The test stops: the load and run phases need it");
        }
        return result;
    }

    /**
     * No sample, and the thread ends: the phase has done all it had to. Successful, because JMeter
     * applies a thread group's "stop the test on a sampler error" to ignored results too.
     */
    private static SampleResult finished() {
        SampleResult result = new SampleResult();
        result.setIgnore();
        result.setSuccessful(true);
        result.setStopThread(true);
        return result;
    }

    /** A run-phase sample, or none when the operation count is reached (the thread ends). */
    public SampleResult operation(WorkloadRun run, YcsbBinding binding, boolean stopOnUnrecoverable, String element) {
        Workload w = run.workload();
        if (!w.claimOperation()) {
            return finished();
        }
        Operation op = w.nextOperation(random);
        SampleResult result = Results.create(op.label());
        Outcome outcome = switch (op) {
            case READ -> read(result, binding, w);
            case UPDATE -> update(result, binding, w);
            case INSERT -> insert(result, binding, w);
            case SCAN -> scan(result, binding, w);
            case READ_MODIFY_WRITE -> readModifyWrite(result, binding, w);
        };
        Unrecoverable.stopIf(result, outcome, binding::unrecoverable, stopOnUnrecoverable, element);
        return result;
    }

    private int readField(Workload w) {
        return w.spec().readAllFields() ? -1 : w.nextField(random);
    }

    private int writeField(Workload w) {
        return w.spec().writeAllFields() ? -1 : w.nextField(random);
    }

    private String[] values(Workload w, int count) {
        String[] values = new String[count];
        for (int i = 0; i < count; i++) {
            values[i] = w.nextValue(random);
        }
        return values;
    }

    private Outcome read(SampleResult result, YcsbBinding binding, Workload w) {
        String key = w.key(w.nextRecord(random));
        int field = readField(w);
        result.setSamplerData("READ " + key + fieldName(field));
        return timed(result, () -> binding.read(key, field));
    }

    private Outcome update(SampleResult result, YcsbBinding binding, Workload w) {
        String key = w.key(w.nextRecord(random));
        int field = writeField(w);
        String[] values = values(w, field < 0 ? w.spec().fieldCount() : 1);
        result.setSamplerData("UPDATE " + key + fieldName(field));
        return timed(result, () -> binding.update(key, field, values));
    }

    private Outcome insert(SampleResult result, YcsbBinding binding, Workload w) {
        long record = w.nextInsertRecord();
        try {
            String key = w.key(record);
            String[] values = values(w, w.spec().fieldCount());
            result.setSamplerData("INSERT " + key);
            return timed(result, () -> binding.insert(key, values));
        } finally {
            w.acknowledgeInsert(record);
        }
    }

    private Outcome scan(SampleResult result, YcsbBinding binding, Workload w) {
        String key = w.key(w.nextRecord(random));
        int length = w.nextScanLength(random);
        int field = readField(w);
        result.setSamplerData("SCAN " + key + " " + length + fieldName(field));
        return timed(result, () -> binding.scan(key, length, field));
    }

    /** The read and the update of one key, timed together, as YCSB measures READ-MODIFY-WRITE. */
    private Outcome readModifyWrite(SampleResult result, YcsbBinding binding, Workload w) {
        String key = w.key(w.nextRecord(random));
        int readField = readField(w);
        int writeField = writeField(w);
        String[] values = values(w, writeField < 0 ? w.spec().fieldCount() : 1);
        result.setSamplerData("READ-MODIFY-WRITE " + key);
        return timed(result, () -> {
            Outcome read = binding.read(key, readField);
            if (!read.success()) {
                return new Outcome(false, read.code(), "read: " + read.message(), read.sentBytes(), read.receivedBytes());
            }
            Outcome write = binding.update(key, writeField, values);
            long sent = read.sentBytes() + write.sentBytes();
            long received = read.receivedBytes() + write.receivedBytes();
            return write.success() ? Outcome.ok(write.code(), "read " + read.message() + ", updated", sent, received)
                    : Outcome.failed(write.code(), "write: " + write.message(), sent, received);
        });
    }

    private static String fieldName(int field) {
        return field < 0 ? "" : " field" + field;
    }

    /** Runs the call inside the sample's timing and fills the result from its outcome. */
    private static Outcome timed(SampleResult result, java.util.function.Supplier<Outcome> call) {
        SampleTiming timing = new SampleTiming();
        timing.start(result);
        Outcome outcome;
        try {
            outcome = call.get();
        } catch (RuntimeException e) {
            // a binding answers with outcomes; this keeps a defect in one from escaping the sampler
            outcome = Outcome.failed(e.getClass().getSimpleName(), org.dsload.core.Errors.describe(e), 0, 0);
        }
        timing.end(result);
        Results.bytes(result, outcome.sentBytes(), outcome.receivedBytes());
        if (outcome.success()) {
            Results.succeed(result, outcome.code(), outcome.message());
        } else {
            Results.fail(result, outcome.code(), outcome.message());
        }
        return outcome;
    }
}
