package org.dsload.zookeeper;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.BackgroundCallback;
import org.apache.curator.framework.api.CreateBuilderMain;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.utils.ZKPaths;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.dsload.core.Outcome;
import org.dsload.core.Results.LimitedText;
import org.dsload.core.SampleTiming;

/**
 * One single-znode request (create, set, get, exists, delete, children). Sending and reading the
 * answer are apart: {@link #send} is the blocking call and {@link #sendInBackground} the one that
 * does not wait, and {@link #answered} and {@link #failed} turn what came back into the request's
 * {@link Outcome}, whichever way it came back.
 */
final class ZnodeCall {
    private final OperationSettings settings;
    private final ClientSettings client;
    private final String znode;
    private final byte[] data;
    private final Watcher watcher;
    private final Stat stat = new Stat();

    /**
     * @param data    what create and set write, else null
     * @param watcher the watch get, exists and children leave, or null
     */
    ZnodeCall(OperationSettings settings, ClientSettings client, String znode, byte[] data, Watcher watcher) {
        this.settings = settings;
        this.client = client;
        this.znode = znode;
        this.data = data;
        this.watcher = watcher;
    }

    String describe() {
        return settings.op().word() + " " + znode;
    }

    /**
     * Sends the sample's request and waits for the answer, timing only the call (a write is
     * stamped for the watches waiting on its path), and fills the sample.
     */
    static void sample(BlockingSample s, String znode) throws InterruptedException {
        OperationSettings c = s.settings();
        ZooKeeperClient clients = s.clients();
        byte[] bytes = c.op() == ZnodeOperation.CREATE || c.op() == ZnodeOperation.SET ? s.payload() : null;
        Watcher watcher = null;
        if (c.leavesWatch()) {
            watcher = c.watch().equals(OperationSettings.WATCH_ONCE) ? clients.onceWatcher()
                    : clients.keptWatch(s.client(), c.op(), znode);
        }
        ZnodeCall call = new ZnodeCall(c, clients.settings(), znode, bytes, watcher);
        String full = c.op().writes() ? WriteStamps.fullPath(clients.settings().namespace, znode) : null;
        SampleResult result = s.result();
        SampleTiming timing = new SampleTiming();
        Object answer;
        CountedRetries.reset();
        timing.start(result);
        try {
            if (full != null) {
                WriteStamps.writing(full);
            }
            answer = call.send(s.client(), clients.tally());
        } catch (InterruptedException e) {
            timing.end(result);
            throw e;
        } catch (Exception e) {
            timing.end(result);
            s.fill(call.failed(e), null);
            s.countRetried();
            return;
        }
        timing.end(result);
        LimitedText text = s.text();
        Outcome answered = call.answered(answer, text);
        call.count(answered, clients.tally());
        s.countRetried();
        s.fill(answered, text);
    }

    /**
     * @param tally where the parents a create makes are counted
     * @return the answer: a path (create), a stat (set, exists), data (get), children, or {@link Absent}
     */
    Object send(CuratorFramework curator, NamespaceTally tally) throws Exception {
        switch (settings.op()) {
            case CREATE: {
                if (!settings.parents()) {
                    return create(curator);
                }
                try {
                    return create(curator);
                } catch (KeeperException.NoNodeException e) {
                    // made here rather than by Curator, so that the cross-check counts each of them
                    ParentZnodes.make(curator, ZKPaths.getPathAndNode(znode).getPath(), client.namespace, tally);
                    return create(curator);
                }
            }
            case SET:
                return curator.setData().withVersion(settings.version()).forPath(znode, data);
            case GET:
                return watcher == null ? curator.getData().storingStatIn(stat).forPath(znode)
                        : curator.getData().storingStatIn(stat).usingWatcher(watcher).forPath(znode);
            case EXISTS: {
                Stat found = watcher == null ? curator.checkExists().forPath(znode)
                        : curator.checkExists().usingWatcher(watcher).forPath(znode);
                return found == null ? Absent.INSTANCE : found;
            }
            case DELETE:
                curator.delete().withVersion(settings.version()).forPath(znode);
                return Boolean.TRUE;
            case CHILDREN:
                return watcher == null ? curator.getChildren().storingStatIn(stat).forPath(znode)
                        : curator.getChildren().storingStatIn(stat).usingWatcher(watcher).forPath(znode);
            default:
                throw new IllegalStateException(settings.op().name());
        }
    }

    private String create(CuratorFramework curator) throws Exception {
        CreateBuilderMain create = settings.ttl() > 0 ? curator.create().withTtl(settings.ttl()) : curator.create();
        return create.withMode(settings.mode()).forPath(znode, data);
    }

    /** Counts a request the ensemble answered ({@code answered} is its outcome) as its per-namespace counters do. */
    void count(Outcome answered, NamespaceTally tally) {
        if (!ZooKeeperSampler.OK.equals(answered.code())) {
            return; // failed, an accepted error, or an Exists that found no node: the server counts none
        }
        String full = WriteStamps.fullPath(client.namespace, znode);
        if (settings.op().writes()) {
            tally.written(full);
        } else {
            tally.read(full);
        }
    }

    /**
     * Sends the request without waiting: Curator calls {@code callback} with the answer (on the
     * session's event thread), its retries counted on {@code callback} as the call's context.
     */
    <C extends BackgroundCallback & CountedRetries.Counted> void sendInBackground(CuratorFramework curator, C callback)
            throws Exception {
        switch (settings.op()) {
            case CREATE -> {
                CreateBuilderMain create = settings.ttl() > 0 ? curator.create().withTtl(settings.ttl()) : curator.create();
                if (settings.parents()) {
                    create.creatingParentContainersIfNeeded().withMode(settings.mode()).inBackground(callback, callback)
                            .forPath(znode, data);
                } else {
                    create.withMode(settings.mode()).inBackground(callback, callback).forPath(znode, data);
                }
            }
            case SET -> curator.setData().withVersion(settings.version()).inBackground(callback, callback)
                    .forPath(znode, data);
            case GET -> {
                if (watcher == null) {
                    curator.getData().inBackground(callback, callback).forPath(znode);
                } else {
                    curator.getData().usingWatcher(watcher).inBackground(callback, callback).forPath(znode);
                }
            }
            case EXISTS -> {
                if (watcher == null) {
                    curator.checkExists().inBackground(callback, callback).forPath(znode);
                } else {
                    curator.checkExists().usingWatcher(watcher).inBackground(callback, callback).forPath(znode);
                }
            }
            case DELETE -> curator.delete().withVersion(settings.version()).inBackground(callback, callback)
                    .forPath(znode);
            case CHILDREN -> {
                if (watcher == null) {
                    curator.getChildren().inBackground(callback, callback).forPath(znode);
                } else {
                    curator.getChildren().usingWatcher(watcher).inBackground(callback, callback).forPath(znode);
                }
            }
            default -> throw new IllegalStateException(settings.op().name());
        }
    }

    /** What a background call came to: the answer, absence for Exists, or the server's error. */
    Outcome answered(CuratorEvent event, LimitedText text) {
        KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
        if (code == KeeperException.Code.OK) {
            Object answer = switch (settings.op()) {
                case CREATE -> event.getName();
                case GET -> event.getData();
                case DELETE -> Boolean.TRUE;
                case CHILDREN -> event.getChildren();
                default -> event.getStat();
            };
            return answered(answer, event.getStat(), text);
        }
        if (settings.op() == ZnodeOperation.EXISTS && code == KeeperException.Code.NONODE) {
            return answered(Absent.INSTANCE, null, text);
        }
        return failed(KeeperException.create(code, znode));
    }

    /** What Exists answers for a missing node. */
    enum Absent { INSTANCE }

    /** The answer of the blocking call. */
    Outcome answered(Object answer, LimitedText text) {
        return answered(answer, stat, text);
    }

    /**
     * @param stat the node's stat where the answer has one
     * @param text where the reply's text goes, or null when none is kept
     */
    private Outcome answered(Object answer, Stat stat, LimitedText text) {
        long received;
        String code = ZooKeeperSampler.OK;
        String message = ZooKeeperSampler.OK;
        switch (settings.op()) {
            case CREATE -> {
                received = WireSize.reply(WireSize.string((String) answer));
                if (text != null) {
                    text.append((String) answer);
                }
            }
            case SET -> {
                received = WireSize.reply(WireSize.STAT);
                if (text != null) {
                    text.append(describe((Stat) answer));
                }
            }
            case GET -> {
                byte[] got = (byte[]) answer;
                received = WireSize.reply(WireSize.buffer(got) + WireSize.STAT);
                if (text != null) {
                    text.append(got == null ? "(null)" : new String(got, StandardCharsets.UTF_8)).append('\n')
                            .append(describe(stat));
                }
            }
            case EXISTS -> {
                received = WireSize.reply(WireSize.STAT);
                if (answer == Absent.INSTANCE) {
                    code = KeeperException.Code.NONODE.name();
                    message = "no node " + znode + " (Exists answers that as a success)";
                    if (text != null) {
                        text.append("(no node)");
                    }
                } else if (text != null) {
                    text.append(describe((Stat) answer));
                }
            }
            case DELETE -> {
                received = WireSize.reply(0);
                if (text != null) {
                    text.append("deleted ").append(znode);
                }
            }
            case CHILDREN -> {
                @SuppressWarnings("unchecked")
                List<String> children = (List<String>) answer;
                int payload = 4 + WireSize.STAT;
                for (String child : children) {
                    payload += WireSize.string(child);
                    if (text != null && !text.full()) {
                        text.append(child).append('\n');
                    }
                }
                received = WireSize.reply(payload);
                message = children.size() + " children";
            }
            default -> throw new IllegalStateException(settings.op().name());
        }
        return Outcome.ok(code, message, sentBytes(), received);
    }

    Outcome failed(Exception e) {
        return ZooKeeperErrors.failure(e, client, settings.accepted(), sentBytes());
    }

    /** Bytes the request puts on the wire. */
    long sentBytes() {
        return switch (settings.op()) {
            case CREATE -> WireSize.create(znode, data);
            case SET -> WireSize.set(znode, data);
            default -> WireSize.pathRequest(znode);
        };
    }

    static String describe(Stat stat) {
        return "version " + stat.getVersion() + ", data length " + stat.getDataLength() + ", children "
                + stat.getNumChildren() + ", ephemeral owner 0x" + Long.toHexString(stat.getEphemeralOwner())
                + ", mzxid 0x" + Long.toHexString(stat.getMzxid());
    }
}
