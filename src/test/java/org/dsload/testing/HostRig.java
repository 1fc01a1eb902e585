package org.dsload.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.dsload.process.Commands;
import org.dsload.process.Deadline;
import org.dsload.process.ProcessTree;
import org.dsload.targets.Checkout;

/**
 * Hosts of a network made of Linux network namespaces, for tests of runs across machines: each host
 * a namespace of its own with {@code lo} up and one interface ({@code eth0}) at its own address of
 * 10.213.1.0/24, all joined by a bridge in a namespace of the rig's own, so that the network of the
 * namespace the test runs in is never touched (the hosts cannot be reached from it either: what
 * talks to a host runs in another host). Each host can get a firewall (iptables, INPUT dropped but
 * for the ports given).
 *
 * <p>Everything the rig makes carries a prefix with this JVM's PID ({@code dsrig-<pid>-<n>-}) and is
 * removed on {@link #close()}, or at the JVM's exit when a test did not get that far: first every
 * process in a host (by PID, {@code ip netns pids}), then the namespaces, whose deletion removes their
 * links. A rig whose JVM was killed outright leaves its namespaces behind: the next rig removes those
 * of a PID that no longer runs before it makes its own. Needs root, {@code ip} and {@code iptables}
 * ({@link #require()}), and {@code python3} for a delayed link ({@link Host#delay}).
 */
public final class HostRig implements AutoCloseable {
    /** The prefix of every namespace a rig makes. */
    static final String PREFIX = "dsrig-";
    private static final Pattern OWNED = Pattern.compile("^" + PREFIX + "(\\d+)-\\d+-\\w+$");
    private static final String SUBNET = "10.213.1.";
    private static final Duration COMMAND_LIMIT = Duration.ofSeconds(20);
    private static final Duration STOP_GRACE = Duration.ofSeconds(5);
    private static final AtomicInteger RIGS = new AtomicInteger();
    /** NFQUEUE queue numbers of the link delays (a queue is a namespace's own; distinct ones are simply clearer). */
    private static final AtomicInteger QUEUES = new AtomicInteger();

    private final String name;
    private final String bridge;
    private final List<Host> hosts = new ArrayList<>();
    private final List<String> namespaces = new ArrayList<>();
    private final List<ProcessHandle> started = new ArrayList<>();
    private final Thread exitHook;
    private boolean closed;

    private HostRig(String name) {
        this.name = name;
        this.bridge = name + "-br";
        this.exitHook = new Thread(this::remove, name + "-remover");
    }

    /** Returns when this machine can make a rig; otherwise skips the test, or fails it when fault tests are required. */
    public static void require() {
        HostPrivileges.require("a rig of network namespaces", "ip", "iptables", "python3");
    }

    /** Makes {@code count} hosts, at 10.213.1.1, 10.213.1.2 ... */
    public static HostRig create(int count) throws IOException, InterruptedException {
        if (count < 1 || count > 200) {
            throw new IllegalArgumentException("between 1 and 200 hosts, not " + count);
        }
        sweep();
        HostRig rig = new HostRig(PREFIX + ProcessHandle.current().pid() + "-" + RIGS.incrementAndGet());
        Runtime.getRuntime().addShutdownHook(rig.exitHook);
        try {
            rig.namespace(rig.bridge);
            rig.ip(rig.bridge, "link", "add", "br0", "type", "bridge");
            rig.ip(rig.bridge, "link", "set", "br0", "up");
            for (int i = 0; i < count; i++) {
                rig.hosts.add(rig.addHost(i));
            }
            return rig;
        } catch (IOException | InterruptedException | RuntimeException e) {
            rig.close();
            throw e;
        }
    }

    private Host addHost(int i) throws IOException, InterruptedException {
        String ns = name + "-h" + i;
        String address = SUBNET + (i + 1);
        namespace(ns);
        // both ends made inside the rig's namespaces: the root namespace never holds a link of the rig
        ip(bridge, "link", "add", "h" + i, "type", "veth", "peer", "name", "eth0", "netns", ns);
        ip(bridge, "link", "set", "h" + i, "master", "br0");
        ip(bridge, "link", "set", "h" + i, "up");
        ip(ns, "addr", "add", address + "/24", "dev", "eth0");
        ip(ns, "link", "set", "eth0", "up");
        return new Host(ns, address);
    }

    private void namespace(String ns) throws IOException, InterruptedException {
        must(List.of("ip", "netns", "add", ns));
        namespaces.add(ns);
        ip(ns, "link", "set", "lo", "up");
    }

    private void ip(String ns, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("ip", "-n", ns));
        command.addAll(List.of(args));
        must(command);
    }

    private static Commands.Result must(List<String> command) throws IOException, InterruptedException {
        Commands.Result r = Commands.run(command, COMMAND_LIMIT);
        if (r.exit() != 0) {
            throw new IOException(String.join(" ", command) + " failed (exit " + r.exit() + "): " + r.output().trim());
        }
        return r;
    }

    public Host host(int i) {
        return hosts.get(i);
    }

    public List<Host> hosts() {
        return List.copyOf(hosts);
    }

    /** The rig's namespaces, bridge first. */
    public List<String> namespaces() {
        return List.copyOf(namespaces);
    }

    /** One host: a network namespace with one address. */
    public final class Host {
        private final String namespace;
        private final String address;

        private Host(String namespace, String address) {
            this.namespace = namespace;
            this.address = address;
        }

        public String namespace() {
            return namespace;
        }

        public String address() {
            return address;
        }

        /**
         * Starts {@code command} in this host ({@code ip netns exec}, which execs it: the PID is the
         * command's), working in {@code dir}, its output and errors appended to {@code output}. The rig
         * stops it on close if it still runs; {@link ProcessTree#stop} ends it earlier.
         */
        public Process start(Path dir, Path output, List<String> command) throws IOException {
            List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", namespace));
            full.addAll(command);
            Files.createDirectories(dir);
            Files.createDirectories(output.toAbsolutePath().getParent());
            Process p = new ProcessBuilder(full).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile())).start();
            synchronized (HostRig.this) {
                started.add(p.toHandle());
            }
            return p;
        }

        /** Runs {@code command} in this host to its end within the limit. */
        public Commands.Result run(Duration limit, String... command) throws IOException, InterruptedException {
            List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", namespace));
            full.addAll(List.of(command));
            return Commands.run(full, limit);
        }

        /**
         * A firewall on what reaches this host: INPUT dropped, but for loopback, the answers to its
         * own connections, and new TCP connections to {@code openPorts}. Replaces an earlier one.
         */
        public void firewall(List<Integer> openPorts) throws IOException, InterruptedException {
            iptables("-F", "INPUT");
            iptables("-P", "INPUT", "DROP");
            iptables("-A", "INPUT", "-i", "lo", "-j", "ACCEPT");
            iptables("-A", "INPUT", "-m", "conntrack", "--ctstate", "ESTABLISHED,RELATED", "-j", "ACCEPT");
            for (int port : openPorts) {
                iptables("-A", "INPUT", "-p", "tcp", "--dport", Integer.toString(port), "-j", "ACCEPT");
            }
        }

        /** Lets the firewall accept every TCP connection from {@code source} (a host whose calls come to ports that float). */
        public void acceptFrom(String source) throws IOException, InterruptedException {
            iptables("-A", "INPUT", "-p", "tcp", "-s", source, "-j", "ACCEPT");
        }

        /**
         * Cuts this host off the rig's network both ways (its loopback stays): every packet in and out
         * dropped, as a link that goes dead, until {@link #reconnect}. Connections stay open on both ends.
         */
        public void cutOff() throws IOException, InterruptedException {
            iptables("-I", "INPUT", "1", "!", "-i", "lo", "-j", "DROP");
            iptables("-I", "OUTPUT", "1", "!", "-o", "lo", "-j", "DROP");
        }

        /** Ends {@link #cutOff}: the host's firewall is as it was before. */
        public void reconnect() throws IOException, InterruptedException {
            iptables("-D", "INPUT", "!", "-i", "lo", "-j", "DROP");
            iptables("-D", "OUTPUT", "!", "-o", "lo", "-j", "DROP");
        }

        /**
         * Delays every packet between this host and {@code peer}, each way, by {@code delay} plus a
         * uniform draw within {@code jitter} either side, in order, as a long link would: iptables'
         * mangle table of this host (before its firewall, which still judges every packet) hands
         * them to a queue that {@code src/test/scripts/linkdelay.py}, run in this host, holds and lets
         * go when due (this kernel has no netem qdisc; NFQUEUE is built in). A round trip with the
         * peer then takes twice the delay. Until {@link LinkDelay#close()}, or the rig's.
         */
        public LinkDelay delay(String peer, Duration delay, Duration jitter) throws IOException, InterruptedException {
            int queue = QUEUES.incrementAndGet();
            Path script = Checkout.basedir().resolve("src/test/scripts/linkdelay.py");
            Path output = Files.createTempFile(namespace + "-delay-", ".out");
            Process p = start(output.getParent(), output, List.of("python3", script.toString(), "--queue",
                    Integer.toString(queue), "--delay-ms", Double.toString(delay.toNanos() / 1e6), "--jitter-ms",
                    Double.toString(jitter.toNanos() / 1e6)));
            if (!Deadline.await(() -> read(output).contains("ready") || !p.isAlive(), Duration.ofSeconds(20),
                    Duration.ofMillis(50)) || !p.isAlive()) {
                ProcessTree.stop(p.toHandle(), STOP_GRACE);
                throw new IOException("the link delay did not start in " + this + ": " + read(output));
            }
            List<List<String>> rules = List.of(List.of("PREROUTING", "-s", peer), List.of("OUTPUT", "-d", peer));
            for (List<String> rule : rules) {
                iptables(queueRule("-A", rule, queue));
            }
            return new LinkDelay(this, queue, rules, p, output);
        }

        /**
         * Drops a share of the packets between this host and {@code peer}, each way, at random
         * (iptables' {@code statistic} match, table {@code mangle} of this host), until
         * {@link LinkLoss#close()}. TCP retransmits what is lost: a lossy link, not a cut one.
         */
        public LinkLoss loss(String peer, double share) throws IOException, InterruptedException {
            if (!(share > 0 && share < 1)) {
                throw new IllegalArgumentException("a share of packets between 0 and 1, got " + share);
            }
            String probability = String.format(java.util.Locale.ROOT, "%.4f", share);
            List<List<String>> rules = List.of(List.of("PREROUTING", "-s", peer), List.of("OUTPUT", "-d", peer));
            for (List<String> rule : rules) {
                iptables(lossRule("-A", rule, probability));
            }
            return new LinkLoss(this, rules, probability);
        }

        /** The firewall's rules, as {@code iptables -S} prints them. */
        public String firewallRules() throws IOException, InterruptedException {
            return iptables("-S").output();
        }

        /** Runs iptables in this host (its rules are the host's own); fails on a non-zero exit. */
        public Commands.Result iptables(String... args) throws IOException, InterruptedException {
            List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", namespace, "iptables", "-w", "5"));
            command.addAll(List.of(args));
            return must(command);
        }

        @Override
        public String toString() {
            return address + " (" + namespace + ")";
        }
    }

    /** A delay on the link of a host to a peer ({@link Host#delay}): ended by {@link #close()}. */
    public static final class LinkDelay implements AutoCloseable {
        private static final Pattern PASSED = Pattern.compile("passed (\\d+) packets");
        private final Host host;
        private final int queue;
        private final List<List<String>> rules;
        private final Process process;
        private final Path output;
        private long passed = -1;

        private LinkDelay(Host host, int queue, List<List<String>> rules, Process process, Path output) {
            this.host = host;
            this.queue = queue;
            this.rules = rules;
            this.process = process;
            this.output = output;
        }

        /** Whether it still holds the link's packets (the queue's holder runs). */
        public boolean inForce() {
            return process.isAlive();
        }

        /** The packets it delayed, once closed; -1 when it could not tell. */
        public long passed() {
            return passed;
        }

        /** Takes the link's packets off the queue, then ends the holder, which lets go what it still holds. */
        @Override
        public void close() throws IOException, InterruptedException {
            if (passed >= 0 || !process.isAlive() && Files.notExists(output)) {
                return;
            }
            for (List<String> rule : rules) {
                host.iptables(queueRule("-D", rule, queue));
            }
            ProcessTree.stop(process.toHandle(), STOP_GRACE);
            Matcher m = PASSED.matcher(read(output));
            passed = m.find() ? Long.parseLong(m.group(1)) : 0;
            Files.deleteIfExists(output);
        }
    }

    /** A rule of the mangle table: {@code action} (-A, -D) on a chain and peer, then what it does. */
    private static String[] mangle(String action, List<String> rule, String... target) {
        List<String> args = new ArrayList<>(List.of("-t", "mangle", action));
        args.addAll(rule);
        args.addAll(List.of(target));
        return args.toArray(String[]::new);
    }

    private static String[] queueRule(String action, List<String> rule, int queue) {
        return mangle(action, rule, "-j", "NFQUEUE", "--queue-num", Integer.toString(queue));
    }

    private static String[] lossRule(String action, List<String> rule, String probability) {
        return mangle(action, rule, "-m", "statistic", "--mode", "random", "--probability", probability, "-j", "DROP");
    }

    /** Packets dropped on the link of a host to a peer ({@link Host#loss}): ended by {@link #close()}. */
    public static final class LinkLoss implements AutoCloseable {
        private final Host host;
        private final List<List<String>> rules;
        private final String probability;
        private boolean closed;

        private LinkLoss(Host host, List<List<String>> rules, String probability) {
            this.host = host;
            this.rules = rules;
            this.probability = probability;
        }

        /** The packets dropped so far, both ways (the rules' counters). */
        public long dropped() throws IOException, InterruptedException {
            long dropped = 0;
            for (String chain : List.of("PREROUTING", "OUTPUT")) {
                for (String line : host.iptables("-t", "mangle", "-L", chain, "-v", "-x", "-n").output().split("\\R")) {
                    String[] f = line.strip().split("\\s+");
                    if (f.length > 2 && f[2].equals("DROP") && f[0].matches("\\d+")) {
                        dropped += Long.parseLong(f[0]);
                    }
                }
            }
            return dropped;
        }

        @Override
        public void close() throws IOException, InterruptedException {
            if (closed) {
                return;
            }
            closed = true;
            for (List<String> rule : rules) {
                host.iptables(lossRule("-D", rule, probability));
            }
        }
    }

    /** A file's text, or "" when it cannot be read. */
    static String read(Path file) {
        try {
            return Files.isRegularFile(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            return "";
        }
    }

    /** Removes every process, namespace and link of the rig. */
    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(exitHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs, or is about to
        }
        remove();
    }

    private synchronized void remove() {
        if (closed) {
            return;
        }
        closed = true;
        for (ProcessHandle p : started) {
            ProcessTree.stop(p, STOP_GRACE);
        }
        // processes that left the rig's children (a slave started by a command that has ended) are still in their host
        for (int i = namespaces.size() - 1; i >= 0; i--) {
            removeNamespace(namespaces.get(i));
        }
    }

    /** Stops every process of a namespace by PID, then deletes it (with its links); says on stderr what it could not. */
    private static void removeNamespace(String ns) {
        try {
            for (long pid : pids(ns)) {
                ProcessTree.alive(pid).ifPresent(p -> ProcessTree.stop(p, STOP_GRACE));
            }
            Commands.Result r = Commands.run(List.of("ip", "netns", "delete", ns), COMMAND_LIMIT);
            if (r.exit() != 0) {
                System.err.println("host rig: could not delete namespace " + ns + ": " + r.output().trim());
            }
        } catch (IOException e) {
            System.err.println("host rig: could not remove namespace " + ns + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static List<Long> pids(String ns) throws IOException, InterruptedException {
        Commands.Result r = Commands.run(List.of("ip", "netns", "pids", ns), COMMAND_LIMIT);
        List<Long> pids = new ArrayList<>();
        if (r.exit() == 0) {
            for (String line : r.output().split("\\R")) {
                if (line.strip().matches("\\d+")) {
                    pids.add(Long.parseLong(line.strip()));
                }
            }
        }
        return pids;
    }

    /** The namespaces of rigs whose JVM no longer runs, removed with their processes; returns their names. */
    static List<String> sweep() throws IOException, InterruptedException {
        Commands.Result r = Commands.run(List.of("ip", "netns", "list"), COMMAND_LIMIT);
        List<String> removed = new ArrayList<>();
        for (String line : r.output().split("\\R")) {
            String ns = line.strip().split("\\s+")[0];
            Matcher m = OWNED.matcher(ns);
            if (m.matches() && ProcessTree.alive(Long.parseLong(m.group(1))).isEmpty()) {
                removeNamespace(ns);
                removed.add(ns);
            }
        }
        if (!removed.isEmpty()) {
            System.err.println("host rig: removed what a rig of an ended JVM left: " + String.join(", ", removed));
        }
        return removed;
    }

    /** The namespaces of any rig now on this machine. */
    public static List<String> existingNamespaces() throws IOException, InterruptedException {
        Commands.Result r = Commands.run(List.of("ip", "netns", "list"), COMMAND_LIMIT);
        List<String> all = new ArrayList<>();
        for (String line : r.output().split("\\R")) {
            String ns = line.strip().split("\\s+")[0];
            if (ns.startsWith(PREFIX)) {
                all.add(ns);
            }
        }
        return all;
    }

    @Override
    public String toString() {
        return name + " " + hosts;
    }
}
