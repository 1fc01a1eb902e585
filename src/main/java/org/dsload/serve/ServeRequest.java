package org.dsload.serve;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code dsload serve} is asked to start: {@code <target> [its options] <target> ... [--data <dir>]}.
 * A target's options follow its name ({@code cassandra --nodes 3 kairosdb --datastore cassandra});
 * {@code --data} may stand anywhere.
 */
public record ServeRequest(List<Target> targets, Path data) {

    /** One target and its options, checked against what it takes. */
    public record Target(ServedTargets.Kind kind, Map<String, String> options) {
        public String option(String name) {
            return options.getOrDefault(name, kind.defaultOf(name));
        }

        /** The folder (under the data folder) and display name: the target, and its options where they differ from the defaults. */
        public String label() {
            StringBuilder label = new StringBuilder(kind.id());
            options.forEach((k, v) -> {
                if (!v.equals(kind.defaultOf(k))) {
                    label.append('-').append(k).append('-').append(v);
                }
            });
            return label.toString();
        }
    }

    /**
     * The targets and their options as written on the command line, and {@code --data} (also
     * taken among them).
     *
     * @throws IllegalArgumentException saying what is wrong and what is expected
     */
    public static ServeRequest parse(List<String> args, Path data) {
        List<Target> targets = new ArrayList<>();
        ServedTargets.Kind current = null;
        Map<String, String> options = null;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (arg.equals("--data")) {
                data = Path.of(value(args, ++i, arg));
            } else if (arg.startsWith("--")) {
                String name = arg.substring(2);
                if ((current == null || !current.takes(name)) && typoOf(name, "data")) {
                    throw new IllegalArgumentException("Unknown option: '" + arg + "'. Possible solutions: --data");
                }
                if (current == null) {
                    throw new IllegalArgumentException(arg + " belongs to a target, after its name (as in 'cassandra "
                            + "--nodes 3'); targets: " + ServedTargets.known());
                }
                current.check(name, value(args, ++i, arg));
                options.put(name, args.get(i));
            } else {
                if (current != null) {
                    targets.add(new Target(current, Map.copyOf(options)));
                }
                current = ServedTargets.kind(arg);
                for (Target t : targets) {
                    if (t.kind() == current) {
                        throw new IllegalArgumentException(arg + " is named twice; one serve runs one of each target");
                    }
                }
                options = new LinkedHashMap<>();
            }
        }
        if (current != null) {
            targets.add(new Target(current, Map.copyOf(options)));
        }
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("serve needs at least one target: " + ServedTargets.known());
        }
        return new ServeRequest(List.copyOf(targets), data);
    }

    /** Whether {@code given} is {@code meant} with one or two letters wrong, missing, added or swapped. */
    static boolean typoOf(String given, String meant) {
        int[] previous = new int[meant.length() + 1];
        int[] current = new int[meant.length() + 1];
        for (int j = 0; j <= meant.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= given.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= meant.length(); j++) {
                int substitution = previous[j - 1] + (given.charAt(i - 1) == meant.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        int distance = previous[meant.length()];
        return distance > 0 && distance <= 2;
    }

    private static String value(List<String> args, int i, String option) {
        if (i >= args.size() || args.get(i).startsWith("--")) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args.get(i);
    }
}
