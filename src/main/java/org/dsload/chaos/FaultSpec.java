package org.dsload.chaos;

import java.util.Map;

/**
 * One fault to apply: its kind, its target, its parameters, how long it is meant to last (a
 * driver may use it as a safety limit, never as the revert), the run-wide settings of the
 * schedule, and an id unique on this machine that names what the fault creates.
 */
public record FaultSpec(String id, FaultKind kind, Target target, Map<String, String> params, long durationMillis,
        Settings settings) {

    public FaultSpec {
        params = Map.copyOf(params);
    }

    /** What every fault of a schedule shares. */
    public record Settings(String proxyControl, String commandPrefix, Map<String, String> templates,
            long commandTimeoutMillis, long readyTimeoutMillis) {
        public Settings {
            templates = Map.copyOf(templates);
        }

        public static Settings defaults() {
            return new Settings("", "", Map.of(), 60_000, 240_000);
        }
    }

    /** The label of its samples in the results: {@code fault:<kind>:<target>}. */
    public String label() {
        return "fault:" + kind.id() + ":" + target.name();
    }

    public String param(String key, String fallback) {
        String v = params.get(key);
        return v == null || v.isBlank() ? fallback : v;
    }
}
