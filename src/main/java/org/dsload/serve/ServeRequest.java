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
                if (current == null) {
                    throw new IllegalArgumentException(arg + " belongs to a target, after its name (as in 'cassandra "
                            + "--nodes 3'); targets: " + ServedTargets.known());
                }
                String name = arg.substring(2);
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

    private static String value(List<String> args, int i, String option) {
        if (i >= args.size() || args.get(i).startsWith("--")) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args.get(i);
    }
}
