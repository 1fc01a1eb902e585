package org.dsload.chaos;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The command driver's default commands, per kind, {@code <kind>.apply} and {@code <kind>.revert}.
 * A plan overrides any of them (the schedule's Command templates field). Placeholders in braces
 * come from the target ({host}, {port}, {pid}, {dev}, {data}, {start} ...), the fault's
 * parameters ({delay}, {rate}, {loss}, {percent} ...), and {id}, {tag} (a name unique to this
 * fault, for iptables comments), {seconds} (the fault's duration, a safety timeout for hogs) and,
 * in a revert, {handle}: the first line the apply command printed.
 *
 * <p>Network faults are scoped to one node: tc acts on the device given as {@code dev} (the
 * node's own interface on a real host, or a veth in a network namespace), iptables on the node's
 * address and port only.
 */
final class CommandTemplates {
    static final Map<String, String> DEFAULTS = new LinkedHashMap<>();

    static {
        t("delay", "tc qdisc add dev {dev} root netem delay {delay}", "tc qdisc del dev {dev} root");
        t("bandwidth", "tc qdisc add dev {dev} root tbf rate {rate} burst {burst} latency {latency}",
                "tc qdisc del dev {dev} root");
        String match = "-p tcp -d {host} --dport {port}";
        t("loss", "iptables -I INPUT " + match + " -m statistic --mode random --probability {loss} -m comment --comment {tag} -j DROP",
                "iptables -D INPUT " + match + " -m statistic --mode random --probability {loss} -m comment --comment {tag} -j DROP");
        t("freeze", "iptables -I INPUT " + match + " -m comment --comment {tag} -j DROP",
                "iptables -D INPUT " + match + " -m comment --comment {tag} -j DROP");
        t("reset", "iptables -I INPUT " + match + " -m comment --comment {tag} -j REJECT --reject-with tcp-reset",
                "iptables -D INPUT " + match + " -m comment --comment {tag} -j REJECT --reject-with tcp-reset");
        t("kill", "kill -9 {pid}", "{start}");
        t("pause", "kill -STOP {pid}", "kill -CONT {pid}");
        t("restart", "kill {pid}; while kill -0 {pid} 2>/dev/null; do sleep 0.2; done; {start}", "true");
        t("cpu", "stress-ng --cpu 0 --cpu-load {percent} --timeout {seconds}s >/dev/null 2>&1 & echo $!",
                "kill {handle}");
        t("memory", "stress-ng --vm 1 --vm-bytes {percent}% --vm-keep --timeout {seconds}s >/dev/null 2>&1 & echo $!",
                "kill {handle}");
        t("disk", "avail=$(df --output=avail -B1 {data} | tail -1); fill=$((avail - {reserve})); "
                + "[ $fill -le {max} ] || { echo \"{data} has $avail bytes free, more than max={max}: refusing to fill it\"; exit 3; }; "
                + "fallocate -l $fill {data}/dsload-disk-full-{id}.fill", "rm -f {data}/dsload-disk-full-{id}.fill");
    }

    /** Parameter defaults, for placeholders a fault does not set. */
    static final Map<String, String> PARAM_DEFAULTS = Map.of("delay", "200ms", "rate", "1mbit", "burst", "32kbit",
            "latency", "400ms", "loss", "1", "percent", "50", "reserve", "0", "max", Long.toString(DiskFill.DEFAULT_MAX_FILL));

    private CommandTemplates() {
    }

    private static void t(String kind, String apply, String revert) {
        DEFAULTS.put(kind + ".apply", apply);
        DEFAULTS.put(kind + ".revert", revert);
    }

    /** {@code kind.apply = command} lines; # starts a comment. */
    static Map<String, String> parse(String text) {
        Map<String, String> templates = new LinkedHashMap<>();
        if (text == null) {
            return templates;
        }
        for (String raw : text.split("\\R")) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int eq = line.indexOf('=');
            String key = eq > 0 ? line.substring(0, eq).trim() : "";
            if (!key.matches("[a-z]+\\.(apply|revert)")) {
                throw new IllegalArgumentException("a command template line is '<kind>.apply = command' or "
                        + "'<kind>.revert = command', got '" + line + "'");
            }
            FaultKind.parse(key.substring(0, key.indexOf('.')));
            templates.put(key, line.substring(eq + 1).trim());
        }
        return templates;
    }
}
