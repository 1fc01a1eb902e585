package org.dsload.run;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code -J} and {@code -G} values a plan cannot use, found before JMeter starts. A plan reads
 * its settings as {@code ${__P(name,default)}}; the default says what the plan expects: a number
 * (a number is needed, not below 0 where no default is below 0), {@code true} or {@code false}.
 * Where the value lands in a JMeter field or function that takes whole numbers only (a thread
 * group's threads, ramp-up, duration and delay, a loop count, {@code __intSum}, {@code __Random}),
 * it must be one. JMeter itself would take {@code -Jduration=abc} as no duration, a thread count of
 * {@code -1} as no thread, and {@code -Jcross_check=yes} as false: a run that reports a load it
 * never ran, or nothing at all.
 */
final class PropertyValues {
    /** {@code ${__P(name,default)}} with a default that holds no other function. */
    private static final Pattern USE = Pattern.compile("\\$\\{__P\\(([A-Za-z0-9_.\\-]+),([^(){}$]*)\\)}");
    private static final Pattern NUMBER = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");
    private static final Pattern WHOLE = Pattern.compile("[+-]?\\d+");
    private static final Pattern FIELD = Pattern.compile("<stringProp name=\"([A-Za-z_.]+)\">([^<]*)</stringProp>");
    /** JMeter's fields that read a whole number (a value such as 2.5 fails there, or becomes 0). */
    private static final Set<String> WHOLE_FIELDS = Set.of("ThreadGroup.num_threads", "ThreadGroup.ramp_time",
            "ThreadGroup.duration", "ThreadGroup.delay", "LoopController.loops");
    /**
     * Names without a dot that JMeter (its jmeter.properties) or the runner reads whatever the plan:
     * given with {@code -J}, they are not a plan's setting misspelt.
     */
    private static final Set<String> READ_ELSEWHERE = Set.of("aggregate_rpt_pct1", "aggregate_rpt_pct2",
            "aggregate_rpt_pct3", "backend_metrics_large_window", "backend_metrics_window", "backend_metrics_window_mode",
            "cacheable_methods", "cookies", "kerberos_jaas_application", "key_on_threadname", "language", "mode",
            "not_in_menu", "num_sample_threshold", "plugin_dependency_paths", "post_add_content_type_if_missing",
            "propertyEditorSearchPath", "remote_hosts", "sample_sender_client_configured",
            "sample_sender_strip_also_on_error", "sample_variables", "save_automatically_before_run", "search_paths",
            "server_port", "time_threshold", "upgrade_properties", DistributedRun.ALLOW_MISSING_PROPERTY,
            PlanRun.MIN_SLAVES_PROPERTY, DistributedRun.DURATION_PROPERTY, "warmup");
    private static final Pattern READ = Pattern.compile("__(?:P|property)\\(([A-Za-z0-9_.\\-]+)");
    /** JMeter's functions whose arguments are whole numbers. */
    private static final Set<String> WHOLE_FUNCTIONS = Set.of("__intSum", "__Random", "__longSum");

    /** What a plan's uses of one property ask of its value. */
    private static final class Expected {
        boolean number;
        boolean negative;
        boolean whole;
        boolean flag;
        boolean text;
        boolean emptyDefault;
        final List<String> defaults = new ArrayList<>();
    }

    private PropertyValues() {
    }

    /**
     * @param plan the plan file's text
     * @return why the run cannot go on, one value a line, or null
     */
    static String refusal(PlanRun run, String plan) {
        Map<String, Expected> expected = expected(plan);
        List<String> problems = new ArrayList<>();
        check("-J", run.properties, expected, problems);
        check("-G", run.globalProperties, expected, problems);
        if (problems.isEmpty()) {
            return null;
        }
        return "the plan " + run.plan.getFileName() + " cannot use " + (problems.size() == 1 ? "this value" : "these values")
                + ":\n  " + String.join("\n  ", problems);
    }

    /**
     * A line for each {@code -J} or {@code -G} name without a dot that the plan never mentions, with
     * the name it likely meant: JMeter passes such a property on unused, and the run goes on with
     * the plan's default.
     */
    static List<String> unread(PlanRun run, String plan) {
        List<String> lines = new ArrayList<>();
        unread("-J", run.properties.keySet(), plan, run.plan.getFileName().toString(), lines);
        unread("-G", run.globalProperties.keySet(), plan, run.plan.getFileName().toString(), lines);
        return lines;
    }

    private static void unread(String option, Set<String> names, String plan, String planName, List<String> lines) {
        for (String name : names) {
            if (name.contains(".") || READ_ELSEWHERE.contains(name)
                    || Pattern.compile("(?<![A-Za-z0-9_])" + Pattern.quote(name) + "(?![A-Za-z0-9_])").matcher(plan).find()) {
                continue;
            }
            String near = nearest(name, plan);
            lines.add(option + name + " is not a property " + planName + " reads: JMeter passes it on unused"
                    + (near == null ? "" : "; did you mean " + option + near + "?"));
        }
    }

    /** The property the plan reads whose name is closest to {@code name} (two edits at most), or null. */
    private static String nearest(String name, String plan) {
        String best = null;
        int bestDistance = 3;
        Matcher read = READ.matcher(plan);
        while (read.find()) {
            int d = distance(name, read.group(1));
            if (d < bestDistance) {
                best = read.group(1);
                bestDistance = d;
            }
        }
        return best;
    }

    /** Levenshtein's distance: the fewest single-character insertions, deletions and changes from a to b. */
    static int distance(String a, String b) {
        int[] row = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            row[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            int diagonal = row[0];
            row[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int above = row[j];
                row[j] = Math.min(Math.min(row[j] + 1, row[j - 1] + 1), diagonal + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1));
                diagonal = above;
            }
        }
        return row[b.length()];
    }

    private static void check(String option, Map<String, String> given, Map<String, Expected> expected,
            List<String> problems) {
        for (Map.Entry<String, String> property : given.entrySet()) {
            Expected e = expected.get(property.getKey());
            if (e == null) {
                continue;
            }
            String problem = problem(property.getValue().trim(), e);
            if (problem != null) {
                problems.add(option + property.getKey() + "=" + property.getValue() + ": " + problem + " (the plan's default: "
                        + String.join(", ", e.defaults) + ")");
            }
        }
    }

    /** Why the plan cannot use this value of the property, or null. */
    static String problem(String plan, String name, String value) {
        Expected e = expected(plan).get(name);
        return e == null ? null : problem(value.trim(), e);
    }

    private static String problem(String value, Expected e) {
        if (e.text || e.flag && e.number || value.isEmpty() && e.emptyDefault) {
            return null; // some use takes any text, or the property is a flag in one place and a number in another
        }
        if (e.flag) {
            return value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false") ? null : "must be true or false";
        }
        if (!e.number) {
            return null;
        }
        if (!NUMBER.matcher(value).matches()) {
            return "must be a number";
        }
        if (e.whole && !WHOLE.matcher(value).matches()) {
            return "must be a whole number (JMeter reads it as one)";
        }
        if (!e.negative && value.startsWith("-") && Double.parseDouble(value) != 0) {
            return "must not be below 0";
        }
        return null;
    }

    /** What each property the plan reads with a literal default asks of its value. */
    static Map<String, Expected> expected(String plan) {
        Map<String, Expected> all = new LinkedHashMap<>();
        Matcher use = USE.matcher(plan);
        while (use.find()) {
            String name = use.group(1);
            String text = unescape(use.group(2)).trim();
            Expected e = all.computeIfAbsent(name, n -> new Expected());
            if (!e.defaults.contains(text.isEmpty() ? "empty" : text)) {
                e.defaults.add(text.isEmpty() ? "empty" : text);
            }
            if (text.isEmpty()) {
                e.emptyDefault = true;
            } else if (NUMBER.matcher(text).matches()) {
                e.number = true;
                e.negative |= text.startsWith("-");
            } else if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
                e.flag = true;
            } else {
                e.text = true;
            }
            if (WHOLE_FUNCTIONS.contains(enclosingFunction(plan, use.start()))) {
                e.whole = true;
            }
        }
        Matcher field = FIELD.matcher(plan);
        while (field.find()) {
            if (!WHOLE_FIELDS.contains(field.group(1))) {
                continue;
            }
            Matcher inside = USE.matcher(field.group(2).trim());
            if (inside.matches()) {
                if (all.containsKey(inside.group(1))) {
                    all.get(inside.group(1)).whole = true;
                }
                continue;
            }
            // an optional setting (empty default) within an expression of such a field: given, it is the field's value
            inside.reset();
            while (inside.find()) {
                Expected e = all.get(inside.group(1));
                if (e != null && inside.group(2).isBlank()) {
                    e.number = true;
                    e.whole = true;
                }
            }
        }
        return all;
    }

    /** The name of the function whose argument list holds the text at {@code at}, or "". */
    private static String enclosingFunction(String plan, int at) {
        int depth = 0;
        for (int i = at - 1; i >= 0; i--) {
            char c = plan.charAt(i);
            if (c == ')') {
                depth++;
            } else if (c == '(') {
                if (depth == 0) {
                    int end = i;
                    int start = end;
                    while (start > 0 && (Character.isLetterOrDigit(plan.charAt(start - 1)) || plan.charAt(start - 1) == '_')) {
                        start--;
                    }
                    return plan.substring(start, end);
                }
                depth--;
            } else if (c == '>' || c == '\n') {
                return ""; // the start of the field's text
            }
        }
        return "";
    }

    private static String unescape(String xml) {
        return xml.replace("\\,", ",").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"")
                .replace("&apos;", "'").replace("&amp;", "&");
    }
}
