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
import org.dsload.process.ProcessTree;

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
 * ({@link #require()}).
 */
public final class HostRig implements AutoCloseable {
    /** The prefix of every namespace a rig makes. */
    static final String PREFIX = "dsrig-";
    private static final Pattern OWNED = Pattern.compile("^" + PREFIX + "(\\d+)-\\d+-\\w+$");
    private static final String SUBNET = "10.213.1.";
    private static final Duration COMMAND_LIMIT = Duration.ofSeconds(20);
    private static final Duration STOP_GRACE = Duration.ofSeconds(5);
    private static final AtomicInteger RIGS = new AtomicInteger();

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
        HostPrivileges.require("a rig of network namespaces", "ip", "iptables");
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
