package org.dsload.cassandra;

import java.util.ArrayList;
import java.util.List;

import org.apache.jmeter.gui.TestElementMetadata;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.dsload.core.CompiledFields;
import org.dsload.core.ConfigException;
import org.dsload.core.Outcome;
import org.dsload.core.Results;
import org.dsload.core.SampleTiming;
import org.dsload.core.SharedClients;
import org.dsload.core.Unrecoverable;
import org.dsload.core.inflight.InFlightSampler;
import org.dsload.core.inflight.SamplerWindow;

import com.datastax.oss.driver.api.core.cql.Statement;

/**
 * CQL Request sampler: one statement (or a batch) through the session of a Cassandra Session
 * element, prepared once per session and bound to this sample's values. Only the execution is
 * timed, including the fetching of further pages when Read all pages is on. With In flight above
 * 1 the thread keeps that many statements outstanding, each timed on its own. The bean holds the
 * fields; {@link CqlSettings} compiles them, {@link CqlCall}, {@link CqlConcurrent} and
 * {@link CassandraInFlight} send the requests, {@link CqlSampleRow} fills the row of the first two.
 */
@TestElementMetadata(labelResource = "displayName")
public class CassandraSampler extends InFlightSampler<SamplerWindow<CassandraTransport.Request>> {
    private static final long serialVersionUID = 1L;
    static final String BAD_BIND_VALUE = "BAD_BIND_VALUE";

    private String session = "cassandra";
    private String mode = "single";
    private String prepare = "true";
    private String statement = "SELECT release_version FROM system.local";
    private String bindValues = "";
    private String batchSize = "1";
    private String consistency = CqlSettings.DEFAULT;
    private String serialConsistency = CqlSettings.DEFAULT;
    private String idempotent = CqlSettings.DEFAULT;
    private String pageSize = "0";
    private String readAllPages = "true";
    private String timeout = "0";
    private String concurrent = "1";
    private String inFlight = "1";
    private String responseDataLimit = "1024";
    private String stopOnUnrecoverable = "true";

    /** The thread's counter behind #{seq}; each thread has its own clone of the sampler. */
    private transient long seq;
    private transient CompiledFields<CqlSettings> compiled;

    @Override
    protected SampleResult doSample(Entry entry) {
        CqlSettings c;
        CassandraClient client;
        try {
            c = compiled();
            client = SharedClients.lookup(session, CassandraClient.class, "dsload Cassandra Session");
        } catch (ConfigException e) {
            return Results.refused(getName(), statement, e);
        }
        if (c.inFlight() > 1) {
            return Unrecoverable.stopIfRow(inFlight(List.of(c, client), () -> CassandraInFlight.window(c, client, this))
                    .sample(this, getName()), CassandraErrors::unrecoverable, c.stopOnUnrecoverable(), getName());
        }
        if (!oneRequestDue(CassandraErrors::unreachable)) {
            return null; // no arrival left before the thread's end, or the test is stopping
        }
        SampleResult result = Results.create(getName());
        result.setSamplerData(c.samplerData());
        int thread = JMeterContextService.getContext().getThreadNum() + 1;
        List<Statement<?>> requests = new ArrayList<>(c.concurrent());
        try {
            for (int i = 0; i < c.concurrent(); i++) {
                requests.add(c.options(c.plan().build(client, seq, thread)));
                seq += c.plan().batchSize();
            }
        } catch (IllegalArgumentException e) {
            return notSent(result, c, Outcome.failed(BAD_BIND_VALUE, e.getMessage(), 0, 0));
        } catch (RuntimeException e) {
            // the preparation failed: the server refused the statement, or could not be reached
            return notSent(result, c, Outcome.failed(CassandraErrors.code(e),
                    "preparing the statement failed: " + CassandraErrors.message(e, client), 0, 0));
        }
        RowsText text = c.limit() > 0 ? new RowsText(c.limit()) : null;
        SampleTiming timing = new SampleTiming();
        timing.start(result);
        CqlReply[] replies = c.concurrent() == 1
                ? new CqlReply[] {CqlCall.execute(client, requests.get(0), c.allPages(), text)}
                : CqlConcurrent.run(client, requests, text);
        timing.end(result);
        Outcome failed = CqlSampleRow.fill(result, replies, client, c.limit() > 0, text);
        if (failed != null) {
            Unrecoverable.stopIf(result, failed, CassandraErrors::unrecoverable, c.stopOnUnrecoverable(), getName());
        }
        return result;
    }

    /** The #{seq} of the next request, advanced past its {@code rows}. */
    long nextSeq(int rows) {
        long first = seq;
        seq += rows;
        return first;
    }

    private SampleResult notSent(SampleResult result, CqlSettings c, Outcome outcome) {
        result.sampleStart();
        result.sampleEnd();
        Results.fail(result, outcome.code(), outcome.message());
        Unrecoverable.stopIf(result, outcome, CassandraErrors::unrecoverable, c.stopOnUnrecoverable(), getName());
        return result;
    }

    /** The fields compiled, again only when one of them changed (they are set before every sample). */
    private CqlSettings compiled() {
        if (compiled == null) {
            compiled = new CompiledFields<>();
        }
        return compiled.get(new String[] {session, mode, prepare, statement, bindValues, batchSize, consistency,
            serialConsistency, idempotent, pageSize, readAllPages, timeout, concurrent, inFlight, responseDataLimit,
            stopOnUnrecoverable}, () -> CqlSettings.compile(this));
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

    public String getInFlight() {
        return inFlight;
    }

    public void setInFlight(String inFlight) {
        this.inFlight = inFlight;
    }

    public String getResponseDataLimit() {
        return responseDataLimit;
    }

    public void setResponseDataLimit(String responseDataLimit) {
        this.responseDataLimit = responseDataLimit;
    }

    public String getStopOnUnrecoverable() {
        return stopOnUnrecoverable;
    }

    public void setStopOnUnrecoverable(String stopOnUnrecoverable) {
        this.stopOnUnrecoverable = stopOnUnrecoverable;
    }
}
