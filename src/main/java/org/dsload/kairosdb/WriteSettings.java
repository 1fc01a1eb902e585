package org.dsload.kairosdb;

import java.util.ArrayList;
import java.util.List;

import org.dsload.core.ConfigException;

/** The write sampler's fields, checked and compiled into a batch spec (generated mode) or none (template mode). */
final class WriteSettings {
    static final String NOW = "now";
    static final String SIMULATED = "simulated";

    private WriteSettings() {
    }

    /** The raw fields, in the order {@link #compile} reads them. */
    record Fields(String connection, String mode, String metricName, String tags, String metricsPerRequest,
            String metricsPerResource, String pointsPerMetric, String timestamps, String interval, String values,
            String ttl, String phase, String responseDataLimit, String inFlight, String stopOnUnrecoverable) {

        String[] array() {
            return new String[] {connection, mode, metricName, tags, metricsPerRequest, metricsPerResource,
                pointsPerMetric, timestamps, interval, values, ttl, phase, responseDataLimit, inFlight,
                stopOnUnrecoverable};
        }
    }

    /**
     * The compiled form: a batch spec in generated mode, null in template mode; whether the writes
     * prepare the test (setup phase) rather than being measured; the requests a thread keeps in flight;
     * whether a refused login stops the test.
     */
    record Compiled(BatchSpec spec, boolean setup, int limit, int inFlight, boolean stop) {
    }

    static Compiled compile(Fields raw, String element) {
        org.dsload.core.Fields f = new org.dsload.core.Fields(KairosDbWriteSampler.class, element);
        f.required("connection", raw.connection());
        int limit = f.integer("responseDataLimit", raw.responseDataLimit(), 0, Integer.MAX_VALUE);
        int inFlight = f.integer("inFlight", raw.inFlight(), 1, 100_000, 1);
        boolean stop = Unauthorized.stopFlag(f, raw.stopOnUnrecoverable());
        boolean setup = f.choice("phase", raw.phase(), KairosDbWriteSampler.MEASURED, KairosDbWriteSampler.SETUP)
                .equals(KairosDbWriteSampler.SETUP);
        String mode = f.choice("mode", raw.mode(), KairosDbWriteSampler.GENERATED, KairosDbWriteSampler.TEMPLATE);
        if (mode.equals(KairosDbWriteSampler.TEMPLATE)) {
            return new Compiled(null, setup, limit, inFlight, stop);
        }
        SeriesTemplate name = template(f, "metricName", f.required("metricName", raw.metricName()));
        int m = f.integer("metricsPerRequest", raw.metricsPerRequest(), 1, 1_000_000);
        int k = f.integer("metricsPerResource", raw.metricsPerResource(), 1, 10_000_000);
        if (!name.usesMetricNumber() && k > 1) {
            throw f.error("metricName", "has no #{m}, so all " + k + " metrics of a resource would have one name: "
                    + "add #{m} or set " + f.fieldLabel("metricsPerResource") + " to 1");
        }
        int p = f.integer("pointsPerMetric", raw.pointsPerMetric(), 1, 1_000_000);
        boolean simulated = f.choice("timestamps", raw.timestamps(), NOW, SIMULATED).equals(SIMULATED);
        long intervalMillis = Math.round(number(f, "interval", raw.interval()) * 1000);
        if (intervalMillis < 1) {
            throw f.error("interval", "must be at least 0.001 s");
        }
        ValueSpec values;
        try {
            values = ValueSpec.parse(raw.values());
        } catch (IllegalArgumentException e) {
            throw f.error("values", e.getMessage());
        }
        long ttl = f.longValue("ttl", raw.ttl(), 0, Integer.MAX_VALUE);
        List<BatchSpec.Tag> tagList = tags(f, raw.tags());
        // A simulated clock starts as far back as the points it makes per round of the resource's metrics.
        long offset = simulated ? (long) p * intervalMillis : 0;
        return new Compiled(new BatchSpec(name, tagList, m, k, p, simulated, intervalMillis, offset, values, ttl),
                setup, limit, inFlight, stop);
    }

    private static double number(org.dsload.core.Fields f, String property, String raw) {
        try {
            double value = Double.parseDouble(raw.trim());
            if (!Double.isFinite(value) || value <= 0) {
                throw new NumberFormatException();
            }
            return value;
        } catch (NumberFormatException | NullPointerException e) {
            throw f.error(property, "must be a positive number of seconds, got '" + raw + "'");
        }
    }

    private static SeriesTemplate template(org.dsload.core.Fields f, String property, String text) {
        try {
            return SeriesTemplate.compile(text);
        } catch (IllegalArgumentException e) {
            throw f.error(property, e.getMessage());
        }
    }

    /** {@code name=value} pairs separated by commas; KairosDB needs at least one tag per metric. */
    static List<BatchSpec.Tag> tags(org.dsload.core.Fields f, String raw) throws ConfigException {
        List<BatchSpec.Tag> tags = new ArrayList<>();
        for (String pair : (raw == null ? "" : raw).split(",")) {
            if (pair.isBlank()) {
                continue;
            }
            int eq = pair.indexOf('=');
            if (eq <= 0 || eq == pair.trim().length() - 1 && pair.trim().endsWith("=")) {
                throw f.error("tags", "has '" + pair.trim() + "': give name=value pairs separated by commas");
            }
            tags.add(new BatchSpec.Tag(template(f, "tags", pair.substring(0, eq).trim()),
                    template(f, "tags", pair.substring(eq + 1).trim())));
        }
        if (tags.isEmpty()) {
            throw f.error("tags", "is empty: KairosDB needs at least one tag per metric (such as host=res-#{thread})");
        }
        return tags;
    }
}
