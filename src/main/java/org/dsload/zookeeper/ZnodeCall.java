package org.dsload.zookeeper;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CreateBuilderMain;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.dsload.core.Outcome;
import org.dsload.core.Results.LimitedText;

/**
 * One single-znode request (create, set, get, exists, delete, children). Sending and reading the
 * answer are apart: {@link #send} is the blocking call, and {@link #answered} and {@link #failed}
 * turn what came back into the request's {@link Outcome}, whichever way it came back.
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

    /** @return the answer: a path (create), a stat (set, exists), data (get), children, or {@link Absent} */
    Object send(CuratorFramework curator) throws Exception {
        switch (settings.op()) {
            case CREATE: {
                CreateBuilderMain create = settings.ttl() > 0 ? curator.create().withTtl(settings.ttl()) : curator.create();
                if (settings.parents()) {
                    return create.creatingParentContainersIfNeeded().withMode(settings.mode()).forPath(znode, data);
                }
                return create.withMode(settings.mode()).forPath(znode, data);
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

    /** What Exists answers for a missing node. */
    enum Absent { INSTANCE }

    /** @param text where the reply's text goes, or null when none is kept */
    Outcome answered(Object answer, LimitedText text) {
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
        return KeeperCodes.failure(e, client, settings.accepted(), sentBytes());
    }

    private long sentBytes() {
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
