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
 * threads wait); a failed insert is tried again as the workload's insertion retries say
 * ({@link InsertionRetry}), and a failed set-up, or an insert failed with no retry left, stops the
 * test, so that the run phase never starts on a store that is not loaded. Run: each sample is one operation drawn from the workload's mix,
 * labelled with the operation's name whatever its outcome, so results group by operation.
 */
public final class PhaseRunner {
    public static final String LOAD = "LOAD";
    public static final String SETUP = "SCHEMA";
    private static final long SETUP_WAIT_SECONDS = 120;

    /** The thread's own random generator, seeded from the workload's seed and the thread. */
    private final SplittableRandom random;
    /** The load insert this thread tries again once {@link #retryDueNanos} has come, or null. */
    private DrawnOperation retry;
    private long retryDueNanos;

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

    SplittableRandom random() {
        return random;
    }

    /**
     * A load-phase sample: the set-up, the next record's insert (or the retry of this thread's
     * insert that failed, once its interval has passed), or none when all are in (the thread ends).
     */
    public SampleResult load(WorkloadRun run, YcsbBinding binding, String element) {
        SampleResult setUp = setUpFirst(run, binding, element);
        if (setUp != null) {
            return setUp;
        }
        Workload w = run.workload();
        DrawnOperation insert = retry;
        if (insert != null) {
            retry = null;
            if (!InsertionRetry.await(retryDueNanos)) {
                return finished(); // the test stops, or the thread's end came: no attempt
            }
        } else {
            long record = w.nextLoadRecord();
            if (record < 0) {
                return finished();
            }
            insert = DrawnOperation.load(w, record, random);
        }
        SampleResult result = Results.create(LOAD);
        result.setSamplerData(insert.describe());
        Outcome inserted = timed(result, insert, binding);
        if (!inserted.success()) {
            InsertionRetry.Next next = InsertionRetry.next(w.spec(), insert, inserted);
            if (next != null) {
                retry = next.insert();
                retryDueNanos = next.dueNanos();
                result.setResponseMessage(next.message());
            } else {
                loadFailed(result, element, InsertionRetry.failedAt(w.spec(), insert), inserted);
            }
        }
        return result;
    }

    /**
     * What comes before the load phase's first insert: the set-up, when this sample is the first
     * to ask; a failed sample that stops the test, when the set-up failed or did not end in time.
     *
     * @return null once the store is ready for inserts
     */
    public SampleResult setUpFirst(WorkloadRun run, YcsbBinding binding, String element) {
        YcsbBinding.SetUp setUp = binding.setUp();
        if (setUp == null) {
            return null;
        }
        if (run.claimSetUp()) {
            return setUp(run, setUp, element);
        }
        String problem = run.awaitSetUp(SETUP_WAIT_SECONDS);
        if (problem == null) {
            return null;
        }
        SampleResult result = Results.create(LOAD);
        result.sampleStart();
        result.sampleEnd();
        Results.fail(result, SETUP, "the store is not set up: " + problem);
        result.setStopTest(true);
        return result;
    }

    /**
     * Marks the sample of a failed insert with no retry left to stop the test, saying why on the console.
     *
     * @param key the insert's key, with its attempt when there are retries
     */
    static void loadFailed(SampleResult result, String element, String key, Outcome inserted) {
        TestStop.stop(result, "dsload: " + element + ": the load phase failed at " + key + ": " + inserted.code()
                + ": " + inserted.message() + ". The test stops: the run phase would work on missing records");
    }

    private static SampleResult setUp(WorkloadRun run, YcsbBinding.SetUp setUp, String element) {
        SampleResult result = Results.create(SETUP);
        result.setSamplerData(setUp.describe());
        try {
            Outcome done = timed(result, setUp::run);
            if (!done.success()) {
                // said before the waiting load threads learn it, so that the console's line is the store's answer
                TestStop.stop(result, "dsload: " + element + ": setting up the store failed: " + done.code() + ": "
                        + done.message() + ". The test stops: the load and run phases need it");
            }
        } finally {
            // the waiting load threads must learn the outcome whatever happened here
            run.setUpDone(result.isSuccessful() ? null : result.getResponseMessage());
        }
        return result;
    }

    /**
     * No sample, and the thread ends: the phase has done all it had to. Successful, because JMeter
     * applies a thread group's "stop the test on a sampler error" to ignored results too.
     */
    public static SampleResult finished() {
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
        DrawnOperation op = DrawnOperation.draw(w, random);
        SampleResult result = Results.create(op.label());
        result.setSamplerData(op.describe());
        Outcome outcome;
        try {
            outcome = timed(result, op, binding);
        } finally {
            if (op.record() >= 0) {
                w.acknowledgeInsert(op.record());
            }
        }
        Unrecoverable.stopIf(result, outcome, binding::unrecoverable, stopOnUnrecoverable, element);
        return result;
    }

    private static Outcome timed(SampleResult result, DrawnOperation op, YcsbBinding binding) {
        return timed(result, () -> op.call(binding));
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
