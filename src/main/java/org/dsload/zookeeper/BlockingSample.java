package org.dsload.zookeeper;

import java.util.SplittableRandom;

import org.apache.curator.framework.CuratorFramework;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.zookeeper.KeeperException;
import org.dsload.core.Outcome;
import org.dsload.core.Results;
import org.dsload.core.Results.LimitedText;
import org.dsload.core.SampleTiming;
import org.dsload.core.Unrecoverable;

/**
 * One sample of the ZooKeeper Operation sampler whose call waits for its answer: what the call
 * ({@link ZnodeCall}, {@link MultiCall}, {@link WatchCall}) works with, and how its outcome fills
 * the sample.
 *
 * @param seq     the sample's #{seq}
 * @param thread  the JMeter thread's number, from 1
 * @param random  the sampler clone's source of random payloads
 * @param sampler the sampler's name, for messages
 */
record BlockingSample(OperationSettings settings, ZooKeeperClient clients, CuratorFramework client, long seq,
        int thread, SplittableRandom random, SampleResult result, String sampler) {

    /** What a create, set or trigger write of this sample writes. */
    byte[] payload() {
        return settings.payload(seq, thread, random);
    }

    /** Where the reply's text goes, or null when Response data limit keeps none. */
    LimitedText text() {
        return settings.limit() > 0 ? new LimitedText(settings.limit()) : null;
    }

    /** A request that failed before it was sent: a sample without time. */
    void notSent(Outcome outcome) {
        result.sampleStart();
        result.sampleEnd();
        fill(outcome, null);
    }

    /**
     * Fills the result with a request's outcome, marked when it came only after Curator retried
     * it ({@link ZooKeeperErrors#retried}): a request that waited out a frozen server is not an
     * ordinary success. An unrecoverable failure stops the test when the sampler says so.
     */
    void fill(Outcome answered, LimitedText text) {
        Outcome outcome = ZooKeeperErrors.retried(answered, CountedRetries.count());
        if (outcome.success()) {
            Results.succeed(result, outcome.code(), outcome.message());
        } else {
            Results.fail(result, outcome.code(), outcome.message());
            Unrecoverable.stopIf(result, outcome, ZooKeeperErrors::unrecoverable, settings.stopOnUnrecoverable(), sampler);
        }
        Results.bytes(result, outcome.sentBytes(), outcome.receivedBytes());
        if (text != null) {
            Results.text(result, text.toString());
        }
    }

    /** A blocking call Curator retried: the servers may have applied a try before the answered one too. */
    void countRetried() {
        if (CountedRetries.count() > 0) {
            clients.tally().retried();
        }
    }

    /** A request not sent: the ensemble is out of reach, so waiting for it would only repeat the timeouts. */
    void failAtOnce(String why) {
        SampleTiming timing = new SampleTiming();
        timing.start(result);
        timing.end(result);
        Results.fail(result, KeeperException.Code.CONNECTIONLOSS.name(), why);
        Results.bytes(result, 0, 0);
    }

    void interrupted() {
        if (result.getStartTime() == 0) {
            result.sampleStart();
        }
        if (result.getEndTime() == 0) {
            result.sampleEnd();
        }
        Results.fail(result, "INTERRUPTED", "interrupted while waiting for ZooKeeper (the test is stopping)");
    }
}
