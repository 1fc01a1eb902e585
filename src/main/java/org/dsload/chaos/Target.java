package org.dsload.chaos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A node a fault acts on, by name, with what the drivers need to reach it: {@code host},
 * {@code port} (the port clients use), {@code route} (its route on the fault proxy, by default
 * its name), {@code pid} or {@code pidfile}, {@code start} (the command that starts it, for
 * restarts), {@code log}, {@code data} (its data directory), {@code dev} and {@code netns} (for
 * kernel network faults), {@code prefix} (how to run commands on its host, e.g. {@code ssh {host}}).
 */
public record Target(String name, Map<String, String> attributes) {

    public Target {
        attributes = Map.copyOf(attributes);
    }

    public String get(String key) {
        return attributes.get(key);
    }

    public String get(String key, String fallback) {
        String v = attributes.get(key);
        return v == null || v.isBlank() ? fallback : v;
    }

    public String require(String key, String why) {
        String v = attributes.get(key);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException("target '" + name + "' has no " + key + "=...: " + why);
        }
        return v;
    }

    /** The node's process id: {@code pid}, or the number in {@code pidfile} as it is now (restarts change it). */
    public long pid() {
        String pid = attributes.get("pid");
        if (pid != null && !pid.isBlank()) {
            return Long.parseLong(pid.trim());
        }
        String file = require("pidfile", "process faults need pid=... or pidfile=...");
        try {
            return Long.parseLong(Files.readString(Path.of(file), StandardCharsets.UTF_8).trim());
        } catch (IOException | NumberFormatException e) {
            throw new IllegalArgumentException("target '" + name + "': cannot read a process id from " + file + ": " + e);
        }
    }

    /**
     * Targets, one per line: {@code name: key=value key="value with spaces" ...}. Blank lines and
     * lines starting with # are skipped.
     */
    public static Map<String, Target> parseAll(String text) {
        Map<String, Target> targets = new LinkedHashMap<>();
        if (text == null) {
            return targets;
        }
        for (String raw : text.split("\\R")) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int colon = line.indexOf(':');
            if (colon <= 0 || line.substring(0, colon).contains("=")) {
                throw new IllegalArgumentException("a target line is 'name: key=value ...', got '" + line + "'");
            }
            String name = line.substring(0, colon).trim();
            if (targets.containsKey(name)) {
                throw new IllegalArgumentException("target '" + name + "' is defined twice");
            }
            targets.put(name, new Target(name, keyValues(line.substring(colon + 1))));
        }
        return targets;
    }

    /** {@code key=value key="a b"} pairs; also separated by commas. */
    public static Map<String, String> keyValues(String text) {
        Map<String, String> map = new LinkedHashMap<>();
        for (String word : words(text)) {
            int eq = word.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("expected key=value, got '" + word + "'");
            }
            map.put(word.substring(0, eq).trim(), word.substring(eq + 1));
        }
        return map;
    }

    private static List<String> words(String text) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean quoted = false;
        for (char c : text.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            } else if (!quoted && (Character.isWhitespace(c) || c == ',')) {
                if (word.length() > 0) {
                    words.add(word.toString());
                    word.setLength(0);
                }
            } else {
                word.append(c);
            }
        }
        if (quoted) {
            throw new IllegalArgumentException("unclosed quote in '" + text.trim() + "'");
        }
        if (word.length() > 0) {
            words.add(word.toString());
        }
        return words;
    }
}
