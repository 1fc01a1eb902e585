package org.dsload.run;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLContext;

import org.dsload.core.format.RunFiles;
import org.dsload.core.format.RunProperties;
import org.dsload.recording.RecordingSockets;
import org.dsload.remote.LocalSlaves;
import org.dsload.remote.RmiKeystore;
import org.dsload.remote.RmiSecurity;
import org.dsload.remote.SlaveAddress;
import org.dsload.remote.SlaveEngine;
import org.dsload.remote.SlaveProbe;
import org.dsload.remote.SlaveProcess;
import org.dsload.report.LabelStats;
import org.dsload.report.SlaveRoster;
import org.dsload.report.SlavesSection;
import org.dsload.report.Summary;

/**
 * The distributed side of a run: RMI security for both ends, the local slaves the run starts, a
 * reachability check of every slave before the master starts, what every slave must be told
 * ({@code -G}), the watch for slaves lost during the run, and the roster the summary reads.
 */
final class DistributedRun implements AutoCloseable {
    /** A slave's round trip from which a run in rows mode is told that its links cost its sampler threads (ms). */
    static final long FAR_ROUND_TRIP_MILLIS = 20;
    /**
     * The sample sender ({@code mode}), set explicitly on the master (where JMeter resolves it) and the
     * slaves: dsload's {@code recording.QueuedSampleSender} (named here, as the runner's JVM has no
     * JMeter classes), which sends batches of samples without their response data from a thread of its
     * own, so that no sampler thread waits for the master. docs/distributed.md has the measurements
     * behind the choice.
     */
    static final String DEFAULT_SENDER_MODE = "org.dsload.recording.QueuedSampleSender";
    /** JMeter's senders whose RMI calls are made by the sampler threads. */
    private static final List<String> WAITING_SENDERS = List.of("standard", "stripped", "batch", "strippedbatch");
    static final String MODE_PROPERTY = "mode";
    /** {@code -Jallow_missing_slaves=true}: run on the slaves that can be reached. */
    static final String ALLOW_MISSING_PROPERTY = "allow_missing_slaves";
    /** The shipped plans' load length in seconds. */
    static final String DURATION_PROPERTY = "duration";
    /** JMeter's base of the master's ports for the slaves' calls: its listeners take this port + 1 and + 2. */
    static final String CALLBACK_PORT_PROPERTY = "client.rmi.localport";
    private static final Duration PREFLIGHT_TIMEOUT = Duration.ofSeconds(3);
    /** For the lookup of a slave's engine on another machine, which calls the engine too. */
    private static final Duration ENGINE_TIMEOUT = Duration.ofSeconds(10);
    /** Properties that concern the master only, or each process separately. */
    private static final List<String> NOT_FOR_SLAVES = List.of(RunProperties.RUN_DIR, "server.rmi.ssl.keystore.file",
            "server.rmi.ssl.truststore.file", "server.rmi.ssl.keystore.alias", "java.rmi.server.hostname");

    private final PlanRun run;
    private final Path dir;
    private final PrintStream console;
    private final RmiSecurity security;
    private final List<SlaveAddress> slaves = new ArrayList<>();
    private final List<SlaveRoster.Entry> missing = new ArrayList<>();
    private Map<String, SlaveWatch.Loss> lostInRun = Map.of();
    private Map<String, SlaveWatch.Loss> stalledInRun = Map.of();
    private Map<String, SlaveWatch.Loss> resumedInRun = Map.of();
    /** Slaves that ran to the end but whose recordings could not be fetched after the run: when, and why. */
    private final Map<String, SlaveWatch.Loss> unfetched = new LinkedHashMap<>();
    private LocalSlaves local;
    private String problem;
    private SlaveWatch watch;
    private StartSignal startSignal;
    /** How long a local slave waits at its test start for the run's start instant ({@link StartSignal}). */
    private static final long START_WAIT_MILLIS = 120_000;

    private DistributedRun(PlanRun run, Path dir, PrintStream console, RmiSecurity security) {
        this.run = run;
        this.dir = dir;
        this.console = console;
        this.security = security;
    }

    /** Refuses, before anything starts, a literal secret that JMeter would log on every slave. */
    static void checkNoLiteralSecrets(PlanRun run) throws IOException {
        Map<String, String> all = new LinkedHashMap<>(run.properties);
        all.putAll(run.globalProperties);
        for (Map.Entry<String, String> p : all.entrySet()) {
            String v = p.getValue();
            if (SecretNames.isLiteralSecret(p.getKey(), v)) {
                throw new IOException("property '" + p.getKey() + "' holds a literal value: in a distributed run JMeter "
                        + "writes every property it sends to the slaves into their logs. Pass env:NAME or file:/path "
                        + "instead (read on each slave).");
            }
        }
    }

    /**
     * Refuses {@code client.rmi.localport} with RMI over SSL: the master exports a remote listener per
     * slave and per sample listener of the plan, the threads' listeners on that port + 1, the samples'
     * on + 2, and JMeter's SSL server socket factory (unlike the plain one) does not let RMI share a
     * port between them, so the second export fails ("Listen failed on port ...") and JMeter starts no
     * slave, even with one slave (a dsload run's plan has two sample listeners).
     */
    static Optional<String> pinnedCallbackPortRefusal(Map<String, String> properties) {
        String value = properties.get(CALLBACK_PORT_PROPERTY);
        if (value == null || value.isBlank() || RmiSecurity.disabledBy(properties)) {
            return Optional.empty();
        }
        int port;
        try {
            port = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            return Optional.of("no load was started: " + CALLBACK_PORT_PROPERTY + "=" + value + " is not a port number");
        }
        if (port == 0) {
            return Optional.empty();
        }
        return Optional.of("no load was started: " + CALLBACK_PORT_PROPERTY + "=" + port + " cannot work with RMI over "
                + "SSL: the master would listen for every slave's calls on ports " + (port + 1) + " and " + (port + 2)
                + ", and JMeter binds each of its listeners there anew with SSL, so the second one fails (Listen failed"
                + " on port " + (port + 2) + ") and no slave starts. Leave " + CALLBACK_PORT_PROPERTY + " out (the "
                + "master then takes free ports: let the master's firewall accept connections from the slaves' "
                + "addresses), or, on a network you trust, turn SSL off (-Jserver.rmi.ssl.disable=true, slaves started"
                + " with --no-ssl), where the two ports can be pinned.");
    }

    /**
     * Starts the run's local slaves and checks every slave; {@link #problem()} says if the run cannot
     * go on (no keystore to use, a local slave that did not start, slaves out of reach).
     */
    static DistributedRun prepare(PlanRun run, Path dir, PrintStream console) throws IOException {
        Map<String, String> all = new LinkedHashMap<>(run.properties);
        all.putAll(run.globalProperties);
        Optional<String> pinned = pinnedCallbackPortRefusal(all);
        if (pinned.isPresent()) {
            DistributedRun refused = new DistributedRun(run, dir, console, RmiSecurity.disabled());
            refused.problem = pinned.get();
            return refused;
        }
        RmiSecurity security;
        try {
            security = RmiSecurity.disabledBy(all) ? RmiSecurity.disabled()
                    : RmiSecurity.ssl(RmiKeystore.ensure(run.remoteDir, console));
        } catch (IOException e) {
            DistributedRun refused = new DistributedRun(run, dir, console, RmiSecurity.disabled());
            refused.problem = "no load was started: " + e.getMessage();
            return refused;
        }
        DistributedRun d = new DistributedRun(run, dir, console, security);
        try {
            try {
                d.startLocalSlaves();
            } catch (IOException e) {
                d.close();
                d.problem = "no load was started: a local slave did not start: " + e.getMessage();
                return d;
            }
            d.preflight();
            d.roster().write(dir);
        } catch (IOException | RuntimeException e) {
            d.close();
            throw e;
        }
        return d;
    }

    private void startLocalSlaves() throws IOException {
        if (run.localSlaves <= 0) {
            return;
        }
        Path logs = dir.resolve("slaves");
        console.println("dsload: starting " + run.localSlaves + " local jmeter-server slave(s), logs in " + logs);
        LocalSlaves.Options options = new LocalSlaves.Options(run.jmeterHome, logs, dir, security, run.slaveHeap);
        // each slave's elements leave their files in a folder of their own, not the master's run folder
        local = LocalSlaves.start(options, run.localSlaves, address -> Map.of(RunProperties.RUN_DIR,
                slaveRunDir(logs, address).toString())).stopOnExit();
        for (SlaveProcess s : local.slaves()) {
            console.println("dsload: slave " + s.address() + " pid " + s.pid());
        }
    }

    private static Path slaveRunDir(Path logs, SlaveAddress address) {
        Path own = RunFiles.slaveFolder(logs.getParent(), address.host(), address.port());
        try {
            return Files.createDirectories(own);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make " + own, e);
        }
    }

    private void preflight() {
        List<SlaveAddress> wanted = new ArrayList<>();
        run.remoteHosts.forEach(h -> wanted.add(SlaveAddress.parse(h)));
        if (local != null) {
            wanted.addAll(local.addresses());
        }
        List<String> unreachable = new ArrayList<>();
        for (SlaveAddress slave : wanted) {
            Optional<String> refused = SlaveProbe.unreachable(slave, PREFLIGHT_TIMEOUT);
            boolean fetched = run.remoteHosts.stream().map(SlaveAddress::parse).anyMatch(slave::equals);
            if (refused.isEmpty() && fetched) {
                // a slave without a run folder: the runner fetches its recordings over this port after the run
                refused = SlaveProbe.recordingPortDropped(slave, slave.recordingPort(
                        run.properties.get(RunProperties.RECORDING_PORT)), PREFLIGHT_TIMEOUT);
            }
            if (!slave.isLoopback() && (local == null || !local.addresses().contains(slave))
                    && (refused.isEmpty() || refused.get().startsWith(SlaveProbe.REGISTRY_ANSWERED))) {
                // a slave on another machine: its engine's port may be closed where its registry's is open
                Optional<String> engine = SlaveEngine.unreachable(slave, security, run.jmeterHome, ENGINE_TIMEOUT);
                if (engine.isPresent()) {
                    refused = Optional.of(refused.map(r -> r + "; ").orElse("") + engine.get());
                }
            }
            if (refused.isEmpty()) {
                slaves.add(slave);
            } else {
                unreachable.add(slave + " (" + refused.get() + ")");
                missing.add(new SlaveRoster.Entry(slave.toString(), SlaveRoster.State.MISSING, System.currentTimeMillis(),
                        refused.get()));
            }
        }
        if (unreachable.isEmpty()) {
            refuseOtherKeys();
            return;
        }
        String list = String.join(", ", unreachable);
        int least;
        try {
            least = leastSlaves(run, wanted.size());
        } catch (IllegalArgumentException e) {
            problem = "no load was started: " + e.getMessage();
            return;
        }
        if (least >= wanted.size()) {
            problem = "slave(s) cannot be reached, so no load was started: " + list + ". Start them (dsload slaves "
                    + "start, or jmeter-server on each host) or leave them out of -R; --min-slaves <k> runs on k or "
                    + "more of them.";
        } else if (slaves.size() < least) {
            problem = "only " + slaves.size() + " of the run's " + wanted.size() + " slaves can be reached, fewer than "
                    + "the " + least + " it needs (--min-slaves, " + PlanRun.MIN_SLAVES_PROPERTY + "), so no load was "
                    + "started: " + list;
        } else {
            console.println("dsload: going on with " + slaves.size() + " of " + wanted.size() + " slaves (at least "
                    + least + " needed), without the unreachable: " + list);
            refuseOtherKeys();
        }
    }

    /**
     * The least number of slaves the run goes on with: {@code --min-slaves} ({@link PlanRun#minSlaves}),
     * else {@value PlanRun#MIN_SLAVES_PROPERTY}, else 1 with {@code --allow-missing-slaves}
     * ({@value #ALLOW_MISSING_PROPERTY}), else all of them.
     */
    static int leastSlaves(PlanRun run, int all) {
        if (run.minSlaves > 0) {
            return run.minSlaves;
        }
        String set = run.properties.get(PlanRun.MIN_SLAVES_PROPERTY);
        if (set != null && !set.isBlank()) {
            try {
                int least = Integer.parseInt(set.trim());
                if (least > 0) {
                    return least;
                }
            } catch (NumberFormatException e) {
                // said below
            }
            throw new IllegalArgumentException(PlanRun.MIN_SLAVES_PROPERTY + "=" + set + " is not a whole number above 0");
        }
        boolean allow = run.allowMissingSlaves
                || "true".equalsIgnoreCase(String.valueOf(run.properties.get(ALLOW_MISSING_PROPERTY)).trim());
        return allow ? 1 : all;
    }

    /**
     * Refuses the run when a slave's registry refuses the master's key, with dsload's reason alone:
     * JMeter would print its handshake exception, twice, before the run could say why.
     */
    private void refuseOtherKeys() {
        if (!security.isSsl() || slaves.isEmpty()) {
            return;
        }
        SSLContext context;
        try {
            context = security.clientContext();
        } catch (IOException e) {
            return; // JMeter reads the same keystore and says what is wrong with it
        }
        List<String> refusing = new ArrayList<>();
        for (SlaveAddress slave : slaves) {
            SlaveProbe.keyRefusal(slave, context, PREFLIGHT_TIMEOUT).ifPresent(why -> refusing.add(slave.toString()));
        }
        if (!refusing.isEmpty()) {
            problem = "no load was started: " + String.join(", ", refusing) + " refused this master's RMI key ("
                    + run.remoteDir.toAbsolutePath().normalize().resolve(RmiKeystore.KEYSTORE) + "): "
                    + RunFolder.ANOTHER_KEY;
        }
    }

    String problem() {
        return problem;
    }

    /** The master's {@code -R} list. */
    String remoteHosts() {
        return String.join(",", slaves.stream().map(SlaveAddress::toString).toList());
    }

    /** JMeter properties of the master beside the run's own. */
    Map<String, String> masterProperties() {
        Map<String, String> p = new LinkedHashMap<>(security.properties());
        p.put(MODE_PROPERTY, senderMode());
        return p;
    }

    List<Path> masterPropertyFiles() {
        return security.propertyFiles();
    }

    /** The address slaves call the master back on: loopback when every slave is on this machine. */
    List<String> masterJvmArgs() {
        String host = run.rmiHostname;
        if (host == null && slaves.stream().allMatch(SlaveAddress::isLoopback)) {
            host = "127.0.0.1";
        }
        return host == null ? List.of() : List.of("-Djava.rmi.server.hostname=" + host);
    }

    /** What every slave is told: the save settings, the sender mode, the plan's properties, then the -G ones. */

    Map<String, String> slaveProperties(Map<String, String> saveSettings) {
        Map<String, String> p = new LinkedHashMap<>(saveSettings);
        p.put(MODE_PROPERTY, senderMode());
        p.putAll(run.properties);
        p.put("sample_variables", JMeterCommand.sampleVariables(run.properties.get("sample_variables")));
        p.putAll(run.globalProperties);
        if (!slaves.isEmpty()) {
            // a fault schedule must run in one engine only: the first slave, unless the run names another
            p.putIfAbsent(RunProperties.FAULTS_ENGINE, slaves.get(0).toString());
        }
        // slaves without a run folder keep their recordings under this name (histograms mode)
        p.put(RunProperties.RUN_ID, dir.getFileName().toString());
        if (!slaves.isEmpty()) {
            // the slaves start their threads together, at the instant the StartSignal gives them
            p.putIfAbsent(RunProperties.START_WAIT, Long.toString(START_WAIT_MILLIS));
        }
        NOT_FOR_SLAVES.forEach(p::remove);
        p.keySet().removeIf(k -> k.startsWith("server.rmi.ssl."));
        return p;
    }

    private String senderMode() {
        String mode = run.globalProperties.getOrDefault(MODE_PROPERTY, run.properties.get(MODE_PROPERTY));
        return mode == null || mode.isBlank() ? DEFAULT_SENDER_MODE : mode;
    }

    void watch(Process master, Path masterLog) {
        Map<SlaveAddress, ProcessHandle> processes = new HashMap<>();
        if (local != null) {
            local.slaves().forEach(s -> processes.put(s.address(), s.handle()));
        }
        watch = new SlaveWatch(slaves, processes, masterLog, master, console, SlaveWatch.Timing.of(plannedLength()))
                .start();
        Map<String, Path> folders = new LinkedHashMap<>();
        if (local != null) {
            Path logs = dir.resolve("slaves");
            local.addresses().stream().filter(slaves::contains).forEach(a -> folders.put(a.toString(),
                    slaveRunDir(logs, a)));
        }
        Map<String, StartSignal.RemoteGate> remotes = new LinkedHashMap<>();
        List<SlaveAddress> named = run.remoteHosts.stream().map(SlaveAddress::parse).toList();
        if (!named.isEmpty()) {
            try {
                RecordingSockets.use(security.clientContext());
                for (SlaveAddress a : slaves.stream().filter(named::contains).toList()) {
                    // a slave without a run folder: the handshake goes over its recording store
                    remotes.put(a.toString(), StartSignal.store(a.host(), a.recordingPort(run.properties.getOrDefault(
                            RunProperties.RECORDING_PORT, "")), security.isSsl(), dir.getFileName().toString()));
                }
            } catch (IOException e) {
                console.println("dsload: the slaves on other machines start without one instant: " + e.getMessage());
            }
        }
        if (!folders.isEmpty() || !remotes.isEmpty()) {
            startSignal = StartSignal.start(masterLog, folders, remotes);
        }
    }

    /** The plans' {@code duration} property (seconds), when the run sets it: how long the load is planned to last. */
    private Duration plannedLength() {
        String text = run.globalProperties.getOrDefault(DURATION_PROPERTY, run.properties.get(DURATION_PROPERTY));
        try {
            return text == null ? null : Duration.ofSeconds(Long.parseLong(text.trim()));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** True when the watch had to stop the master because it waited for a lost or stalled slave. */
    boolean masterStoppedByWatch() {
        return watch != null && watch.stoppedMaster();
    }

    /** Ends the watch and writes the final roster. */
    void runEnded(boolean histograms) throws IOException {
        if (startSignal != null) {
            try {
                startSignal.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            Map<String, StartSignal.Offset> offsets = startSignal.offsets();
            if (!offsets.isEmpty()) {
                List<String> each = new ArrayList<>();
                offsets.forEach((slave, o) -> each.add(slave + " " + (o.millis() >= 0 ? "+" : "") + o.millis() + " ms (+-"
                        + o.error() + " ms)"));
                console.println("dsload: the slaves on other machines were given the start instant in their own clocks;"
                        + " their offsets from this one: " + String.join(", ", each));
                String far = farInRowsMode(offsets, histograms || !samplerThreadsSend(senderMode()));
                if (far != null) {
                    console.println(far);
                }
            }
        }
        if (watch != null) {
            try {
                watch.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            lostInRun = watch.lost();
            stalledInRun = watch.stalled();
            resumedInRun = watch.interrupted();
        }
        roster().write(dir);
    }

    /** Whether the slaves' sampler threads make the RMI calls of sender {@code mode} themselves, and wait for them. */
    static boolean samplerThreadsSend(String mode) {
        return WAITING_SENDERS.contains(mode.trim().toLowerCase(Locale.ROOT));
    }

    /**
     * What a run in rows mode over long links should know, or null: the slaves whose clock measure
     * took a round trip of {@value #FAR_ROUND_TRIP_MILLIS} ms or more. In rows mode with one of
     * JMeter's batch senders a slave hands its samples to the master in RMI calls made by its sampler
     * threads, which wait for them.
     *
     * @param noWait the run's sampler threads do not wait on the links (histograms mode, or a sender
     *               with a thread of its own)
     */
    static String farInRowsMode(Map<String, StartSignal.Offset> offsets, boolean noWait) {
        if (noWait) {
            return null;
        }
        List<String> far = new ArrayList<>();
        long longest = 0;
        for (Map.Entry<String, StartSignal.Offset> e : offsets.entrySet()) {
            long roundTrip = 2 * e.getValue().error();
            if (roundTrip >= FAR_ROUND_TRIP_MILLIS) {
                far.add(e.getKey());
                longest = Math.max(longest, roundTrip);
            }
        }
        if (far.isEmpty()) {
            return null;
        }
        return "dsload: slave" + (far.size() == 1 ? " " : "s ") + String.join(", ", far) + (far.size() == 1 ? " is" : " are")
                + " far from this machine (a round trip of up to " + longest + " ms): with this sample sender (mode) a"
                + " slave's sampler threads send its samples to the master and wait for each batch to cross (over links"
                + " of 50 ms each way, a closed-loop run carried 3 % of the requests it did over a direct link); dsload's"
                + " own sender (-Jmode unset) sends them from a thread of its own, and --record histograms sends one row"
                + " per label and second instead";
    }

    private SlaveRoster roster() {
        List<SlaveRoster.Entry> entries = new ArrayList<>();
        for (SlaveAddress s : slaves) {
            SlaveWatch.Loss loss = lostInRun.get(s.toString());
            SlaveWatch.Loss stall = stalledInRun.get(s.toString());
            SlaveWatch.Loss notFetched = unfetched.get(s.toString());
            if (loss != null) {
                entries.add(new SlaveRoster.Entry(s.toString(), SlaveRoster.State.LOST, loss.time(), loss.detail()));
            } else if (stall != null) {
                entries.add(new SlaveRoster.Entry(s.toString(), SlaveRoster.State.STALLED, stall.time(), stall.detail()));
            } else if (notFetched != null) {
                entries.add(new SlaveRoster.Entry(s.toString(), SlaveRoster.State.UNFETCHED, notFetched.time(),
                        notFetched.detail()));
            } else if (resumedInRun.containsKey(s.toString())) {
                SlaveWatch.Loss back = resumedInRun.get(s.toString());
                entries.add(new SlaveRoster.Entry(s.toString(), SlaveRoster.State.RESUMED, back.time(), back.detail()));
            } else {
                entries.add(new SlaveRoster.Entry(s.toString(), SlaveRoster.State.USED, 0, ""));
            }
        }
        entries.addAll(missing);
        return new SlaveRoster(entries);
    }

    /**
     * A slave that ran to the end yet sent no sample means the results are not what they seem; one
     * whose recordings could not be fetched leaves them incomplete (its counts, gauges, histograms).
     */
    String checkResults(Summary summary) throws IOException {
        Optional<SlavesSection.Figures> figures = SlavesSection.figures(dir, summary);
        Optional<SlaveRoster> roster = SlaveRoster.read(dir);
        if (figures.isEmpty() || roster.isEmpty()) {
            return null;
        }
        List<String> silent = new ArrayList<>();
        List<SlaveRoster.Entry> ranToTheEnd = new ArrayList<>(roster.get().in(SlaveRoster.State.USED));
        ranToTheEnd.addAll(roster.get().in(SlaveRoster.State.UNFETCHED));
        ranToTheEnd.addAll(roster.get().in(SlaveRoster.State.RESUMED));
        for (SlaveRoster.Entry e : ranToTheEnd) {
            LabelStats s = figures.get().slaves().get(e.address());
            if (s == null || s.samples() == 0) {
                silent.add(e.address());
            }
        }
        List<String> problems = new ArrayList<>();
        if (!silent.isEmpty()) {
            problems.add("slave(s) " + String.join(", ", silent) + " ran the plan but sent no sample; see "
                    + dir.resolve("slaves") + " and " + dir.resolve("jmeter.log"));
        }
        problems.addAll(unfetchedProblems(roster.get(), dir.getFileName().toString()));
        return problems.isEmpty() ? null : String.join("; ", problems);
    }

    /** One line per slave whose recordings could not be fetched after the run: a result of the run is lost. */
    static List<String> unfetchedProblems(SlaveRoster roster, String runId) {
        return roster.in(SlaveRoster.State.UNFETCHED).stream().map(e -> "the recordings of slave " + e.address()
                + " (server gauges, counts, histograms) could not be fetched after the run (" + e.detail() + "): its "
                + "counts are missing from the cross-checks; they stay on that machine under dsload-recordings/" + runId
                + "/").toList();
    }

    /**
     * Fetches what slaves without a run folder recorded: histograms, and server gauges in either
     * mode (local slaves wrote theirs into the run folder already). A slave lost or stalled during
     * the run is not asked: a frozen one would hold the fetch until its read timeout (a minute).
     */
    void gatherRecordings(boolean histograms) throws IOException {
        if (run.remoteHosts.isEmpty()) {
            return;
        }
        Map<String, SlaveRoster.Entry> gone = new HashMap<>();
        lost().forEach(e -> gone.put(e.address(), e));
        List<SlaveAddress> asked = new ArrayList<>();
        List<SlaveAddress> named = run.remoteHosts.stream().map(SlaveAddress::parse).toList();
        // the slaves that ran the plan: one missing at the start has nothing of this run
        for (SlaveAddress slave : slaves.stream().filter(named::contains).toList()) {
            SlaveRoster.Entry e = gone.get(slave.toString());
            if (e == null) {
                asked.add(slave);
            } else {
                console.println("dsload: the recordings and server gauges of slave " + slave + " were not fetched: it "
                        + (e.state() == SlaveRoster.State.STALLED ? "stalled" : "was lost") + " during the run. They "
                        + "stay on that machine under dsload-recordings/" + dir.getFileName() + "/.");
            }
        }
        Map<SlaveAddress, String> failed = RecordingGatherer.gather(dir, asked, security, run.properties, histograms,
                console);
        if (!failed.isEmpty()) {
            long now = System.currentTimeMillis();
            failed.forEach((slave, why) -> unfetched.put(slave.toString(), new SlaveWatch.Loss(now, why)));
            roster().write(dir);
        }
    }

    /** Lost and stalled slaves, for the console. */
    List<SlaveRoster.Entry> lost() throws IOException {
        List<SlaveRoster.Entry> gone = new ArrayList<>();
        SlaveRoster.read(dir).ifPresent(r -> {
            gone.addAll(r.in(SlaveRoster.State.LOST));
            gone.addAll(r.in(SlaveRoster.State.STALLED));
        });
        return gone;
    }

    /** Stops the slaves this run started. */
    @Override
    public void close() {
        if (local != null) {
            local.close();
            local = null;
        }
    }
}
