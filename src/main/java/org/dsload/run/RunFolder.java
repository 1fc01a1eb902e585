package org.dsload.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.dsload.process.Folders;

/**
 * The folder a run leaves its files in, {@code <results root>/<run-id>/}: made fresh (a
 * timestamp and the plan's name, or the id asked for, with -2, -3 ... when taken), with a record
 * of what ran, and {@code latest} beside it pointing at it once the run is over.
 */
final class RunFolder {
    private RunFolder() {
    }

    static String planName(PlanRun run) {
        return run.plan.getFileName().toString().replaceFirst("\\.jmx$", "");
    }

    static Path create(PlanRun run) throws IOException {
        return Folders.freshRun(run.resultsRoot, run.runId, planName(run));
    }

    /** A record of what ran ({@code run.properties}), with values of secret-looking properties masked. */
    static void writeRecord(PlanRun run, Path dir) throws IOException {
        StringBuilder text = new StringBuilder();
        text.append("plan=").append(run.plan.toAbsolutePath()).append('\n');
        text.append("jmeter.home=").append(run.jmeterHome.toAbsolutePath()).append('\n');
        if (!run.remoteHosts.isEmpty()) {
            text.append("remote.hosts=").append(String.join(",", run.remoteHosts)).append('\n');
        }
        if (run.localSlaves > 0) {
            text.append("local.slaves=").append(run.localSlaves).append('\n');
        }
        run.properties.forEach((k, v) -> text.append("J ").append(k).append('=').append(mask(k, v)).append('\n'));
        run.globalProperties.forEach((k, v) -> text.append("G ").append(k).append('=').append(mask(k, v)).append('\n'));
        Files.writeString(dir.resolve("run.properties"), text, StandardCharsets.UTF_8);
    }

    static String mask(String name, String value) {
        return SecretNames.isLiteralSecret(name, value) ? "****" : value;
    }

    /** True when the master said it could not configure or start its slaves: the run never got its load. */
    static boolean slavesRefused(Path dir) {
        Path out = dir.resolve("jmeter.out");
        try {
            return Files.isRegularFile(out) && Files.readAllLines(out, StandardCharsets.UTF_8).stream()
                    .anyMatch(l -> l.contains("could not be configured") || l.contains("have not started"));
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Why JMeter could not load the plan, from what it printed ({@code Problem loading XML}, its
     * cause and the element's path), or null: an element whose class no jar of the home holds
     * (a plugin not installed), a field its class does not know.
     */
    static String planNotLoaded(Path dir) {
        Path out = dir.resolve("jmeter.out");
        List<String> lines;
        try {
            if (!Files.isRegularFile(out)) {
                return null;
            }
            lines = Files.readAllLines(out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return null;
        }
        int at = -1;
        for (int i = 0; i < lines.size() && at < 0; i++) {
            if (lines.get(i).contains("Problem loading XML from")) {
                at = i;
            }
        }
        if (at < 0) {
            return null;
        }
        String cause = null;
        String path = null;
        for (int i = at + 1; i < lines.size(); i++) {
            String l = lines.get(i).strip();
            if (cause == null && l.equals("Cause:") && i + 1 < lines.size()) {
                cause = lines.get(i + 1).strip();
            } else if (path == null && l.startsWith("path ") && l.contains(":")) {
                path = l.substring(l.indexOf(':') + 1).strip();
            }
        }
        StringBuilder said = new StringBuilder("JMeter could not load the plan: ")
                .append(cause == null || cause.isEmpty() ? lines.get(at).strip() : cause);
        if (path != null) {
            // its line is the copy's in the run folder, which JMeter loaded, not the user's file's
            said.append(" at ").append(path);
        }
        if (cause != null && cause.startsWith("CannotResolveClassException")) {
            said.append("; no jar of the JMeter home holds that class: install the plugin that provides it into the home's "
                    + "lib/ext (and every slave's)");
        }
        return said.toString();
    }

    /** What a run says of slaves whose RMI key is not the master's. */
    static final String ANOTHER_KEY = "the slaves hold another RMI key than this master (the keystore was made again, "
            + "or copied, since they started): restart them (dsload slaves stop, then dsload slaves start, with the same "
            + "--remote-dir), or give them a copy of this run's keystore";

    /** Lines of a JVM's own output quoted when it wrote no log. */
    private static final int QUOTED_LINES = 3;

    /**
     * Where to look for why JMeter failed: its {@code jmeter.log}; or, when it wrote none (a JVM
     * that did not start, as with an option it refuses), {@code jmeter.out} with its first lines.
     */
    static String seeLog(Path dir) {
        Path log = dir.resolve("jmeter.log");
        Path out = dir.resolve("jmeter.out");
        if (Files.isRegularFile(log) || !Files.isRegularFile(out)) {
            return log.toString();
        }
        try {
            List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8).stream().map(String::strip)
                    .filter(l -> !l.isEmpty()).limit(QUOTED_LINES).toList();
            return out + (lines.isEmpty() ? "" : " (JMeter wrote no log; it said: " + String.join(" | ", lines) + ")");
        } catch (IOException e) {
            return out.toString();
        }
    }

    /** What the master said about slaves it could not use, for a run without results. */
    static String remoteErrors(Path dir) {
        Path out = dir.resolve("jmeter.out");
        try {
            if (!Files.isRegularFile(out)) {
                return "";
            }
            List<String> all = Files.readAllLines(out, StandardCharsets.UTF_8);
            List<String> lines = all.stream()
                    .filter(l -> l.contains("could not be configured") || l.contains("have not started")
                            || l.contains("Engine is busy") || l.contains("Failed to configure"))
                    .toList();
            String said = lines.isEmpty() ? "" : "; the master said: " + String.join(" | ", lines);
            if (all.stream().anyMatch(l -> l.contains("SSLHandshakeException")) || logSaysKeysDiffer(dir)) {
                said += "; " + ANOTHER_KEY;
            }
            return said;
        } catch (IOException e) {
            return "";
        }
    }

    private static boolean logSaysKeysDiffer(Path dir) throws IOException {
        Path log = dir.resolve("jmeter.log");
        if (!Files.isRegularFile(log)) {
            return false;
        }
        try (var lines = Files.lines(log, StandardCharsets.UTF_8)) {
            return lines.anyMatch(l -> l.contains("SSLHandshakeException"));
        } catch (java.io.UncheckedIOException e) {
            return false;
        }
    }

    static void linkLatest(Path dir) {
        Path latest = dir.getParent().resolve("latest");
        try {
            Files.deleteIfExists(latest);
            Files.createSymbolicLink(latest, dir.getFileName());
        } catch (IOException | UnsupportedOperationException e) {
            // a convenience only; some file systems have no links
        }
    }
}
