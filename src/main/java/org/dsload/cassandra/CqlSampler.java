package org.dsload.cassandra;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.jmeter.gui.TestElementMetadata;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.dsload.core.ClientSampler;
import org.dsload.core.ConfigException;
import org.dsload.core.Fields;
import org.dsload.core.Results;
import org.dsload.core.SampleTiming;
import org.dsload.core.SharedClients;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.Statement;

/**
 * CQL Request sampler: one statement (or a batch) through the session of a Cassandra Session
 * element, prepared once per session and bound to this sample's values. Only the execution is
 * timed, including the fetching of further pages when Read all pages is on.
 */
@TestElementMetadata(labelResource = "displayName")
public class CqlSampler extends ClientSampler {
    private static final long serialVersionUID = 1L;
    static final String OK = "OK";
    static final String NOT_APPLIED = "NOT_APPLIED";
    static final String BAD_BIND_VALUE = "BAD_BIND_VALUE";
    static final String DEFAULT = "default";

    private String session = "cassandra";
    private String mode = "single";
    private String prepare = "true";
    private String statement = "SELECT release_version FROM system.local";
    private String bindValues = "";
    private String batchSize = "1";
    private String consistency = DEFAULT;
    private String serialConsistency = DEFAULT;
    private String idempotent = DEFAULT;
    private String pageSize = "0";
    private String readAllPages = "true";
    private String timeout = "0";
    private String concurrent = "1";
    private String responseDataLimit = "1024";

    /** The thread's counter behind #{seq}; each thread has its own clone of the sampler. */
    private transient long seq;
    private transient Compiled compiled;

    /** The fields as last compiled, kept to notice a change without rebuilding anything. */
    private record Compiled(String[] fields, StatementPlan plan, DefaultConsistencyLevel consistency,
            DefaultConsistencyLevel serial, Boolean idempotent, int pageSize, boolean allPages, Duration timeout,
            int concurrent, int limit, String samplerData) {

        boolean compiledFrom(CqlSampler s) {
            String[] now = s.fieldValues();
            for (int i = 0; i < now.length; i++) {
                if (!now[i].equals(fields[i])) {
                    return false;
                }
            }
            return true;
        }
    }

    private String[] fieldValues() {
        return new String[] {mode, prepare, statement, bindValues, batchSize, consistency, serialConsistency, idempotent,
            pageSize, readAllPages, timeout, concurrent, responseDataLimit};
    }

    @Override
    public SampleResult sample(Entry entry) {
        Compiled c;
        CqlClient client;
        try {
            c = compiled();
            client = SharedClients.lookup(session, CqlClient.class, "dsload Cassandra Session");
        } catch (ConfigException e) {
            return Results.refused(getName(), statement, e);
        }
        SampleResult result = Results.create(getName());
        result.setSamplerData(c.samplerData);
        int thread = JMeterContextService.getContext().getThreadNum() + 1;
        List<Statement<?>> requests = new ArrayList<>(c.concurrent);
        try {
            for (int i = 0; i < c.concurrent; i++) {
                requests.add(options(c, c.plan.build(client, seq, thread)));
                seq += c.plan.batchSize();
            }
        } catch (IllegalArgumentException e) {
            return notSent(result, BAD_BIND_VALUE, e.getMessage());
        } catch (RuntimeException e) {
            // the preparation failed: the server refused the statement, or could not be reached
            return notSent(result, CqlErrors.code(e), "preparing the statement failed: " + CqlErrors.message(e, client));
        }
        RowsText text = c.limit > 0 ? new RowsText(c.limit) : null;
        SampleTiming timing = new SampleTiming();
        timing.start(result);
        CqlExecution[] runs = c.concurrent == 1
                ? new CqlExecution[] {CqlExecution.run(client, requests.get(0), c.allPages, text)}
                : CqlConcurrent.run(client, requests, text);
        timing.end(result);
        report(result, runs, c, client, text);
        return result;
    }

    /** Fills the result from one execution, or from the concurrent ones of the sample (counted as N). */
    private static void report(SampleResult result, CqlExecution[] runs, Compiled c, CqlClient client, RowsText text) {
        long sent = 0;
        long received = 0;
        long rows = 0;
        int pages = 0;
        int failed = 0;
        CqlExecution firstFailure = null;
        boolean allApplied = true;
        boolean conditional = false;
        List<String> warnings = new ArrayList<>();
        for (CqlExecution run : runs) {
            sent += run.sent;
            received += run.received;
            rows += run.rows;
            pages += run.pages;
            conditional |= run.conditional;
            allApplied &= run.applied;
            warnings.addAll(run.warnings);
            if (!run.ok()) {
                failed++;
                if (firstFailure == null) {
                    firstFailure = run;
                }
            }
        }
        Results.bytes(result, sent, received);
        result.setSampleCount(runs.length);
        result.setErrorCount(failed);
        if (c.limit > 0 || failed > 0) {
            result.setResponseHeaders(headers(firstFailure != null ? firstFailure : runs[0], warnings));
        }
        if (firstFailure != null) {
            String message = CqlErrors.message(firstFailure.error, client);
            if (runs.length > 1) {
                message = failed + " of " + runs.length + " requests failed; first: " + message;
            }
            Results.fail(result, CqlErrors.code(firstFailure.error), message);
            return;
        }
        if (text != null) {
            Results.text(result, text.toString());
        }
        String message = rows + (rows == 1 ? " row" : " rows") + (pages > runs.length ? " in " + pages + " pages" : "");
        if (runs.length > 1) {
            message = runs.length + " requests, " + message;
        }
        if (conditional) {
            message += allApplied ? ", applied" : ", not applied";
        }
        if (!warnings.isEmpty()) {
            message += "; server warnings: " + String.join(" / ", warnings);
        }
        Results.succeed(result, allApplied ? OK : NOT_APPLIED, message);
    }

    private static SampleResult notSent(SampleResult result, String code, String message) {
        result.sampleStart();
        result.sampleEnd();
        Results.fail(result, code, message);
        return result;
    }

    private static Statement<?> options(Compiled c, Statement<?> request) {
        Statement<?> s = request;
        if (c.consistency != null) {
            s = s.setConsistencyLevel(c.consistency);
        }
        if (c.serial != null) {
            s = s.setSerialConsistencyLevel(c.serial);
        }
        if (c.idempotent != null) {
            s = s.setIdempotent(c.idempotent);
        }
        if (c.pageSize > 0) {
            s = s.setPageSize(c.pageSize);
        }
        if (c.timeout != null) {
            s = s.setTimeout(c.timeout);
        }
        return s;
    }

    private static String headers(CqlExecution run, List<String> warnings) {
        StringBuilder h = new StringBuilder();
        h.append("coordinator: ").append(run.coordinator()).append('\n');
        if (run.info != null) {
            if (run.info.getSpeculativeExecutionCount() > 0) {
                h.append("speculative-executions: ").append(run.info.getSpeculativeExecutionCount()).append('\n');
            }
            for (var tried : run.info.getErrors()) {
                h.append("retried-after: ").append(CqlErrors.address(tried.getKey())).append(' ')
                        .append(tried.getValue().getClass().getSimpleName()).append('\n');
            }
        }
        for (String warning : warnings) {
            h.append("warning: ").append(warning).append('\n');
        }
        return h.toString();
    }

    /** Compiles the fields, again only when one of them changed (they are set before every sample). */
    private Compiled compiled() {
        Compiled current = compiled;
        if (current != null && current.compiledFrom(this)) {
            return current;
        }
        Fields f = new Fields(CqlSampler.class, getName());
        f.required("session", session);
        StatementPlan.Mode m = StatementPlan.Mode.of(f.choice("mode", mode, StatementPlan.Mode.labels()));
        boolean prepared = f.flag("prepare", prepare);
        int size = f.integer("batchSize", batchSize, 1, 65535);
        StatementPlan plan;
        try {
            plan = StatementPlan.compile(statement, bindValues, m, size, prepared);
        } catch (IllegalArgumentException e) {
            String message = e.getMessage();
            int colon = message.indexOf(':');
            throw f.error(message.substring(0, colon), message.substring(colon + 1));
        }
        DefaultConsistencyLevel level = level(f, "consistency", consistency, CassandraSession.CONSISTENCY_LEVELS);
        DefaultConsistencyLevel serial = level(f, "serialConsistency", serialConsistency, CassandraSession.SERIAL_LEVELS);
        String idem = f.choice("idempotent", idempotent, DEFAULT, "true", "false");
        int page = f.integer("pageSize", pageSize, 0, Integer.MAX_VALUE);
        boolean all = f.flag("readAllPages", readAllPages);
        int timeoutMillis = f.integer("timeout", timeout, 0, Integer.MAX_VALUE);
        int inFlight = f.integer("concurrent", concurrent, 1, 1024);
        int limit = f.integer("responseDataLimit", responseDataLimit, 0, Integer.MAX_VALUE);
        StringBuilder data = new StringBuilder(plan.describe(4096));
        for (BindValue value : plan.bindValues()) {
            data.append('\n').append("  ? ").append(value);
        }
        current = new Compiled(fieldValues(), plan, level, serial,
                idem.equals(DEFAULT) ? null : Boolean.valueOf(idem), page, all,
                timeoutMillis == 0 ? null : Duration.ofMillis(timeoutMillis), inFlight, limit, data.toString());
        compiled = current;
        return current;
    }

    private static DefaultConsistencyLevel level(Fields f, String property, String raw, String[] levels) {
        String[] choices = new String[levels.length + 1];
        choices[0] = DEFAULT;
        System.arraycopy(levels, 0, choices, 1, levels.length);
        String value = f.choice(property, raw, choices);
        return value.equals(DEFAULT) ? null : CassandraSession.level(value);
    }

    public String getSession() {
        return session;
    }

    public void setSession(String session) {
        this.session = session;
    }

    public String getMode() {
        return mode;
    }

    public void setMode(String mode) {
        this.mode = mode;
    }

    public String getPrepare() {
        return prepare;
    }

    public void setPrepare(String prepare) {
        this.prepare = prepare;
    }

    public String getStatement() {
        return statement;
    }

    public void setStatement(String statement) {
        this.statement = statement;
    }

    public String getBindValues() {
        return bindValues;
    }

    public void setBindValues(String bindValues) {
        this.bindValues = bindValues;
    }

    public String getBatchSize() {
        return batchSize;
    }

    public void setBatchSize(String batchSize) {
        this.batchSize = batchSize;
    }

    public String getConsistency() {
        return consistency;
    }

    public void setConsistency(String consistency) {
        this.consistency = consistency;
    }

    public String getSerialConsistency() {
        return serialConsistency;
    }

    public void setSerialConsistency(String serialConsistency) {
        this.serialConsistency = serialConsistency;
    }

    public String getIdempotent() {
        return idempotent;
    }

    public void setIdempotent(String idempotent) {
        this.idempotent = idempotent;
    }

    public String getPageSize() {
        return pageSize;
    }

    public void setPageSize(String pageSize) {
        this.pageSize = pageSize;
    }

    public String getReadAllPages() {
        return readAllPages;
    }

    public void setReadAllPages(String readAllPages) {
        this.readAllPages = readAllPages;
    }

    public String getTimeout() {
        return timeout;
    }

    public void setTimeout(String timeout) {
        this.timeout = timeout;
    }

    public String getConcurrent() {
        return concurrent;
    }

    public void setConcurrent(String concurrent) {
        this.concurrent = concurrent;
    }

    public String getResponseDataLimit() {
        return responseDataLimit;
    }

    public void setResponseDataLimit(String responseDataLimit) {
        this.responseDataLimit = responseDataLimit;
    }
}
