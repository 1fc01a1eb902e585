package org.dsload.kairosdb;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.dsload.core.Fields;

/**
 * The query sampler's fields compiled into KairosDB's query JSON: metric names (a name with
 * {@code #{m}} stands for Metrics per query names, 0 to N-1), a relative ({@code 15 minutes}) or
 * absolute (epoch milliseconds) range, tag filters, group-by tags, one aggregator with its
 * sampling, and a limit. A query of the user's own (the Query JSON field) is sent as it is.
 */
final class QuerySettings {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Pattern RELATIVE = Pattern.compile("(\\d+)\\s*([a-z]+)");
    static final List<String> UNITS = List.of("milliseconds", "seconds", "minutes", "hours", "days", "weeks", "months",
            "years");
    static final List<String> AGGREGATORS = List.of("none", "avg", "sum", "max", "min", "count", "last", "first");

    /** The raw fields, in the order {@link #compile} reads them. */
    record Raw(String connection, String metrics, String metricsPerQuery, String start, String end, String tags,
            String groupBy, String aggregator, String sampling, String limit, String query, String emptyIsFailure,
            String responseDataLimit, String inFlight, String stopOnUnrecoverable) {

        String[] array() {
            return new String[] {connection, metrics, metricsPerQuery, start, end, tags, groupBy, aggregator, sampling,
                limit, query, emptyIsFailure, responseDataLimit, inFlight, stopOnUnrecoverable};
        }
    }

    /**
     * The JSON to send (null when the user's own query is sent), its metric count, whether an
     * answer without data points fails, the text limit, the requests a thread keeps in flight, and
     * whether a refused login stops the test.
     */
    record Compiled(byte[] json, int metrics, boolean emptyFails, int limit, int inFlight, boolean stop) {
    }

    private QuerySettings() {
    }

    static Compiled compile(Raw raw, String element) {
        Fields f = new Fields(KairosDbQuerySampler.class, element);
        f.required("connection", raw.connection());
        int limit = f.integer("responseDataLimit", raw.responseDataLimit(), 0, Integer.MAX_VALUE);
        boolean emptyFails = f.flag("emptyIsFailure", raw.emptyIsFailure());
        int inFlight = f.integer("inFlight", raw.inFlight(), 1, 100_000, 1);
        boolean stop = Unauthorized.stopFlag(f, raw.stopOnUnrecoverable());
        if (raw.query() != null && !raw.query().isBlank()) {
            return new Compiled(null, 0, emptyFails, limit, inFlight, stop);
        }
        List<String> names = names(f, raw.metrics(), f.integer("metricsPerQuery", raw.metricsPerQuery(), 1, 100_000));
        ObjectNode query = MAPPER.createObjectNode();
        time(f, query, "start", raw.start(), true);
        time(f, query, "end", raw.end(), false);
        ObjectNode tagFilter = tags(f, raw.tags());
        List<String> groupBy = list(raw.groupBy());
        String aggregator = f.choice("aggregator", raw.aggregator().trim().toLowerCase(Locale.ROOT),
                AGGREGATORS.toArray(new String[0]));
        String limitText = f.text("limit", raw.limit());
        Integer pointLimit = limitText.isEmpty() ? null : f.integer("limit", limitText, 1, Integer.MAX_VALUE);
        ArrayNode metrics = query.putArray("metrics");
        for (String name : names) {
            ObjectNode metric = metrics.addObject();
            metric.put("name", name);
            if (tagFilter.size() > 0) {
                metric.set("tags", tagFilter);
            }
            if (!groupBy.isEmpty()) {
                ObjectNode group = metric.putArray("group_by").addObject();
                group.put("name", "tag");
                ArrayNode groupTags = group.putArray("tags");
                groupBy.forEach(groupTags::add);
            }
            if (!aggregator.equals("none")) {
                ObjectNode agg = metric.putArray("aggregators").addObject();
                agg.put("name", aggregator);
                agg.set("sampling", relative(f, "sampling", raw.sampling()));
            }
            if (pointLimit != null) {
                metric.put("limit", pointLimit);
            }
        }
        return new Compiled(query.toString().getBytes(StandardCharsets.UTF_8), names.size(), emptyFails, limit,
                inFlight, stop);
    }

    private static List<String> names(Fields f, String raw, int perQuery) {
        List<String> given = list(f.required("metrics", raw));
        Set<String> names = new LinkedHashSet<>();
        for (String name : given) {
            if (name.contains("#{m}")) {
                for (int m = 0; m < perQuery; m++) {
                    names.add(name.replace("#{m}", Integer.toString(m)));
                }
            } else {
                names.add(name);
            }
        }
        return new ArrayList<>(names);
    }

    private static List<String> list(String raw) {
        List<String> items = new ArrayList<>();
        for (String item : (raw == null ? "" : raw).split(",")) {
            if (!item.isBlank()) {
                items.add(item.trim());
            }
        }
        return items;
    }

    /** An absolute time (epoch milliseconds) or a relative one ({@code 15 minutes}); an empty end means now. */
    private static void time(Fields f, ObjectNode query, String which, String raw, boolean required) {
        String text = raw == null ? "" : raw.trim();
        if (text.isEmpty()) {
            if (required) {
                throw f.error(which, "is empty: give a relative time such as 15 minutes, or epoch milliseconds");
            }
            return;
        }
        if (text.matches("\\d{9,}")) {
            query.put(which + "_absolute", Long.parseLong(text));
        } else {
            query.set(which + "_relative", relative(f, which, text));
        }
    }

    private static ObjectNode relative(Fields f, String property, String raw) {
        Matcher m = RELATIVE.matcher(raw == null ? "" : raw.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw f.error(property, "must be a number and a unit, such as 15 minutes (units: " + String.join(", ", UNITS)
                    + "), got '" + raw + "'");
        }
        String unit = m.group(2).endsWith("s") ? m.group(2) : m.group(2) + "s";
        if (!UNITS.contains(unit)) {
            throw f.error(property, "has unit '" + m.group(2) + "'; known: " + String.join(", ", UNITS));
        }
        ObjectNode node = MAPPER.createObjectNode();
        node.put("value", Long.parseLong(m.group(1)));
        node.put("unit", unit);
        return node;
    }

    /** {@code host=res-1|res-2, dc=dc1}: a tag matches any of its values, all tags must match. */
    private static ObjectNode tags(Fields f, String raw) {
        ObjectNode tags = MAPPER.createObjectNode();
        for (String pair : list(raw)) {
            int eq = pair.indexOf('=');
            if (eq <= 0 || eq == pair.length() - 1) {
                throw f.error("tags", "has '" + pair + "': give name=value pairs separated by commas, values by |");
            }
            ArrayNode values = tags.putArray(pair.substring(0, eq).trim());
            for (String value : pair.substring(eq + 1).split("\\|")) {
                if (!value.isBlank()) {
                    values.add(value.trim());
                }
            }
        }
        return tags;
    }
}
