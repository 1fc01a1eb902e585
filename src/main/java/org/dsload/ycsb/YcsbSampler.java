package org.dsload.ycsb;

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

/**
 * YCSB Operation sampler: runs a YCSB Workload's load or run phase ({@link PhaseRunner}) through
 * a binding to a store, chosen by name among the registered ones ({@link YcsbBindingProvider}: the
 * Cassandra Session's CQL, a Redis Connection's hashes), over the client of the connection element
 * named by its variable name, with the binding's settings element if one is named. With In flight
 * above 1 the thread keeps that many operations outstanding through a binding with an asynchronous
 * client ({@link InFlightPhase}).
 */
@TestElementMetadata(labelResource = "displayName")
public class YcsbSampler extends InFlightSampler<InFlightPhase> {
    private static final long serialVersionUID = 1L;
    static final String RUN = "run";
    static final String CASSANDRA = "cassandra";
    /** The most operations a thread keeps outstanding. */
    static final int MAX_IN_FLIGHT = 100_000;

    private String session = "cassandra";
    private String bindingSettings = "";
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
    private transient String boundSettings;

    private record Settings(boolean load, YcsbBindingProvider provider, int inFlight, boolean stopOnUnrecoverable) {
    }

    @Override
    protected SampleResult doSample(Entry entry) {
        Settings s;
        WorkloadRun run;
        YcsbBinding store;
        try {
            s = compiled();
            run = SharedClients.setting(workload, WorkloadRun.class, "dsload YCSB Workload");
            store = binding(s, run);
        } catch (ConfigException e) {
            return Results.refused(getName(), "YCSB " + phase + " on " + binding, e);
        }
        if (runner == null) {
            runner = PhaseRunner.forThisThread(run.workload().spec().seed(), s.load());
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
            SampleResult setUp = s.load() ? runner.setUpFirst(run, store, getName()) : null;
            if (setUp != null) {
                return setUp;
            }
            return inFlight(List.of(s, run, async), () -> new InFlightPhase(run, async, runner,
                    s.load(), s.inFlight(), s.stopOnUnrecoverable(), this, getName())).sample();
        }
        if (!oneRequestDue(store::unreachable)) {
            return null; // no arrival left before the thread's end, or the test is stopping
        }
        return s.load() ? runner.load(run, store, getName())
                : runner.operation(run, store, s.stopOnUnrecoverable(), getName());
    }

    private YcsbBinding binding(Settings s, WorkloadRun run) {
        Object client = s.provider().client(session);
        String settings = bindingSettings == null ? "" : bindingSettings.trim();
        if (client != boundClient || !settings.equals(boundSettings)) {
            bound = s.provider().bind(client, settings, run);
            boundClient = client;
            boundSettings = settings;
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
            // plans saved before these fields existed leave them empty
            String name = f.choice("binding", Fields.orDefault(binding, CASSANDRA), YcsbBindingProvider.names());
            YcsbBindingProvider provider = YcsbBindingProvider.all().stream().filter(p -> p.name().equals(name))
                    .findFirst().orElseThrow();
            int requests = f.integer("inFlight", inFlight, 1, MAX_IN_FLIGHT, 1);
            return new Settings(load, provider, requests, f.flag("stopOnUnrecoverable", Fields.orDefault(stopOnUnrecoverable,
                    "true")));
        });
    }

    public String getSession() {
        return session;
    }

    public void setSession(String session) {
        this.session = session;
    }

    public String getBindingSettings() {
        return bindingSettings;
    }

    public void setBindingSettings(String bindingSettings) {
        this.bindingSettings = bindingSettings;
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
