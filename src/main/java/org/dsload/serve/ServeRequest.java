package org.dsload.serve;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code dsload serve} is asked to start: {@code <target> [its options] <target> ... [--data <dir>]
 * [--keep-going]}. A target's options follow its name ({@code cassandra --nodes 3 kairosdb --datastore
 * cassandra}, {@code redis --logins}); {@code --data} and {@code --keep-going} may stand anywhere.
 *
 * @param keepGoing a server that ends on its own does not stop the others (fault tests kill members)
 */
public record ServeRequest(List<Target> targets, Path data, boolean keepGoing) {
    static final String KEEP_GOING = "--keep-going";


    /** One target and its options, checked against what it takes. */
    public record Target(ServedTargets.Kind kind, Map<String, String> options) {
        public String option(String name) {
            return options.getOrDefault(name, kind.defaultOf(name));
        }

        /**
         * The folder (under the data folder) and display name: the target, and its options where
         * they differ from the defaults ({@code cassandra-nodes-3}, {@code redis-logins}).
         */
        public String label() {
            StringBuilder label = new StringBuilder(kind.id());
            for (String k : kind.optionNames()) {
                String v = options.get(k);
                if (v != null && !v.equals(kind.defaultOf(k))) {
                    label.append('-').append(k).append(kind.isFlag(k) ? "" : "-" + v);
                }
            }
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
        return parse(args, data, false);
    }

    /** As {@link #parse(List, Path)}, with {@code --keep-going} given apart from the arguments or among them. */
    public static ServeRequest parse(List<String> args, Path data, boolean keepGoing) {
        List<Target> targets = new ArrayList<>();
        ServedTargets.Kind current = null;
        Map<String, String> options = null;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (arg.equals("--data")) {
                data = Path.of(value(args, ++i, arg));
            } else if (arg.equals(KEEP_GOING)) {
                keepGoing = true;
            } else if (current != null && current.isFlag(arg.substring(2))) {
                options.put(arg.substring(2), "true");
            } else if (arg.startsWith("--")) {
                String name = arg.substring(2);
                if ((current == null || !current.takes(name)) && typoOf(name, "data")) {
                    throw new IllegalArgumentException("Unknown option: '" + arg + "'. Possible solutions: --data");
                }
                if (current == null) {
                    throw new IllegalArgumentException(arg + " belongs to a target, after its name (as in 'cassandra "
                            + "--nodes 3'); targets: " + ServedTargets.known());
                }
                if (!current.takes(name)) {
                    current.check(name, ""); // says what the target takes, before asking for a value
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
        targets.forEach(ServedTargets::check);
        return new ServeRequest(List.copyOf(targets), data, keepGoing);
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
