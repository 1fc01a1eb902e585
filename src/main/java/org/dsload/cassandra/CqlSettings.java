package org.dsload.cassandra;

import java.time.Duration;

import org.dsload.core.Fields;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.Statement;

/**
 * The fields of a CQL Request compiled into what a sample needs: the statement plan, the options
 * every request gets, how many requests go at once (per sample, or kept in flight by the thread),
 * how much of the reply to show.
 */
record CqlSettings(StatementPlan plan, DefaultConsistencyLevel consistency, DefaultConsistencyLevel serial,
        Boolean idempotent, int pageSize, boolean allPages, Duration timeout, int concurrent, int inFlight, int limit,
        boolean stopOnUnrecoverable, String samplerData) {
    static final String DEFAULT = "default";
    static final int MAX_IN_FLIGHT = 100_000;

    /** @throws org.dsload.core.ConfigException naming the field at fault */
    static CqlSettings compile(CassandraSampler s) {
        Fields f = new Fields(CassandraSampler.class, s.getName());
        f.required("session", s.getSession());
        StatementPlan.Mode m = StatementPlan.Mode.of(f.choice("mode", s.getMode(), StatementPlan.Mode.labels()));
        boolean prepared = f.flag("prepare", s.getPrepare());
        int size = f.integer("batchSize", s.getBatchSize(), 1, 65535);
        StatementPlan plan;
        try {
            plan = StatementPlan.compile(s.getStatement(), s.getBindValues(), m, size, prepared);
        } catch (IllegalArgumentException e) {
            String message = e.getMessage();
            int colon = message.indexOf(':');
            throw f.error(message.substring(0, colon), message.substring(colon + 1));
        }
        DefaultConsistencyLevel level = level(f, "consistency", s.getConsistency(), CassandraConnection.CONSISTENCY_LEVELS);
        DefaultConsistencyLevel serial = level(f, "serialConsistency", s.getSerialConsistency(),
                CassandraConnection.SERIAL_LEVELS);
        String idem = f.choice("idempotent", s.getIdempotent(), DEFAULT, "true", "false");
        int page = f.integer("pageSize", s.getPageSize(), 0, Integer.MAX_VALUE);
        boolean all = f.flag("readAllPages", s.getReadAllPages());
        int timeoutMillis = f.integer("timeout", s.getTimeout(), 0, Integer.MAX_VALUE);
        int perSample = f.integer("concurrent", s.getConcurrent(), 1, 1024);
        // plans saved before In flight existed leave it empty: one request at a time, as they did
        int inFlight = f.integer("inFlight", s.getInFlight(), 1, MAX_IN_FLIGHT, 1);
        if (inFlight > 1 && perSample > 1) {
            throw f.error("inFlight", "is " + inFlight + " and '" + f.fieldLabel("concurrent") + "' is " + perSample
                    + ": use one of them. In flight keeps N requests outstanding, each timed on its own; set '"
                    + f.fieldLabel("concurrent") + "' to 1");
        }
        int limit = f.integer("responseDataLimit", s.getResponseDataLimit(), 0, Integer.MAX_VALUE);
        // plans saved before this field existed leave it empty (JMeter 5.6 sets a missing property to "")
        boolean stop = f.flag("stopOnUnrecoverable", Fields.orDefault(s.getStopOnUnrecoverable(), "true"));
        StringBuilder data = new StringBuilder(plan.describe(4096));
        for (BindValue value : plan.bindValues()) {
            data.append('\n').append("  ? ").append(value);
        }
        return new CqlSettings(plan, level, serial, idem.equals(DEFAULT) ? null : Boolean.valueOf(idem), page, all,
                timeoutMillis == 0 ? null : Duration.ofMillis(timeoutMillis), perSample, inFlight, limit, stop, data.toString());
    }

    private static DefaultConsistencyLevel level(Fields f, String property, String raw, String[] levels) {
        String[] choices = new String[levels.length + 1];
        choices[0] = DEFAULT;
        System.arraycopy(levels, 0, choices, 1, levels.length);
        String value = f.choice(property, raw, choices);
        return value.equals(DEFAULT) ? null : CassandraConnection.level(value);
    }

    /** The statement with the options the fields set; the session's defaults where they say default. */
    Statement<?> options(Statement<?> request) {
        Statement<?> s = request;
        if (consistency != null) {
            s = s.setConsistencyLevel(consistency);
        }
        if (serial != null) {
            s = s.setSerialConsistencyLevel(serial);
        }
        if (idempotent != null) {
            s = s.setIdempotent(idempotent);
        }
        if (pageSize > 0) {
            s = s.setPageSize(pageSize);
        }
        if (timeout != null) {
            s = s.setTimeout(timeout);
        }
        return s;
    }
}
