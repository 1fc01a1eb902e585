package org.dsload.cassandra;

import java.util.List;

import org.apache.jmeter.gui.TestElementMetadata;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.SampleResult;
import org.dsload.core.CompiledFields;
import org.dsload.core.ConfigException;
import org.dsload.core.Fields;
import org.dsload.core.Results;
import org.dsload.core.SharedClients;
import org.dsload.core.inflight.InFlightSampler;
import org.dsload.redis.RedisClient;
import org.dsload.redis.RedisYcsbBinding;
import org.dsload.ycsb.AsyncYcsbBinding;
import org.dsload.ycsb.InFlightPhase;
import org.dsload.ycsb.PhaseRunner;
import org.dsload.ycsb.YcsbBinding;

/**
 * YCSB Operation sampler: runs a YCSB Workload's load or run phase ({@link PhaseRunner}) through
 * a binding to a store, the Cassandra Session's CQL ({@link CassandraYcsbBinding}) or a Redis
 * Connection's hashes ({@link RedisYcsbBinding}), found by the connection's variable name. With
 * In flight above 1 the thread keeps that many operations outstanding through a binding with an
 * asynchronous client ({@link InFlightPhase}). It stays in this package, under this name, because
 * saved plans name it.
 */
@TestElementMetadata(labelResource = "displayName")
public class YcsbSampler extends InFlightSampler<InFlightPhase> {
    private static final long serialVersionUID = 1L;
    static final String RUN = "run";
    static final String CASSANDRA = "cassandra";
    static final String REDIS = "redis";

    private String session = "cassandra";
    private String workload = "ycsb";
    private String phase = RUN;
    private String binding = CASSANDRA;
    private String inFlight = "1";
    private String stopOnUnrecoverable = "true";

    private transient CompiledFields<Settings> compiled;
    private transient PhaseRunner runner;
    /** This thread's binding, kept while the client it wraps is the one published (a new test publishes another). */
    private transient YcsbBinding bound;
    private transient Object boundClient;

    private record Settings(boolean load, boolean redis, int inFlight, boolean stopOnUnrecoverable) {
    }

    @Override
    protected SampleResult doSample(Entry entry) {
        Settings s;
        YcsbRun run;
        YcsbBinding store;
        try {
            s = compiled();
            run = SharedClients.lookup(workload, YcsbRun.class, "dsload YCSB Workload");
            store = binding(s, run);
        } catch (ConfigException e) {
            return Results.refused(getName(), "YCSB " + phase + " on " + binding, e);
        }
        if (runner == null) {
            runner = PhaseRunner.forThisThread(run.shared().workload().spec().seed(), s.load());
        }
        if (s.inFlight() > 1) {
            if (!(store instanceof AsyncYcsbBinding async)) {
                return Results.refused(getName(), "YCSB " + phase + " on " + binding, new Fields(YcsbSampler.class,
                        getName()).error("inFlight", "is " + s.inFlight() + " but the " + binding + " binding sends "
                        + "one command at a time and waits for it: In flight above 1 needs a store with an "
                        + "asynchronous client (cassandra, redis). Set In flight to 1"));
            }
            String refused = async.inFlightRefused();
            if (refused != null) {
                return Results.refused(getName(), "YCSB " + phase + " on " + binding, new Fields(YcsbSampler.class,
                        getName()).error("inFlight", "is " + s.inFlight() + " but " + refused));
            }
            SampleResult setUp = s.load() ? runner.setUpFirst(run.shared(), store, getName()) : null;
            if (setUp != null) {
                return setUp;
            }
            return inFlight(List.of(s, run.shared(), async), () -> new InFlightPhase(run.shared(), async, runner,
                    s.load(), s.inFlight(), s.stopOnUnrecoverable(), this, getName())).sample();
        }
        if (!oneRequestDue(store::unreachable)) {
            return null; // no arrival left before the thread's end, or the test is stopping
        }
        return s.load() ? runner.load(run.shared(), store, getName())
                : runner.operation(run.shared(), store, s.stopOnUnrecoverable(), getName());
    }

    private YcsbBinding binding(Settings s, YcsbRun run) {
        Object client = s.redis() ? SharedClients.lookup(session, RedisClient.class, "dsload Redis Connection")
                : SharedClients.lookup(session, CassandraClient.class, "dsload Cassandra Session");
        if (client != boundClient) {
            bound = s.redis() ? new RedisYcsbBinding((RedisClient) client, run.shared().workload().spec().fieldCount())
                    : new CassandraYcsbBinding((CassandraClient) client, run);
            boundClient = client;
            run.bindingUsed(s.redis() ? REDIS : CASSANDRA);
        }
        return bound;
    }

    private Settings compiled() {
        if (compiled == null) {
            compiled = new CompiledFields<>();
        }
        return compiled.get(new String[] {session, workload, phase, binding, inFlight, stopOnUnrecoverable}, () -> {
            Fields f = new Fields(YcsbSampler.class, getName());
            f.required("session", session);
            f.required("workload", workload);
            boolean load = f.choice("phase", phase, "load", RUN).equals("load");
            // plans saved before these fields existed leave them empty (JMeter 5.6 sets a missing property to "")
            boolean redis = f.choice("binding", orDefault(binding, CASSANDRA), CASSANDRA, REDIS).equals(REDIS);
            int requests = f.integer("inFlight", inFlight, 1, CqlSettings.MAX_IN_FLIGHT, 1);
            return new Settings(load, redis, requests, f.flag("stopOnUnrecoverable", orDefault(stopOnUnrecoverable,
                    "true")));
        });
    }

    static String orDefault(String raw, String defaultValue) {
        return raw == null || raw.isBlank() ? defaultValue : raw;
    }

    public String getSession() {
        return session;
    }

    public void setSession(String session) {
        this.session = session;
    }

    public String getWorkload() {
        return workload;
    }

    public void setWorkload(String workload) {
        this.workload = workload;
    }

    public String getPhase() {
        return phase;
    }

    public void setPhase(String phase) {
        this.phase = phase;
    }

    public String getBinding() {
        return binding;
    }

    public void setBinding(String binding) {
        this.binding = binding;
    }

    public String getInFlight() {
        return inFlight;
    }

    public void setInFlight(String inFlight) {
        this.inFlight = inFlight;
    }

    public String getStopOnUnrecoverable() {
        return stopOnUnrecoverable;
    }

    public void setStopOnUnrecoverable(String stopOnUnrecoverable) {
        this.stopOnUnrecoverable = stopOnUnrecoverable;
    }
}
