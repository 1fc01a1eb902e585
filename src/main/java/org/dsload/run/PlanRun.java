package org.dsload.run;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.dsload.core.format.RunProperties;
import org.dsload.process.JMeterJvm;

/**
 * What to run: a plan, with properties for the master ({@code -J}) and for every engine
 * ({@code -G}), against a JMeter home, into {@code <resultsRoot>/<runId>/}.
 */
public final class PlanRun {
    final Path jmeterHome;
    final Path plan;
    Path resultsRoot = Path.of("results");
    String runId;
    final Map<String, String> properties = new LinkedHashMap<>();
    final Map<String, String> globalProperties = new LinkedHashMap<>();
    final List<String> remoteHosts = new ArrayList<>();
    final List<String> jvmArgs = new ArrayList<>(JMeterJvm.heap("1g"));
    final List<String> extraArgs = new ArrayList<>();
    Duration timeout;
    boolean dashboard = true;
    boolean charts = true;
    int localSlaves;
    boolean allowMissingSlaves;
    /** The least number of slaves the run goes on with; 0: every slave. */
    int minSlaves;
    Path remoteDir = Path.of("remote-servers");
    String rmiHostname;
    String slaveHeap = "512m";

    /** {@code -Jmin_slaves=k}: as {@link #minSlaves(int)}. */
    public static final String MIN_SLAVES_PROPERTY = "min_slaves";

    public PlanRun(Path jmeterHome, Path plan) {
        this.jmeterHome = jmeterHome;
        this.plan = plan;
    }

    public PlanRun resultsRoot(Path root) {
        this.resultsRoot = root;
        return this;
    }

    /** Folder name under the results root; by default a timestamp and the plan's name. */
    public PlanRun runId(String id) {
        this.runId = id;
        return this;
    }

    /** A JMeter property of this JMeter process ({@code -J}). */
    public PlanRun property(String name, String value) {
        properties.put(name, value);
        return this;
    }

    /** A property sent to every engine, remote ones included ({@code -G}). */
    public PlanRun globalProperty(String name, String value) {
        globalProperties.put(name, value);
        return this;
    }

    /** Runs the plan on these jmeter-server engines ({@code -R host:port,...}) instead of locally. */
    public PlanRun remoteHosts(List<String> hosts) {
        remoteHosts.clear();
        remoteHosts.addAll(hosts);
        return this;
    }

    /**
     * Runs the plan on this many jmeter-server slaves that the run starts on this machine (127.0.0.2,
     * 127.0.0.3 ...) and stops at its end, besides any {@link #remoteHosts}; 0 for none.
     */
    public PlanRun localSlaves(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("local slaves: " + count);
        }
        this.localSlaves = count;
        return this;
    }

    /** Goes on without slaves that cannot be reached at the start (they are named in the summary). */
    public PlanRun allowMissingSlaves(boolean allow) {
        this.allowMissingSlaves = allow;
        return this;
    }

    /**
     * Goes on when at least this many slaves can be reached at the start, without the others (they
     * are named); 0, the default, needs every slave. The JMeter property {@value #MIN_SLAVES_PROPERTY}
     * says the same.
     */
    public PlanRun minSlaves(int least) {
        if (least < 0) {
            throw new IllegalArgumentException("least slaves: " + least);
        }
        this.minSlaves = least;
        return this;
    }

    /** Where the RMI keystore is kept (and made if missing); remote-servers/ by default. */
    public PlanRun remoteDir(Path dir) {
        this.remoteDir = dir;
        return this;
    }

    /** The address slaves call the master back on, when JMeter's choice is not reachable from them. */
    public PlanRun rmiHostname(String host) {
        this.rmiHostname = host;
        return this;
    }

    /** Heap of each local slave (default 512m). */
    public PlanRun slaveHeap(String heap) {
        this.slaveHeap = heap;
        return this;
    }

    /** Whether the run was told the store will fail during it ({@code -Jdsload.expect_faults=true}). */
    boolean faultsExpected() {
        return Boolean.parseBoolean(properties.getOrDefault(RunProperties.EXPECT_FAULTS, "false").trim());
    }

    /** The engines that run the plan's threads: every slave of a distributed run, else the master alone. */
    public int engines() {
        return distributed() ? localSlaves + remoteHosts.size() : 1;
    }

    /** True when the plan runs on slaves rather than in the master. */
    public boolean distributed() {
        return localSlaves > 0 || !remoteHosts.isEmpty();
    }

    /** Heap and other JVM options of the JMeter process, replacing the default 1 GB heap. */
    public PlanRun jvmArgs(List<String> args) {
        jvmArgs.clear();
        jvmArgs.addAll(args);
        return this;
    }

    /** Arguments passed to JMeter as they are. */
    public PlanRun extraArg(String arg) {
        extraArgs.add(arg);
        return this;
    }

    /** JMeter is stopped (and the run reported as failed) if it runs longer than this. */
    public PlanRun timeout(Duration limit) {
        this.timeout = limit;
        return this;
    }

    public PlanRun dashboard(boolean generate) {
        this.dashboard = generate;
        return this;
    }

    /**
     * Whether the run's PNG charts are drawn at its end (by default they are). Drawing them reads the
     * results file once more: in a JVM that has drawn charts before, 0.3 s of CPU for a 2 MB results
     * file and 1.2 s for a 38 MB one; 1.1-1.4 s in a JVM of its own. The summary and its JSON are
     * written either way.
     */
    public PlanRun charts(boolean draw) {
        this.charts = draw;
        return this;
    }

    public Path plan() {
        return plan;
    }
}
