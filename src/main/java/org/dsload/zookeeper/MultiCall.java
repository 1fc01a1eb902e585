package org.dsload.zookeeper;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.BackgroundCallback;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.curator.framework.api.transaction.TransactionOp;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.zookeeper.KeeperException;
import org.dsload.core.Outcome;
import org.dsload.core.Results.LimitedText;
import org.dsload.core.SampleTiming;

/**
 * One transaction (multi): the lines of the Multi operations field, committed all or none. The
 * operations are built before anything is sent ({@link #build}), so that a path Curator refuses
 * fails the sample without a request; {@link #send} is the blocking call, {@link #sendInBackground}
 * the one that does not wait.
 */
final class MultiCall {
    private final OperationSettings settings;
    private final ClientSettings client;
    private final List<CuratorOp> ops = new ArrayList<>();
    /** Every written path as the server sees it, for the watches waiting on them. */
    private final List<String> fullPaths = new ArrayList<>();
    /** The paths of the creates, sets and deletes: what a committed transaction applies. */
    private final List<String> applied = new ArrayList<>();
    private final StringBuilder request = new StringBuilder("multi:");
    private long sent = WireSize.FRAME + WireSize.REQUEST_HEADER;

    MultiCall(OperationSettings settings, ClientSettings client) {
        this.settings = settings;
        this.client = client;
    }

    /**
     * Builds the sample's transaction, sends it and waits for the answer, timing only the call,
     * and fills the sample; a path Curator refuses fails it without a request.
     */
    static void sample(BlockingSample s) throws InterruptedException {
        MultiCall call = new MultiCall(s.settings(), s.clients().settings());
        try {
            call.build(s.client(), s.seq(), s.thread(), s.random());
        } catch (Exception e) {
            s.notSent(call.failed(e, false));
            return;
        }
        SampleResult result = s.result();
        result.setSamplerData(call.describe());
        SampleTiming timing = new SampleTiming();
        List<CuratorTransactionResult> answers;
        CountedRetries.reset();
        timing.start(result);
        try {
            call.writtenPaths().forEach(WriteStamps::writing);
            answers = call.send(s.client());
        } catch (InterruptedException e) {
            timing.end(result);
            throw e;
        } catch (Exception e) {
            timing.end(result);
            s.fill(call.failed(e, true), null);
            s.countRetried();
            return;
        }
        timing.end(result);
        LimitedText text = s.text();
        Outcome answered = call.answered(answers, text);
        call.count(answered, s.clients().tally());
        s.countRetried();
        s.fill(answered, text);
    }

    /** Builds the operations of sample {@code seq}; Curator checks each path here. */
    void build(CuratorFramework curator, long seq, int thread, SplittableRandom random) throws Exception {
        TransactionOp op = curator.transactionOp();
        List<MultiStep> steps = settings.multi();
        for (int i = 0; i < steps.size(); i++) {
            MultiStep step = steps.get(i);
            String znode = step.path().expand(seq, i, thread);
            fullPaths.add(WriteStamps.fullPath(client.namespace, znode));
            request.append("\n  ").append(step.kind()).append(' ').append(znode);
            switch (step.kind()) {
                case MultiStep.CREATE -> {
                    applied.add(fullPaths.get(i));
                    byte[] bytes = settings.payload(seq, thread, random);
                    sent += WireSize.create(znode, bytes);
                    ops.add(settings.ttl() > 0
                            ? op.create().withTtl(settings.ttl()).withMode(settings.mode()).forPath(znode, bytes)
                            : op.create().withMode(settings.mode()).forPath(znode, bytes));
                }
                case MultiStep.SET -> {
                    applied.add(fullPaths.get(i));
                    byte[] bytes = settings.payload(seq, thread, random);
                    sent += WireSize.set(znode, bytes);
                    ops.add(op.setData().withVersion(step.version()).forPath(znode, bytes));
                }
                case MultiStep.DELETE -> {
                    applied.add(fullPaths.get(i));
                    sent += WireSize.pathRequest(znode);
                    ops.add(op.delete().withVersion(step.version()).forPath(znode));
                }
                default -> {
                    sent += WireSize.pathRequest(znode);
                    ops.add(op.check().withVersion(step.version()).forPath(znode));
                }
            }
        }
    }

    /** The transaction as the sample shows it. */
    String describe() {
        return request.toString();
    }

    /** Bytes the transaction puts on the wire. */
    long sentBytes() {
        return sent;
    }

    List<String> writtenPaths() {
        return fullPaths;
    }

    /** Counts what the transaction applied, when it committed ({@code answered} is its outcome). */
    void count(Outcome answered, NamespaceTally tally) {
        if (ZooKeeperSampler.OK.equals(answered.code())) {
            applied.forEach(tally::written);
        }
    }

    List<CuratorTransactionResult> send(CuratorFramework curator) throws Exception {
        return curator.transaction().forOperations(ops);
    }

    /** Sends the transaction without waiting; see {@link ZnodeCall#sendInBackground}. */
    <C extends BackgroundCallback & CountedRetries.Counted> void sendInBackground(CuratorFramework curator, C callback)
            throws Exception {
        curator.transaction().inBackground(callback, callback).forOperations(ops);
    }

    /** What a background transaction came to: every operation committed, or the server's error. */
    Outcome answered(CuratorEvent event, LimitedText text) {
        KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
        if (code != KeeperException.Code.OK) {
            return failed(KeeperException.create(code, event.getPath()), true);
        }
        return answered(event.getOpResults(), text);
    }

    /** @param text where the reply's text goes, or null when none is kept */
    Outcome answered(List<CuratorTransactionResult> results, LimitedText text) {
        if (text != null) {
            for (CuratorTransactionResult r : results) {
                text.append(r.getType().name().toLowerCase(Locale.ROOT)).append(' ')
                        .append(r.getResultPath() != null ? r.getResultPath() : r.getForPath()).append('\n');
            }
        }
        return Outcome.ok(ZooKeeperSampler.OK, results.size() + " operations committed", sent,
                WireSize.reply(results.size() * (8 + WireSize.STAT)));
    }

    /** A failure before or after sending: {@code sentAlready} says whether the transaction went out. */
    Outcome failed(Exception e, boolean sentAlready) {
        return ZooKeeperErrors.failure(e, client, settings.accepted(), sentAlready ? sent : 0);
    }
}
