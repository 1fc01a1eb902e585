package org.dsload.zookeeper;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CreateBuilderMain;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.jmeter.gui.TestElementMetadata;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.ThreadListener;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.dsload.core.ClientSampler;
import org.dsload.core.ConfigException;
import org.dsload.core.Errors;
import org.dsload.core.Fields;
import org.dsload.core.Payloads;
import org.dsload.core.Results;
import org.dsload.core.Results.LimitedText;
import org.dsload.core.SampleTiming;
import org.dsload.core.SharedClients;
import org.dsload.core.SizeSpec;
import org.dsload.core.Template;

/**
 * ZooKeeper Operation sampler: one znode operation (create, set, get, exists, delete, children,
 * multi) through a ZooKeeper Connection's client, or Watch: a watch set and its notification
 * awaited, the sample's time being the notification latency from the triggering write to the
 * event. Only the call to the server is timed; response codes are ZooKeeper's
 * {@code KeeperException.Code} names.
 */
@TestElementMetadata(labelResource = "displayName")
public class ZooKeeperSampler extends ClientSampler implements ThreadListener {
    private static final long serialVersionUID = 1L;
    static final String OK = "OK";
    static final String CONNECTION_KIND = "dsload ZooKeeper Connection";
    static final String SESSION_LIMIT = "SESSION_LIMIT";
    static final String WATCH_TIMEOUT = "WATCH_TIMEOUT";
    static final String TRIGGER_EXTERNAL = "external";
    static final String WATCH_NONE = "none";
    static final String WATCH_ONCE = "once";
    static final String WATCH_KEEP = "keep";
    static final String[] CREATE_MODES = {"persistent", "ephemeral", "persistent-sequential", "ephemeral-sequential",
        "container", "ttl", "ttl-sequential"};

    private String connection = "zk";
    private String operation = "get";
    private String path = "/dsload/#{seq}";
    private String data = "";
    private String dataSize = "100";
    private String createMode = "persistent";
    private String ttl = "60000";
    private String createParents = "false";
    private String version = "-1";
    private String watch = WATCH_NONE;
    private String multiOperations = "";
    private String watchTimeout = "10000";
    private String trigger = TRIGGER_EXTERNAL;
    private String acceptedCodes = "";
    private String responseDataLimit = "1024";

    private transient long seq;
    private transient SplittableRandom random;
    private transient Compiled compiled;

    private record Compiled(String[] source, Operation op, Template path, Template data, SizeSpec sizes, CreateMode mode,
            long ttl, boolean parents, int version, String watch, List<MultiStep> multi, long watchTimeout,
            String trigger, Set<String> accepted, int limit) {

        boolean compiledFrom(ZooKeeperSampler s) {
            return Arrays.equals(source, s.fields());
        }
    }

    private String[] fields() {
        return new String[] {operation, path, data, dataSize, createMode, ttl, createParents, version, watch,
            multiOperations, watchTimeout, trigger, acceptedCodes, responseDataLimit};
    }

    @Override
    protected SampleResult doSample(Entry entry) {
        Compiled c;
        ZooKeeperClients clients;
        try {
            c = compiled();
            clients = SharedClients.lookup(connection, ZooKeeperClients.class, CONNECTION_KIND);
        } catch (ConfigException e) {
            return Results.refused(getName(), operation + " " + path, e);
        }
        if (random == null) {
            random = new SplittableRandom();
        }
        int thread = JMeterContextService.getContext().getThreadNum() + 1;
        long n = seq++;
        String znode = c.path.expand(n, 0, thread);
        SampleResult result = Results.create(getName());
        CuratorFramework client;
        try {
            client = clients.client();
        } catch (ZooKeeperClients.SessionLimitException e) {
            result.sampleStart();
            result.sampleEnd();
            Results.fail(result, SESSION_LIMIT, e.getMessage());
            return result;
        }
        try {
            switch (c.op) {
                case WATCH -> watch(c, clients, client, znode, n, thread, result);
                case MULTI -> multi(c, clients, client, n, thread, result);
                default -> single(c, clients, client, znode, n, thread, result);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (result.getStartTime() == 0) {
                result.sampleStart();
            }
            if (result.getEndTime() == 0) {
                result.sampleEnd();
            }
            Results.fail(result, "INTERRUPTED", "interrupted while waiting for ZooKeeper (the test is stopping)");
        }
        // The request text costs as much as a fast operation; keep it where someone will look at it.
        if ((c.limit > 0 || !result.isSuccessful()) && result.getSamplerData() == null) {
            result.setSamplerData(c.op.word() + " " + znode);
        }
        return result;
    }

    private byte[] payload(Compiled c, long n, int thread) {
        if (c.data != null) {
            return c.data.expand(n, 0, thread).getBytes(StandardCharsets.UTF_8);
        }
        return Payloads.of(c.sizes.next(random), random);
    }

    private void single(Compiled c, ZooKeeperClients clients, CuratorFramework client, String znode, long n, int thread,
            SampleResult result) throws InterruptedException {
        byte[] bytes = c.op == Operation.CREATE || c.op == Operation.SET ? payload(c, n, thread) : null;
        String full = WriteStamps.fullPath(clients.settings().namespace, znode);
        Watcher watcher = null;
        if (c.op.canLeaveWatch() && !c.watch.equals(WATCH_NONE)) {
            watcher = c.watch.equals(WATCH_ONCE) ? clients.onceWatcher() : clients.keptWatch(client, c.op, znode);
        }
        SampleTiming timing = new SampleTiming();
        Object answer;
        Stat stat = new Stat();
        timing.start(result);
        try {
            if (c.op.writes()) {
                WriteStamps.writing(full);
            }
            answer = call(c, client, znode, bytes, stat, watcher);
        } catch (InterruptedException e) {
            timing.end(result);
            throw e;
        } catch (Exception e) {
            timing.end(result);
            failed(c, clients, result, e, c.op == Operation.CREATE || c.op == Operation.SET
                    ? (c.op == Operation.CREATE ? WireSize.create(znode, bytes) : WireSize.set(znode, bytes))
                    : WireSize.pathRequest(znode));
            return;
        }
        timing.end(result);
        answered(c, result, znode, bytes, answer, stat);
    }

    private static Object call(Compiled c, CuratorFramework client, String znode, byte[] bytes, Stat stat,
            Watcher watcher) throws Exception {
        switch (c.op) {
            case CREATE: {
                CreateBuilderMain create = c.ttl > 0 ? client.create().withTtl(c.ttl) : client.create();
                if (c.parents) {
                    return create.creatingParentContainersIfNeeded().withMode(c.mode).forPath(znode, bytes);
                }
                return create.withMode(c.mode).forPath(znode, bytes);
            }
            case SET:
                return client.setData().withVersion(c.version).forPath(znode, bytes);
            case GET:
                return watcher == null ? client.getData().storingStatIn(stat).forPath(znode)
                        : client.getData().storingStatIn(stat).usingWatcher(watcher).forPath(znode);
            case EXISTS: {
                Stat found = watcher == null ? client.checkExists().forPath(znode)
                        : client.checkExists().usingWatcher(watcher).forPath(znode);
                return found == null ? Absent.INSTANCE : found;
            }
            case DELETE:
                client.delete().withVersion(c.version).forPath(znode);
                return Boolean.TRUE;
            case CHILDREN:
                return watcher == null ? client.getChildren().storingStatIn(stat).forPath(znode)
                        : client.getChildren().storingStatIn(stat).usingWatcher(watcher).forPath(znode);
            default:
                throw new IllegalStateException(c.op.name());
        }
    }

    /** What Exists answers for a missing node. */
    private enum Absent { INSTANCE }

    private static void answered(Compiled c, SampleResult result, String znode, byte[] bytes, Object answer, Stat stat) {
        LimitedText text = c.limit > 0 ? new LimitedText(c.limit) : null;
        long sent;
        long received;
        String code = OK;
        String message = OK;
        switch (c.op) {
            case CREATE -> {
                sent = WireSize.create(znode, bytes);
                received = WireSize.reply(WireSize.string((String) answer));
                if (text != null) {
                    text.append((String) answer);
                }
            }
            case SET -> {
                sent = WireSize.set(znode, bytes);
                received = WireSize.reply(WireSize.STAT);
                if (text != null) {
                    text.append(describe((Stat) answer));
                }
            }
            case GET -> {
                byte[] got = (byte[]) answer;
                sent = WireSize.pathRequest(znode);
                received = WireSize.reply(WireSize.buffer(got) + WireSize.STAT);
                if (text != null) {
                    text.append(got == null ? "(null)" : new String(got, StandardCharsets.UTF_8)).append('\n')
                            .append(describe(stat));
                }
            }
            case EXISTS -> {
                sent = WireSize.pathRequest(znode);
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
                sent = WireSize.pathRequest(znode);
                received = WireSize.reply(0);
                if (text != null) {
                    text.append("deleted ").append(znode);
                }
            }
            case CHILDREN -> {
                @SuppressWarnings("unchecked")
                List<String> children = (List<String>) answer;
                sent = WireSize.pathRequest(znode);
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
            default -> throw new IllegalStateException(c.op.name());
        }
        Results.succeed(result, code, message);
        Results.bytes(result, sent, received);
        if (text != null) {
            Results.text(result, text.toString());
        }
    }

    private static String describe(Stat stat) {
        return "version " + stat.getVersion() + ", data length " + stat.getDataLength() + ", children "
                + stat.getNumChildren() + ", ephemeral owner 0x" + Long.toHexString(stat.getEphemeralOwner())
                + ", mzxid 0x" + Long.toHexString(stat.getMzxid());
    }

    private void multi(Compiled c, ZooKeeperClients clients, CuratorFramework client, long n, int thread,
            SampleResult result) throws InterruptedException {
        List<CuratorOp> ops = new ArrayList<>(c.multi.size());
        List<String> paths = new ArrayList<>(c.multi.size());
        long sent = WireSize.FRAME + WireSize.REQUEST_HEADER;
        StringBuilder request = new StringBuilder("multi:");
        try {
            for (int i = 0; i < c.multi.size(); i++) {
                MultiStep step = c.multi.get(i);
                String znode = step.path().expand(n, i, thread);
                paths.add(WriteStamps.fullPath(clients.settings().namespace, znode));
                request.append("\n  ").append(step.kind()).append(' ').append(znode);
                switch (step.kind()) {
                    case MultiStep.CREATE -> {
                        byte[] bytes = payload(c, n, thread);
                        sent += WireSize.create(znode, bytes);
                        ops.add(c.ttl > 0 ? client.transactionOp().create().withTtl(c.ttl).withMode(c.mode)
                                .forPath(znode, bytes) : client.transactionOp().create().withMode(c.mode).forPath(znode, bytes));
                    }
                    case MultiStep.SET -> {
                        byte[] bytes = payload(c, n, thread);
                        sent += WireSize.set(znode, bytes);
                        ops.add(client.transactionOp().setData().withVersion(step.version()).forPath(znode, bytes));
                    }
                    case MultiStep.DELETE -> {
                        sent += WireSize.pathRequest(znode);
                        ops.add(client.transactionOp().delete().withVersion(step.version()).forPath(znode));
                    }
                    default -> {
                        sent += WireSize.pathRequest(znode);
                        ops.add(client.transactionOp().check().withVersion(step.version()).forPath(znode));
                    }
                }
            }
        } catch (Exception e) {
            result.sampleStart();
            result.sampleEnd();
            failed(c, clients, result, e, 0);
            return;
        }
        result.setSamplerData(request.toString());
        SampleTiming timing = new SampleTiming();
        List<CuratorTransactionResult> results;
        timing.start(result);
        try {
            paths.forEach(WriteStamps::writing);
            results = client.transaction().forOperations(ops);
        } catch (InterruptedException e) {
            timing.end(result);
            throw e;
        } catch (Exception e) {
            timing.end(result);
            failed(c, clients, result, e, sent);
            return;
        }
        timing.end(result);
        LimitedText text = new LimitedText(Math.max(c.limit, 1));
        for (CuratorTransactionResult r : results) {
            text.append(r.getType().name().toLowerCase(Locale.ROOT)).append(' ')
                    .append(r.getResultPath() != null ? r.getResultPath() : r.getForPath()).append('\n');
        }
        Results.succeed(result, OK, results.size() + " operations committed");
        Results.bytes(result, sent, WireSize.reply(results.size() * (8 + WireSize.STAT)));
        if (c.limit > 0) {
            Results.text(result, text.toString());
        }
    }

    private void watch(Compiled c, ZooKeeperClients clients, CuratorFramework client, String znode, long n, int thread,
            SampleResult result) throws InterruptedException {
        String full = WriteStamps.fullPath(clients.settings().namespace, znode);
        WatchWait wait = new WatchWait();
        WriteStamps.waitFor(full, wait);
        long armedWall;
        try {
            try {
                client.checkExists().usingWatcher(wait).forPath(znode);
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                result.sampleStart();
                result.sampleEnd();
                failed(c, clients, result, e, WireSize.pathRequest(znode));
                result.setResponseMessage("setting the watch failed: " + result.getResponseMessage());
                return;
            }
            wait.armed(System.nanoTime());
            armedWall = System.currentTimeMillis();
            if (!c.trigger.equals(TRIGGER_EXTERNAL)) {
                String problem = triggerWrite(c, clients, znode, full, n, thread);
                if (problem != null) {
                    result.sampleStart();
                    result.sampleEnd();
                    Results.fail(result, problem.substring(0, problem.indexOf(' ')), problem.substring(problem.indexOf(' ') + 1));
                    removeQuietly(client, wait, znode);
                    return;
                }
            }
            boolean fired = wait.await(c.watchTimeout);
            if (!fired) {
                WatchTiming.record(result, armedWall, c.watchTimeout * 1000);
                Results.fail(result, WATCH_TIMEOUT, "no notification for " + znode + " within the watch timeout of "
                        + c.watchTimeout + " ms" + (c.trigger.equals(TRIGGER_EXTERNAL)
                        ? " (Trigger is external: did anything write to it?)" : ""));
                removeQuietly(client, wait, znode);
                return;
            }
            if (wait.expired()) {
                WatchTiming.record(result, armedWall, (System.nanoTime() - wait.armedNanos()) / 1000);
                Results.fail(result, KeeperException.Code.SESSIONEXPIRED.name(),
                        "the session expired while waiting for a notification on " + znode);
                return;
            }
        } finally {
            WriteStamps.stopWaiting(full, wait);
        }
        notified(c, client, znode, wait, armedWall, result);
    }

    /** @return null, or "CODE message" when the write failed */
    private String triggerWrite(Compiled c, ZooKeeperClients clients, String znode, String full, long n, int thread)
            throws InterruptedException {
        CuratorFramework writer = clients.triggerClient();
        try {
            WriteStamps.writing(full);
            switch (c.trigger) {
                case "set" -> writer.setData().forPath(znode, payload(c, n, thread));
                case "create" -> writer.create().creatingParentContainersIfNeeded().withMode(CreateMode.PERSISTENT)
                        .forPath(znode, payload(c, n, thread));
                default -> writer.delete().forPath(znode);
            }
            return null;
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            return KeeperCodes.code(e) + " the trigger write (" + c.trigger + " " + znode + " by a second session) "
                    + "failed: " + KeeperCodes.message(e, clients.settings());
        }
    }

    private static void notified(Compiled c, CuratorFramework client, String znode, WatchWait wait, long armedWall,
            SampleResult result) throws InterruptedException {
        Watcher.Event.EventType type = wait.event().getType();
        long micros;
        String how;
        if (wait.writeNanos() != 0 && wait.writeNanos() <= wait.eventNanos()) {
            micros = (wait.eventNanos() - wait.writeNanos()) / 1000;
            how = "from the write sent in this JVM to the event";
        } else {
            Stat stat = null;
            if (type == Watcher.Event.EventType.NodeDataChanged || type == Watcher.Event.EventType.NodeCreated) {
                try {
                    stat = client.checkExists().forPath(znode);
                } catch (InterruptedException e) {
                    throw e;
                } catch (Exception e) {
                    stat = null;
                }
            }
            if (stat != null && stat.getMtime() <= wait.eventWallMillis()) {
                micros = (wait.eventWallMillis() - stat.getMtime()) * 1000;
                how = "writer outside this JVM: from the znode's mtime (server clock) to the event (this machine's "
                        + "clock), millisecond resolution";
            } else {
                micros = (wait.eventNanos() - wait.armedNanos()) / 1000;
                how = "writer outside this JVM and no mtime to go by: from setting the watch to the event";
            }
        }
        long eventWall = wait.eventWallMillis();
        WatchTiming.record(result, Math.max(armedWall, eventWall - micros / 1000) , micros);
        Results.succeed(result, OK, type.name() + " on " + znode + " (" + how + ")");
        Results.bytes(result, WireSize.pathRequest(znode), WireSize.reply(WireSize.STAT)
                + WireSize.reply(WireSize.string(znode) + 8));
        if (c.limit > 0) {
            Results.text(result, type.name() + " " + znode + " after " + micros + " µs");
        }
    }

    private static void removeQuietly(CuratorFramework client, Watcher watcher, String znode) {
        try {
            client.watchers().remove(watcher).ofType(Watcher.WatcherType.Any).quietly().inBackground().forPath(znode);
        } catch (Exception e) {
            // the watch goes with the session at the latest
        }
    }

    private static void failed(Compiled c, ZooKeeperClients clients, SampleResult result, Exception e, long sent) {
        String code = KeeperCodes.code(e);
        String message = KeeperCodes.message(e, clients.settings());
        if (c.accepted.contains(code)) {
            Results.succeed(result, code, message + " (an accepted code)");
        } else {
            Results.fail(result, code, message);
        }
        Results.bytes(result, sent, e instanceof KeeperException ? WireSize.reply(0) : 0);
    }

    /** Compiles the fields, again only when one of them changed (they are set before every sample). */
    private Compiled compiled() {
        Compiled current = compiled;
        if (current != null && current.compiledFrom(this)) {
            return current;
        }
        Fields f = new Fields(ZooKeeperSampler.class, getName());
        f.required("connection", connection);
        Operation op = Operation.valueOf(f.choice("operation", operation, Operation.words()).toUpperCase(Locale.ROOT));
        Template pathTemplate = template(f, "path", f.required("path", path));
        String dataText = data == null ? "" : data;
        Template dataTemplate = dataText.isEmpty() ? null : template(f, "data", dataText);
        SizeSpec sizes;
        try {
            sizes = SizeSpec.parse(dataSize);
        } catch (IllegalArgumentException e) {
            throw f.error("dataSize", e.getMessage());
        }
        String modeName = f.choice("createMode", createMode, CREATE_MODES);
        CreateMode mode = switch (modeName) {
            case "ephemeral" -> CreateMode.EPHEMERAL;
            case "persistent-sequential" -> CreateMode.PERSISTENT_SEQUENTIAL;
            case "ephemeral-sequential" -> CreateMode.EPHEMERAL_SEQUENTIAL;
            case "container" -> CreateMode.CONTAINER;
            case "ttl" -> CreateMode.PERSISTENT_WITH_TTL;
            case "ttl-sequential" -> CreateMode.PERSISTENT_SEQUENTIAL_WITH_TTL;
            default -> CreateMode.PERSISTENT;
        };
        long ttlMillis = mode.isTTL() ? f.longValue("ttl", ttl, 1, Long.MAX_VALUE) : 0;
        boolean parents = f.flag("createParents", createParents);
        int ver = f.integer("version", version, -1, Integer.MAX_VALUE);
        String watchMode = f.choice("watch", watch, WATCH_NONE, WATCH_ONCE, WATCH_KEEP);
        List<MultiStep> steps = List.of();
        if (op == Operation.MULTI) {
            try {
                steps = MultiStep.parse(multiOperations);
            } catch (IllegalArgumentException e) {
                throw f.error("multiOperations", e.getMessage());
            }
        }
        long timeout = f.longValue("watchTimeout", watchTimeout, 1, Long.MAX_VALUE);
        String triggerMode = f.choice("trigger", trigger, TRIGGER_EXTERNAL, "set", "create", "delete");
        Set<String> accepted = new HashSet<>();
        for (String code : f.text("acceptedCodes", acceptedCodes).split("[,\\s]+")) {
            if (!code.isEmpty()) {
                accepted.add(code.toUpperCase(Locale.ROOT));
            }
        }
        int limit = f.integer("responseDataLimit", responseDataLimit, 0, Integer.MAX_VALUE);
        current = new Compiled(fields(), op, pathTemplate, dataTemplate, sizes, mode, ttlMillis, parents, ver, watchMode,
                steps, timeout, triggerMode, accepted, limit);
        compiled = current;
        return current;
    }

    private static Template template(Fields f, String property, String text) {
        try {
            return Template.compile(text);
        } catch (IllegalArgumentException e) {
            throw f.error(property, e.getMessage());
        }
    }

    /** A per-thread session ends with its thread, taking its ephemeral nodes and watches with it. */
    @Override
    public void threadFinished() {
        JMeterVariables variables = JMeterContextService.getContext().getVariables();
        Object found = variables == null ? null : variables.getObject(connection);
        if (found instanceof ZooKeeperClients clients) {
            clients.releaseCurrentThread();
        }
    }

    @Override
    public void threadStarted() {
        // sessions open at the thread's first sample
    }

    public String getConnection() {
        return connection;
    }

    public void setConnection(String connection) {
        this.connection = connection;
    }

    public String getOperation() {
        return operation;
    }

    public void setOperation(String operation) {
        this.operation = operation;
    }

    public String getPath() {
        return path;
    }

    public void setPath(String path) {
        this.path = path;
    }

    public String getData() {
        return data;
    }

    public void setData(String data) {
        this.data = data;
    }

    public String getDataSize() {
        return dataSize;
    }

    public void setDataSize(String dataSize) {
        this.dataSize = dataSize;
    }

    public String getCreateMode() {
        return createMode;
    }

    public void setCreateMode(String createMode) {
        this.createMode = createMode;
    }

    public String getTtl() {
        return ttl;
    }

    public void setTtl(String ttl) {
        this.ttl = ttl;
    }

    public String getCreateParents() {
        return createParents;
    }

    public void setCreateParents(String createParents) {
        this.createParents = createParents;
    }

    public String getVersion() {
        return version;
    }

    public void setVersion(String version) {
        this.version = version;
    }

    public String getWatch() {
        return watch;
    }

    public void setWatch(String watch) {
        this.watch = watch;
    }

    public String getMultiOperations() {
        return multiOperations;
    }

    public void setMultiOperations(String multiOperations) {
        this.multiOperations = multiOperations;
    }

    public String getWatchTimeout() {
        return watchTimeout;
    }

    public void setWatchTimeout(String watchTimeout) {
        this.watchTimeout = watchTimeout;
    }

    public String getTrigger() {
        return trigger;
    }

    public void setTrigger(String trigger) {
        this.trigger = trigger;
    }

    public String getAcceptedCodes() {
        return acceptedCodes;
    }

    public void setAcceptedCodes(String acceptedCodes) {
        this.acceptedCodes = acceptedCodes;
    }

    public String getResponseDataLimit() {
        return responseDataLimit;
    }

    public void setResponseDataLimit(String responseDataLimit) {
        this.responseDataLimit = responseDataLimit;
    }
}
