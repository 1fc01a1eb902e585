package org.dsload.redis;

import java.util.ArrayList;
import java.util.List;

import org.apache.jmeter.gui.TestElementMetadata;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.dsload.core.ClientSampler;
import org.dsload.core.CompiledFields;
import org.dsload.core.ConfigException;
import org.dsload.core.Fields;
import org.dsload.core.Results;
import org.dsload.core.Results.LimitedText;
import org.dsload.core.SampleTiming;
import org.dsload.core.SharedClients;
import org.dsload.core.SizeSpec;

import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * Redis Command sampler: one command, or a pipeline of N commands counted as N in the sample,
 * through the client of a Redis Connection element. Only the call to the server is timed.
 */
@TestElementMetadata(labelResource = "displayName")
public class RedisSampler extends ClientSampler {
    private static final long serialVersionUID = 1L;
    static final String OK = "OK";
    static final String NIL = "NIL";

    private String connection = "redis";
    private String command = "GET";
    private String keys = "key:#{seq}";
    private String arguments = "";
    private String valueSize = "100";
    private String pipeline = "1";
    private String nilIsFailure = "false";
    private String responseDataLimit = "1024";

    /** The thread's counter behind #{seq}; each thread has its own clone of the sampler. */
    private transient long seq;
    private transient CompiledFields<Compiled> compiled;

    /** The fields compiled into what a sample needs. */
    private record Compiled(CommandPlan plan, int depth, boolean nilFails, int limit) {
    }

    @Override
    protected SampleResult doSample(Entry entry) {
        Compiled c;
        RedisClientHandle client;
        try {
            c = compiled();
            client = SharedClients.lookup(connection, RedisClientHandle.class, "dsload Redis Connection");
        } catch (ConfigException e) {
            return Results.refused(getName(), command + " " + keys + " " + arguments, e);
        }
        int thread = JMeterContextService.getContext().getThreadNum() + 1;
        CommandArguments[] commands = new CommandArguments[c.depth];
        long sent = 0;
        for (int i = 0; i < c.depth; i++) {
            commands[i] = c.plan.build(seq++, i, thread);
            sent += Resp.commandSize(commands[i]);
        }
        SampleResult result = Results.create(getName());
        long received = c.depth == 1 ? single(c, client, commands[0], result) : pipelined(c, client, commands, result);
        Results.bytes(result, sent, received);
        // The request text costs as much as a fast command; keep it where someone will look at it.
        if (c.limit > 0 || !result.isSuccessful()) {
            result.setSamplerData(describe(c, commands));
        }
        return result;
    }

    /** @return bytes received */
    private long single(Compiled c, RedisClientHandle client, CommandArguments command, SampleResult result) {
        Object reply;
        SampleTiming timing = new SampleTiming();
        timing.start(result);
        try {
            reply = client.execute(command);
        } catch (RuntimeException e) {
            timing.end(result);
            return failed(result, e, client);
        }
        timing.end(result);
        int nils = Resp.nils(reply);
        if (c.limit > 0) {
            LimitedText text = new LimitedText(c.limit);
            Resp.render(reply, text, "");
            Results.text(result, text.toString());
        }
        if (nils == 0) {
            Results.succeed(result, OK, OK);
        } else if (c.nilFails) {
            Results.fail(result, NIL, "nil reply to " + c.plan.describe(command) + " (Nil is a failure is on)");
        } else {
            Results.succeed(result, NIL, "nil reply");
        }
        return Resp.replySize(reply);
    }

    /** @return bytes received */
    private long pipelined(Compiled c, RedisClientHandle client, CommandArguments[] commands, SampleResult result) {
        result.setSampleCount(commands.length);
        client.countSent(commands[0], commands.length);
        List<Response<Object>> responses = new ArrayList<>(commands.length);
        SampleTiming timing = new SampleTiming();
        timing.start(result);
        try (AbstractPipeline pipe = client.pipelined()) {
            for (CommandArguments command : commands) {
                responses.add(pipe.sendCommand(command));
            }
            pipe.sync();
        } catch (RuntimeException e) {
            timing.end(result);
            return failed(result, e, client);
        }
        timing.end(result);

        long received = 0;
        int nils = 0;
        int errors = 0;
        RuntimeException firstError = null;
        int firstErrorAt = -1;
        int firstNilAt = -1;
        LimitedText text = c.limit > 0 ? new LimitedText(c.limit) : null;
        for (int i = 0; i < responses.size(); i++) {
            Object reply;
            try {
                reply = responses.get(i).get();
            } catch (RuntimeException e) {
                errors++;
                if (firstError == null) {
                    firstError = e;
                    firstErrorAt = i;
                }
                received += Resp.errorSize(e);
                reply = e;
            }
            if (!(reply instanceof RuntimeException)) {
                received += Resp.replySize(reply);
                int n = Resp.nils(reply);
                if (n > 0 && firstNilAt < 0) {
                    firstNilAt = i;
                }
                nils += n;
            }
            if (text != null && !text.full()) {
                text.append(Integer.toString(i + 1)).append(") ");
                Resp.render(reply, text, "   ");
                text.append('\n');
            }
        }
        if (text != null) {
            Results.text(result, text.toString());
        }
        int n = commands.length;
        if (errors > 0) {
            Results.fail(result, RedisErrors.code(firstError), errors + " of " + n + " commands failed; first, "
                    + c.plan.describe(commands[firstErrorAt]) + ": " + RedisErrors.message(firstError, client));
        } else if (nils > 0 && c.nilFails) {
            Results.fail(result, NIL, nils + " nil replies in " + n + " commands; first to "
                    + c.plan.describe(commands[firstNilAt]) + " (Nil is a failure is on)");
        } else if (nils > 0) {
            Results.succeed(result, NIL, nils + " nil replies in " + n + " commands");
        } else {
            Results.succeed(result, OK, OK);
        }
        return received;
    }

    /** @return bytes received: an error reply's, or none when the connection failed */
    private static long failed(SampleResult result, RuntimeException e, RedisClientHandle client) {
        Results.fail(result, RedisErrors.code(e), RedisErrors.message(e, client));
        return e instanceof JedisDataException ? Resp.errorSize(e) : 0;
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
        return compiled.get(new String[] {connection, command, keys, arguments, valueSize, pipeline, nilIsFailure,
            responseDataLimit}, this::compile);
    }

    private Compiled compile() {
        Fields f = new Fields(RedisSampler.class, getName());
        f.required("connection", connection);
        int depth = f.integer("pipeline", pipeline, 1, 1_000_000);
        boolean nilFails = f.flag("nilIsFailure", nilIsFailure);
        int limit = f.integer("responseDataLimit", responseDataLimit, 0, Integer.MAX_VALUE);
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
        return new Compiled(plan, depth, nilFails, limit);
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

    public String getNilIsFailure() {
        return nilIsFailure;
    }

    public void setNilIsFailure(String nilIsFailure) {
        this.nilIsFailure = nilIsFailure;
    }

    public String getResponseDataLimit() {
        return responseDataLimit;
    }

    public void setResponseDataLimit(String responseDataLimit) {
        this.responseDataLimit = responseDataLimit;
    }
}
