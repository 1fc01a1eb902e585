package org.dsload.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.dsload.process.Commands;

/**
 * Faults by command templates ({@link CommandTemplates}): kernel network faults (tc netem and
 * tbf, iptables statistic drop), signals, stress-ng hogs, fallocate. A command runs in
 * {@code sh -c} on this host, inside the target's network namespace ({@code netns=...}), or through
 * a prefix such as {@code ssh {host}} on the node's own host (the prefix's words, then the
 * rendered command as one argument). The revert command is rendered at apply time and kept in
 * the record, so a revert after a crash runs exactly what was meant.
 */
public final class CommandDriver implements FaultDriver {
    public static final String NAME = "command";
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-z_]+)\\}");

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean supports(FaultKind kind) {
        return true;
    }

    @Override
    public Applied apply(FaultSpec spec) throws Exception {
        String kind = spec.kind().id();
        Map<String, String> templates = new LinkedHashMap<>(CommandTemplates.DEFAULTS);
        templates.putAll(spec.settings().templates());
        Map<String, String> values = values(spec);
        String apply = render(templates.get(kind + ".apply"), values, kind + ".apply");
        refuseWholeLoopback(apply, spec.target());
        List<String> prefix = prefix(spec.target(), spec.settings().commandPrefix(), values);
        Commands.Result r = Commands.run(wrap(prefix, apply), Duration.ofMillis(spec.settings().commandTimeoutMillis()));
        if (r.exit() != 0) {
            throw new IllegalStateException("'" + apply + "' failed (exit " + r.exit() + "): " + oneLine(r.output()));
        }
        values.put("handle", r.firstLine());
        String revert = render(templates.get(kind + ".revert"), values, kind + ".revert");
        FaultRecord record = new FaultRecord(spec.id(), spec.label(), kind, spec.target().name(), NAME)
                .put("command.revert", revert).put("command.prefix", String.join("\u001f", prefix))
                .put("command.timeout_ms", Long.toString(spec.settings().commandTimeoutMillis()));
        return new Applied(record, "ran: " + display(prefix, apply) + (r.output().isBlank() ? "" : " -> " + oneLine(r.output())));
    }

    @Override
    public String revert(FaultRecord record) throws Exception {
        String revert = record.require("command.revert");
        String joined = record.get("command.prefix");
        List<String> prefix = joined == null || joined.isEmpty() ? List.of() : List.of(joined.split("\u001f"));
        long timeout = Long.parseLong(record.get("command.timeout_ms") == null ? "60000" : record.get("command.timeout_ms"));
        Commands.Result r = Commands.run(wrap(prefix, revert), Duration.ofMillis(timeout));
        if (r.exit() != 0) {
            throw new IllegalStateException("'" + revert + "' failed (exit " + r.exit() + "): " + oneLine(r.output()));
        }
        return "ran: " + display(prefix, revert);
    }

    private static Map<String, String> values(FaultSpec spec) {
        Map<String, String> values = new LinkedHashMap<>(CommandTemplates.PARAM_DEFAULTS);
        values.putAll(spec.target().attributes());
        values.putAll(spec.params());
        if (spec.params().containsKey("loss")) {
            values.put("loss", Double.toString(Quantities.share(spec.params().get("loss"))));
        }
        if (spec.params().containsKey("percent")) {
            values.put("percent", Long.toString(Math.round(Quantities.share(spec.params().get("percent")) * 100)));
        }
        if (spec.params().containsKey("max")) {
            values.put("max", Long.toString(Quantities.bytes(spec.params().get("max"))));
        }
        if (spec.params().containsKey("reserve")) {
            values.put("reserve", Long.toString(Quantities.bytes(spec.params().get("reserve"))));
        }
        values.put("id", spec.id());
        values.put("tag", "dsload-" + spec.id());
        values.put("target", spec.target().name());
        values.put("seconds", Long.toString(Math.max(1, spec.durationMillis() / 1000 + 30)));
        if (!values.containsKey("pid") && spec.target().get("pidfile") != null) {
            values.put("pid", Long.toString(spec.target().pid()));
        }
        return values;
    }

    static String render(String template, Map<String, String> values, String which) {
        if (template == null) {
            throw new IllegalArgumentException("no command template " + which);
        }
        Matcher m = PLACEHOLDER.matcher(template);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = values.get(m.group(1));
            if (value == null) {
                throw new IllegalArgumentException("command template " + which + " uses {" + m.group(1)
                        + "}, which neither the target nor the fault gives: '" + template + "'");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }

    /**
     * tc on the loopback device of the host itself would slow every program on it, not one node:
     * only allowed inside a network namespace.
     */
    private static void refuseWholeLoopback(String command, Target target) {
        if (command.toLowerCase(Locale.ROOT).matches(".*\\btc\\b.*\\bdev\\s+lo\\b.*") && target.get("netns") == null) {
            throw new IllegalArgumentException("refusing '" + command + "': a qdisc on the loopback device acts on "
                    + "everything on this host, not on one node; give the node's own device, or run it in a network "
                    + "namespace (netns=...)");
        }
    }

    private static List<String> prefix(Target target, String schedulePrefix, Map<String, String> values) {
        List<String> prefix = new ArrayList<>();
        String netns = target.get("netns");
        if (netns != null) {
            prefix.addAll(List.of("ip", "netns", "exec", netns));
        }
        String text = target.get("prefix", schedulePrefix == null ? "" : schedulePrefix).trim();
        if (!text.isEmpty()) {
            for (String word : render(text, values, "prefix").split("\\s+")) {
                prefix.add(word);
            }
        }
        return prefix;
    }

    private static List<String> wrap(List<String> prefix, String command) {
        List<String> full = new ArrayList<>(prefix);
        boolean remote = !prefix.isEmpty() && !prefix.get(0).equals("ip");
        if (remote) {
            full.add(command); // the remote shell runs it
        } else {
            full.addAll(List.of("sh", "-c", command));
        }
        return full;
    }

    private static String display(List<String> prefix, String command) {
        return prefix.isEmpty() ? command : String.join(" ", prefix) + " '" + command + "'";
    }

    private static String oneLine(String text) {
        String t = text.strip().replaceAll("\\s*\\R\\s*", " | ");
        return t.length() > 300 ? t.substring(0, 300) + "..." : t;
    }
}
