package org.dsload.zookeeper;

import java.util.List;
import java.util.SplittableRandom;

import org.apache.curator.framework.CuratorFramework;
import org.apache.jmeter.gui.TestElementMetadata;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.dsload.core.CompiledFields;
import org.dsload.core.ConfigException;
import org.dsload.core.Results;
import org.dsload.core.SharedClients;
import org.dsload.core.Unrecoverable;
import org.dsload.core.inflight.InFlightSampler;
import org.dsload.core.inflight.SamplerWindow;

/**
 * ZooKeeper Operation sampler: one znode operation (create, set, get, exists, delete, children;
 * {@link ZnodeCall}), a transaction ({@link MultiCall}), or a watch and its notification
 * ({@link WatchCall}, whose time is the notification latency from the triggering write to the
 * event), through a ZooKeeper Connection's client. Only the call to the server is timed;
 * response codes are ZooKeeper's {@code KeeperException.Code} names. With In flight above 1 the
 * thread keeps that many requests outstanding as background calls ({@link ZooKeeperInFlight}), each timed
 * on its own. The bean holds the fields; {@link OperationSettings} compiles them, the calls send
 * the requests and fill the sample ({@link BlockingSample}).
 */
@TestElementMetadata(labelResource = "displayName")
public class ZooKeeperSampler extends InFlightSampler<SamplerWindow<ZooKeeperTransport.Request>> {
    private static final long serialVersionUID = 1L;
    static final String OK = "OK";
    static final String CONNECTION_KIND = "dsload ZooKeeper Connection";
    static final String SESSION_LIMIT = "SESSION_LIMIT";
    static final String WATCH_TIMEOUT = "WATCH_TIMEOUT";
    /** Appended to the code of a success that came only after Curator retried the request. */
    static final String RETRIED = "_RETRIED";

    private String connection = "zk";
    private String operation = "get";
    private String path = "/dsload/#{seq}";
    private String data = "";
    private String dataSize = "100";
    private String createMode = "persistent";
    private String ttl = "60000";
    private String createParents = "false";
    private String version = "-1";
    private String watch = OperationSettings.WATCH_NONE;
    private String multiOperations = "";
    private String watchTimeout = "10000";
    private String trigger = OperationSettings.TRIGGER_EXTERNAL;
    private String acceptedCodes = "";
    private String responseDataLimit = "1024";
    private String inFlight = "1";
    private String requestsPerSample = "0";
    private String stopOnUnrecoverable = "true";

    private transient long seq;
    private transient SplittableRandom random;
    private transient CompiledFields<OperationSettings> compiled;

    @Override
    protected SampleResult doSample(Entry entry) {
        OperationSettings c;
        ZooKeeperClient clients;
        try {
            c = compiled();
            clients = SharedClients.lookup(connection, ZooKeeperClient.class, CONNECTION_KIND);
        } catch (ConfigException e) {
            return Results.refused(getName(), operation + " " + path, e);
        }
        if (random == null) {
            random = new SplittableRandom();
        }
        CuratorFramework client;
        try {
            client = clients.client();
        } catch (ZooKeeperClient.SessionLimitException e) {
            SampleResult result = Results.create(getName());
            result.sampleStart();
            result.sampleEnd();
            Results.fail(result, SESSION_LIMIT, e.getMessage());
            return result;
        }
        if (c.inFlight() > 1) {
            SamplerWindow<ZooKeeperTransport.Request> window = inFlight(List.of(c, client),
                    () -> ZooKeeperInFlight.window(c, clients, client, this));
            if (c.requestsPerSample() > 0) {
                return window.sampleCounted(this, getName(), c.requestsPerSample(), row -> Unrecoverable.stopIf(row,
                        row.requests().get(0).outcome(), ZooKeeperErrors::unrecoverable, c.stopOnUnrecoverable(), getName()));
            }
            return Unrecoverable.stopIfRow(window.sample(this, getName()), ZooKeeperErrors::unrecoverable,
                    c.stopOnUnrecoverable(), getName());
        }
        if (!oneRequestDue(ZooKeeperErrors::unreachable)) {
            return null; // no arrival left before the thread's end, or the test is stopping
        }
        int thread = JMeterContextService.getContext().getThreadNum() + 1;
        long n = seq++;
        String znode = c.path().expand(n, 0, thread);
        SampleResult result = Results.create(getName());
        BlockingSample sample = new BlockingSample(c, clients, client, n, thread, random, result, getName());
        String unreachable = clients.unreachable(client);
        if (unreachable != null) {
            sample.failAtOnce(unreachable);
        } else {
            try {
                switch (c.op()) {
                    case WATCH -> WatchCall.sample(sample, znode);
                    case MULTI -> MultiCall.sample(sample);
                    default -> ZnodeCall.sample(sample, znode);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                sample.interrupted();
            }
        }
        // The request text costs as much as a fast operation; keep it where someone will look at it.
        if ((c.limit() > 0 || !result.isSuccessful()) && result.getSamplerData() == null) {
            result.setSamplerData(c.op().word() + " " + znode);
        }
        return result;
    }

    /** The #{seq} of the next request. */
    long nextSeq() {
        return seq++;
    }

    SplittableRandom random() {
        return random;
    }

    /** The fields compiled, again only when one of them changed (they are set before every sample). */
    private OperationSettings compiled() {
        if (compiled == null) {
            compiled = new CompiledFields<>();
        }
        OperationSettings.Raw raw = new OperationSettings.Raw(connection, operation, path, data, dataSize, createMode,
                ttl, createParents, version, watch, multiOperations, watchTimeout, trigger, acceptedCodes,
                responseDataLimit, inFlight, requestsPerSample, stopOnUnrecoverable);
        return compiled.get(raw.array(), () -> OperationSettings.compile(raw, getName()));
    }

    /**
     * Requests still in flight are cancelled and reported; then a per-thread session ends with its
     * thread, taking its ephemeral nodes and watches with it.
     */
    @Override
    public void threadFinished() {
        super.threadFinished();
        JMeterVariables variables = JMeterContextService.getContext().getVariables();
        Object found = variables == null ? null : variables.getObject(connection);
        if (found instanceof ZooKeeperClient clients) {
            clients.releaseCurrentThread();
        }
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

    public String getInFlight() {
        return inFlight;
    }

    public void setInFlight(String inFlight) {
        this.inFlight = inFlight;
    }

    public String getRequestsPerSample() {
        return requestsPerSample;
    }

    public void setRequestsPerSample(String requestsPerSample) {
        this.requestsPerSample = requestsPerSample;
    }

    public String getStopOnUnrecoverable() {
        return stopOnUnrecoverable;
    }

    public void setStopOnUnrecoverable(String stopOnUnrecoverable) {
        this.stopOnUnrecoverable = stopOnUnrecoverable;
    }

    public String getResponseDataLimit() {
        return responseDataLimit;
    }

    public void setResponseDataLimit(String responseDataLimit) {
        this.responseDataLimit = responseDataLimit;
    }
}
