package org.dsload.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * What Linux's /proc tells about a process: its state, its memory, the ports it listens on; and
 * about the machine: its CPU time.
 */
public final class ProcFs {
    /** The machine's CPU time, its first line for all cores together. */
    public static final Path MACHINE_STAT = Path.of("/proc/stat");

    private ProcFs() {
    }

    /**
     * The numbers of the {@code cpu} line of a /proc/stat file, in clock ticks: user, nice, system,
     * idle, iowait, irq, softirq, steal, guest, guest_nice (older kernels give fewer); null where it
     * cannot be read.
     */
    public static long[] machineCpuTicks(Path stat) {
        String line;
        try (var lines = Files.lines(stat, StandardCharsets.US_ASCII)) {
            line = lines.findFirst().orElse("");
        } catch (IOException | RuntimeException e) {
            return null;
        }
        String[] words = line.trim().split("\\s+");
        if (words.length < 2 || !words[0].equals("cpu")) {
            return null;
        }
        long[] fields = new long[words.length - 1];
        try {
            for (int i = 1; i < words.length; i++) {
                fields[i - 1] = Long.parseLong(words[i]);
            }
        } catch (NumberFormatException e) {
            return null;
        }
        return fields;
    }

    /** The state letter of a /proc stat file (R, S, D, T ...), or '?' where it cannot be read. */
    static char state(Path stat) {
        try {
            String text = Files.readString(stat, StandardCharsets.US_ASCII);
            // the state follows the command name, which is in parentheses and may hold spaces
            return text.charAt(text.lastIndexOf(')') + 2);
        } catch (IOException | RuntimeException e) {
            return '?';
        }
    }

    /** The process's state letter, or '?' where there is no /proc entry for it. */
    public static char state(long pid) {
        return state(Path.of("/proc", Long.toString(pid), "stat"));
    }

    /** Whether every thread of the process is stopped (state T); true where /proc cannot tell. */
    public static boolean allThreadsStopped(long pid) {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        if (!Files.isDirectory(tasks)) {
            return true;
        }
        try (var threads = Files.list(tasks)) {
            return threads.allMatch(t -> {
                char state = state(t.resolve("stat"));
                return state == 'T' || state == '?'; // a thread that ended meanwhile is not running either
            });
        } catch (IOException e) {
            return true;
        }
    }

    /**
     * The CPU the process used, user and system, in clock ticks (USER_HZ, 100 a second on Linux);
     * with {@code reapedChildren}, that of the children it reaped too (cutime, cstime); -1 where there
     * is no /proc entry for it.
     */
    public static long cpuTicks(long pid, boolean reapedChildren) {
        try {
            String text = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII);
            // after the command name: the state is field 3; utime, stime, cutime, cstime are fields 14 to 17
            String[] f = text.substring(text.lastIndexOf(')') + 2).split(" ");
            long own = Long.parseLong(f[11]) + Long.parseLong(f[12]);
            return reapedChildren ? own + Long.parseLong(f[13]) + Long.parseLong(f[14]) : own;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Resident memory of a process in bytes (VmRSS), or -1 where that cannot be read. */
    public static long residentBytes(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("\\D+", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /** Whether the process holds a listening TCP socket on the port: its socket inodes against /proc/net/tcp(6). */
    public static boolean listensOn(long pid, int port) throws IOException {
        String local = String.format(Locale.ROOT, ":%04X", port);
        // local address, state 0A (LISTEN)
        return tcpRows(pid).stream().anyMatch(f -> f[1].endsWith(local) && f[3].equals("0A"));
    }

    /**
     * The process's ESTABLISHED TCP connections to the IPv4 address {@code host:port} (IPv4-mapped
     * ones of IPv6 sockets included). The whole address counts: servers on other loopback addresses
     * (127.0.0.2, ...) may listen on the same port number.
     */
    public static int establishedTo(long pid, String hostPort) throws IOException {
        // remote address, state 01 (ESTABLISHED)
        return (int) tcpRows(pid).stream().filter(f -> f[3].equals("01") && ipv4(f[2]).filter(hostPort::equals)
                .isPresent()).count();
    }

    /**
     * The IPv4 addresses ({@code host:port}) the process is connecting to and that have not answered
     * yet (TCP state SYN_SENT), IPv4-mapped ones of IPv6 sockets included.
     */
    public static List<String> connecting(long pid) throws IOException {
        List<String> found = new ArrayList<>();
        for (String[] f : tcpRows(pid)) {
            // remote address, state 02 (SYN_SENT)
            if (f[3].equals("02")) {
                ipv4(f[2]).ifPresent(found::add);
            }
        }
        return found;
    }

    /** The rows of /proc/net/tcp and tcp6 of the process's sockets, split into fields (local, remote, state ... inode). */
    private static List<String[]> tcpRows(long pid) throws IOException {
        Set<String> inodes = socketInodes(pid);
        List<String[]> rows = new ArrayList<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            Path file = Path.of(table);
            if (!Files.isReadable(file)) {
                continue;
            }
            for (String line : Files.readAllLines(file, StandardCharsets.US_ASCII)) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 9 && inodes.contains(f[9])) {
                    rows.add(f);
                }
            }
        }
        return rows;
    }

    /** {@code 0401D50A:0FA0} (or its IPv4-mapped IPv6 form) as {@code 10.213.1.4:4000}. */
    static Optional<String> ipv4(String procAddress) {
        int colon = procAddress.indexOf(':');
        String hex = procAddress.substring(0, colon);
        if (hex.length() == 32 && hex.startsWith("0000000000000000FFFF0000")) {
            hex = hex.substring(24);
        }
        if (hex.length() != 8) {
            return Optional.empty();
        }
        long v = Long.parseLong(hex, 16);
        // the kernel prints the address as a number in the machine's byte order: little-endian here
        String host = (v & 0xff) + "." + ((v >> 8) & 0xff) + "." + ((v >> 16) & 0xff) + "." + ((v >> 24) & 0xff);
        return Optional.of(host + ":" + Integer.parseInt(procAddress.substring(colon + 1), 16));
    }

    private static Set<String> socketInodes(long pid) throws IOException {
        Set<String> inodes = new HashSet<>();
        try (var fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring(8, target.length() - 1));
                    }
                } catch (IOException e) {
                    // closed meanwhile
                }
            }
        }
        return inodes;
    }
}
