package org.dsload.redis;

import org.apache.jmeter.gui.TestElementMetadata;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.dsload.core.BlockingBatch;
import org.dsload.core.CompiledFields;
import org.dsload.core.ConfigException;
import org.dsload.core.Fields;
import org.dsload.core.IntendedStart;
import org.dsload.core.Outcome;
import org.dsload.core.RequestsResult;
import org.dsload.core.Results;
import org.dsload.core.SharedClients;
import org.dsload.core.SizeSpec;
import org.dsload.core.Unrecoverable;
import org.dsload.core.inflight.InFlightSampler;

import redis.clients.jedis.CommandArguments;

/**
 * Redis Command sampler: one command, or a pipeline of N commands counted as N in the sample,
 * through the client of a Redis Connection element; with Requests per sample above 1, several
 * commands one after the other, each timed on its own ({@link BlockingBatch}); with In flight above 1, commands kept
 * outstanding on the thread's own connections, each timed on its own. The bean holds the fields;
 * {@link CommandCall}, {@link PipelineCall} and {@link RedisInFlight} do the calls.
 */
@TestElementMetadata(labelResource = "displayName")
public class RedisSampler extends InFlightSampler<RedisInFlight> {
    private static final long serialVersionUID = 1L;
    static final String OK = "OK";
    static final String NIL = "NIL";

    private String connection = "redis";
    private String command = "GET";
    private String keys = "key:#{seq}";
    private String arguments = "";
    private String valueSize = "100";
    private String pipeline = "1";
    private String inFlight = "1";
    private String requestsPerSample = "1";
    private String nilIsFailure = "false";
    private String responseDataLimit = "1024";
    private String stopOnUnrecoverable = "true";

    /** The thread's counter behind #{seq}; each thread has its own clone of the sampler. */
    private transient Sequence seq;
    private transient CompiledFields<Compiled> compiled;
    /** Requests per sample above 1: this clone's batch, stopped when the test stops. */
    private transient volatile BlockingBatch batch;

    /** The fields compiled into what a sample needs. */
    record Compiled(CommandPlan plan, int depth, int inFlight, int perSample, boolean nilFails, int limit,
            boolean stop) {
    }

    /** The counter behind #{seq}. */
    static final class Sequence {
        private long next;

        long next() {
            return next++;
        }
    }

    @Override
    protected SampleResult doSample(Entry entry) {
        Compiled c;
        RedisClient client;
        try {
            c = compiled();
            client = SharedClients.lookup(connection, RedisClient.class, "dsload Redis Connection");
            if (c.inFlight > 1 && client.endpoint().tls()) {
                throw new Fields(RedisSampler.class, getName()).error("inFlight", "is " + c.inFlight
                        + " but the dsload Redis Connection '" + connection + "' has TLS on: requests in flight go "
                        + "over plain TCP only. Set In flight to 1, or TLS to false");
            }
        } catch (ConfigException e) {
            return Results.refused(getName(), command + " " + keys + " " + arguments, e);
        }
        if (seq == null) {
            seq = new Sequence();
        }
        if (c.inFlight > 1) {
            return stopIfUnrecoverable(inFlight(c, () -> new RedisInFlight(c, client, seq)).sample(this, getName()), c);
        }
        if (c.perSample > 1 && IntendedStart.takeOffer(this) != null) {
            return Results.refused(getName(), command + " " + keys, new Fields(RedisSampler.class, getName())
                    .error("requestsPerSample", "is " + c.perSample + " but an arrival schedule paces this sampler, "
                            + "one arrival per sample. Set Requests per sample to 1, or use In flight to keep "
                            + "several requests outstanding under the schedule"));
        }
        if (!oneRequestDue(RedisErrors::unreachable)) {
            return null; // no arrival left before the thread's end, or the test is stopping
        }
        int thread = JMeterContextService.getContext().getThreadNum() + 1;
        if (c.perSample > 1) {
            return stopIfUnrecoverable(batch(c, client, thread), c);
        }
        CommandArguments[] commands = new CommandArguments[c.depth];
        long sent = 0;
        for (int i = 0; i < c.depth; i++) {
            commands[i] = c.plan.build(seq.next(), i, thread);
            sent += Resp.commandSize(commands[i]);
        }
        SampleResult result;
        long received;
        if (c.depth == 1) {
            result = Results.create(getName());
            received = CommandCall.run(c, client, commands[0], result);
        } else {
            RequestsResult pipelined = Results.fill(new RequestsResult(), getName());
            received = PipelineCall.run(c, client, commands, pipelined);
            result = pipelined;
        }
        Results.bytes(result, sent, received);
        // The request text costs as much as a fast command; keep it where someone will look at it.
        if (c.limit > 0 || !result.isSuccessful()) {
            result.setSamplerData(describe(c, commands));
        }
        return stopIfUnrecoverable(result, c);
    }

    /** Requests per sample above 1: commands one after the other, each timed on its own. */
    private SampleResult batch(Compiled c, RedisClient client, int thread) {
        BlockingBatch b = batch;
        if (b == null) {
            b = new BlockingBatch();
            batch = b;
        }
        boolean show = c.limit > 0;
        return b.run(getName(), c.perSample,
                () -> CommandCall.request(c, client, c.plan.build(seq.next(), 0, thread), show),
                row -> RedisInFlight.show(row, row.requests()));
    }

    /** A stopping test: a sample of several requests sends no more of them. */
    @Override
    public boolean interrupt() {
        BlockingBatch b = batch;
        if (b != null) {
            b.stop();
        }
        return super.interrupt() || b != null;
    }

    /** A failed login or a missing permission stops the test (Stop on unrecoverable errors). */
    private SampleResult stopIfUnrecoverable(SampleResult result, Compiled c) {
        if (result != null && !result.isSuccessful()) {
            Unrecoverable.stopIf(result, Outcome.failed(result.getResponseCode(), result.getResponseMessage(), 0, 0),
                    RedisErrors::unrecoverable, c.stop, getName());
        }
        return result;
    }

    private static String describe(Compiled c, CommandArguments[] commands) {
        String first = c.plan.describe(commands[0]);
        if (commands.length == 1) {
            return first;
        }
        return "pipeline of " + commands.length + " commands: " + first + " ... "
                + c.plan.describe(commands[commands.length - 1]);
    }

    /** The fields compiled, again only when one of them changed (they are set before every sample). */
    private Compiled compiled() {
        if (compiled == null) {
            compiled = new CompiledFields<>();
        }
        return compiled.get(new String[] {connection, command, keys, arguments, valueSize, pipeline, inFlight,
            requestsPerSample, nilIsFailure, responseDataLimit, stopOnUnrecoverable}, this::compile);
    }

    private Compiled compile() {
        Fields f = new Fields(RedisSampler.class, getName());
        f.required("connection", connection);
        int depth = f.integer("pipeline", pipeline, 1, 1_000_000);
        int requests = f.integer("inFlight", inFlight, 1, 1_000_000, 1);
        // a plan saved before the field existed has it empty: one request per sample
        int perSample = f.integer("requestsPerSample", requestsPerSample, 1, 1_000_000, 1);
        if (perSample > 1 && depth > 1) {
            throw f.error("requestsPerSample", "is " + perSample + " with a pipeline depth of " + depth
                    + ": a pipelined sample already carries its " + depth + " commands. Set one of them to 1");
        }
        if (perSample > 1 && requests > 1) {
            throw f.error("requestsPerSample", "is " + perSample + " with In flight " + requests
                    + ": requests in flight already come back several to a sample. Set one of them to 1");
        }
        boolean nilFails = f.flag("nilIsFailure", nilIsFailure);
        int limit = f.integer("responseDataLimit", responseDataLimit, 0, Integer.MAX_VALUE);
        // a plan saved before the field existed has it empty: the default, true
        boolean stop = f.text("stopOnUnrecoverable", stopOnUnrecoverable).isEmpty()
                || f.flag("stopOnUnrecoverable", stopOnUnrecoverable);
        SizeSpec sizes;
        try {
            sizes = SizeSpec.parse(valueSize);
        } catch (IllegalArgumentException e) {
            throw f.error("valueSize", e.getMessage());
        }
        CommandPlan plan;
        try {
            plan = CommandPlan.compile(command, keys, arguments, sizes);
        } catch (IllegalArgumentException e) {
            String message = e.getMessage();
            int colon = message.indexOf(':');
            throw f.error(message.substring(0, colon), message.substring(colon + 1));
        }
        return new Compiled(plan, depth, requests, perSample, nilFails, limit, stop);
    }

    public String getConnection() {
        return connection;
    }

    public void setConnection(String connection) {
        this.connection = connection;
    }

    public String getCommand() {
        return command;
    }

    public void setCommand(String command) {
        this.command = command;
    }

    public String getKeys() {
        return keys;
    }

    public void setKeys(String keys) {
        this.keys = keys;
    }

    public String getArguments() {
        return arguments;
    }

    public void setArguments(String arguments) {
        this.arguments = arguments;
    }

    public String getValueSize() {
        return valueSize;
    }

    public void setValueSize(String valueSize) {
        this.valueSize = valueSize;
    }

    public String getPipeline() {
        return pipeline;
    }

    public void setPipeline(String pipeline) {
        this.pipeline = pipeline;
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

    public String getNilIsFailure() {
        return nilIsFailure;
    }

    public void setNilIsFailure(String nilIsFailure) {
        this.nilIsFailure = nilIsFailure;
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
