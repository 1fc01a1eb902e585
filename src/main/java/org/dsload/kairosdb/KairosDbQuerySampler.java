package org.dsload.kairosdb;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.jmeter.gui.TestElementMetadata;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.dsload.core.BatchResult;
import org.dsload.core.Completion;
import org.dsload.core.CompiledFields;
import org.dsload.core.ConfigException;
import org.dsload.core.Outcome;
import org.dsload.core.RequestsResult;
import org.dsload.core.Results;
import org.dsload.core.SampleTiming;
import org.dsload.core.SharedClients;
import org.dsload.core.Unreachable;
import org.dsload.http.HttpEnd;
import org.dsload.http.HttpInFlightSampler;

/**
 * KairosDB Query sampler: one {@code POST /api/v1/datapoints/query} per sample ({@link QueryCall}),
 * built from the fields or the user's own JSON. The answer is read in full; the points it returned
 * ({@code sample_size}) and its result count are in the response message and in the variables
 * {@value #SAMPLE_SIZE_VARIABLE} and {@value #RESULTS_VARIABLE}. An answer without points fails
 * ({@value #NO_DATA}) when Empty answer is a failure is on. With In flight above 1 the thread keeps
 * that many queries outstanding through the connection's async client, each timed on its own.
 */
@TestElementMetadata(labelResource = "displayName")
public class KairosDbQuerySampler extends HttpInFlightSampler {
    private static final long serialVersionUID = 1L;
    static final String SAMPLE_SIZE_VARIABLE = "kairosdb_sample_size";
    static final String RESULTS_VARIABLE = "kairosdb_results";
    /** Response code of an answer without data points, when that is a failure. */
    static final String NO_DATA = "NO_DATA";

    private String connection = "kairosdb";
    private String metrics = "dsload.metric.#{m}";
    private String metricsPerQuery = "10";
    private String start = "15 minutes";
    private String end = "";
    private String tags = "";
    private String groupBy = "";
    private String aggregator = "avg";
    private String sampling = "1 minutes";
    private String limit = "";
    private String query = "";
    private String emptyIsFailure = "false";
    private String responseDataLimit = "0";
    private String inFlight = "1";
    private String stopOnUnrecoverable = "true";
    /** Whether a refused login stops the test, as last compiled. */
    private transient boolean stopsOnUnauthorized = true;

    private transient CompiledFields<QuerySettings.Compiled> compiled;

    @Override
    protected SampleResult doSample(Entry entry) {
        return Unauthorized.stopIf(query(entry), stopsOnUnauthorized, getName());
    }

    private SampleResult query(Entry entry) {
        QuerySettings.Compiled c;
        KairosDbClient client;
        try {
            c = compiled();
            stopsOnUnauthorized = c.stop();
            client = SharedClients.lookup(connection, KairosDbClient.class, "dsload KairosDB Connection");
        } catch (ConfigException e) {
            return Results.refused(getName(), "POST " + KairosDbPaths.QUERY, e);
        }
        client.ledger().reader(getName());
        if (c.inFlight() > 1) {
            return inFlight(c, client);
        }
        if (!oneRequestDue(Unreachable::connectFailure)) {
            return null; // no arrival left before the thread's end, or the test is stopping
        }
        QueryCall call = newCall(c, client);
        SampleResult result = Results.create(getName());
        result.setSamplerData(call.describe());
        SampleTiming timing = new SampleTiming();
        timing.start(result);
        KairosDbClient.Exchange<QueryAnswer> reply;
        try {
            reply = call.send();
        } catch (IOException e) {
            timing.end(result);
            Outcome failed = call.failed(e);
            Results.fail(result, failed.code(), failed.message());
            Results.bytes(result, failed.sentBytes(), failed.receivedBytes());
            return result;
        }
        timing.end(result);
        Outcome outcome = call.answered(reply);
        Results.bytes(result, outcome.sentBytes(), outcome.receivedBytes());
        QueryAnswer answer = reply.body();
        if (!answer.text().isEmpty()) {
            Results.text(result, answer.truncated() ? answer.text() + "\n... (truncated)" : answer.text());
        }
        if (!outcome.success()) {
            Results.fail(result, outcome.code(), outcome.message());
            return result;
        }
        client.ledger().queried(getName(), answer.sampleSize());
        Results.succeed(result, outcome.code(), outcome.message());
        figures(answer);
        return result;
    }

    private QueryCall newCall(QuerySettings.Compiled c, KairosDbClient client) {
        return new QueryCall(client, c.json() != null ? c.json() : query.getBytes(StandardCharsets.UTF_8),
                c.emptyFails(), c.limit());
    }

    /** The answer's figures in the thread's variables, for the elements after the sampler. */
    private static void figures(QueryAnswer answer) {
        JMeterVariables variables = JMeterContextService.getContext().getVariables();
        if (variables != null) {
            variables.put(SAMPLE_SIZE_VARIABLE, Long.toString(answer.sampleSize()));
            variables.put(RESULTS_VARIABLE, Integer.toString(answer.results()));
        }
    }

    /**
     * Requests in flight: queries sent while fewer than In flight are outstanding, each timed on its
     * own; the row holds the queries that ended, the variables the last answer's figures.
     */
    private SampleResult inFlight(QuerySettings.Compiled c, KairosDbClient client) {
        RequestsResult result = call(c, client, c.inFlight(), client.async(), KairosDbRequest.answers(), place -> {
            QueryCall call = newCall(c, client);
            URI node = client.next();
            place.prepare(node, client.request(node, KairosDbPaths.QUERY, call.json(), false), call, 1);
        }).sample(this, getName());
        if (result == null) {
            return null;
        }
        List<Completion> row = result.requests();
        if (row.get(0).detail() instanceof HttpEnd end) {
            QueryCall first = (QueryCall) end.sent().payload();
            result.setSamplerData(first.describe() + BatchResult.andMore(row, "\n", "requests"));
            QueryAnswer answer = first.answer();
            if (answer != null && !answer.text().isEmpty()) {
                Results.text(result, answer.truncated() ? answer.text() + "\n... (truncated)" : answer.text());
            }
        }
        return result;
    }

    /** The points of a row's answered queries go into the ledger (rows at the thread's end too). */
    @Override
    protected void account(List<Completion> row) {
        for (QueryCall call : HttpEnd.succeeded(row, QueryCall.class)) {
            if (call.answer() != null) {
                call.ledger().queried(getName(), call.answer().sampleSize());
                figures(call.answer());
            }
        }
    }

    /** The fields compiled, again only when one of them changed (they are set before every sample). */
    private QuerySettings.Compiled compiled() {
        if (compiled == null) {
            compiled = new CompiledFields<>();
        }
        QuerySettings.Raw raw = new QuerySettings.Raw(connection, metrics, metricsPerQuery, start, end, tags, groupBy,
                aggregator, sampling, limit, query, emptyIsFailure, responseDataLimit, inFlight, stopOnUnrecoverable);
        return compiled.get(raw.array(), () -> QuerySettings.compile(raw, getName()));
    }

    public String getConnection() {
        return connection;
    }

    public void setConnection(String connection) {
        this.connection = connection;
    }

    public String getMetrics() {
        return metrics;
    }

    public void setMetrics(String metrics) {
        this.metrics = metrics;
    }

    public String getMetricsPerQuery() {
        return metricsPerQuery;
    }

    public void setMetricsPerQuery(String metricsPerQuery) {
        this.metricsPerQuery = metricsPerQuery;
    }

    public String getStart() {
        return start;
    }

    public void setStart(String start) {
        this.start = start;
    }

    public String getEnd() {
        return end;
    }

    public void setEnd(String end) {
        this.end = end;
    }

    public String getTags() {
        return tags;
    }

    public void setTags(String tags) {
        this.tags = tags;
    }

    public String getGroupBy() {
        return groupBy;
    }

    public void setGroupBy(String groupBy) {
        this.groupBy = groupBy;
    }

    public String getAggregator() {
        return aggregator;
    }

    public void setAggregator(String aggregator) {
        this.aggregator = aggregator;
    }

    public String getSampling() {
        return sampling;
    }

    public void setSampling(String sampling) {
        this.sampling = sampling;
    }

    public String getLimit() {
        return limit;
    }

    public void setLimit(String limit) {
        this.limit = limit;
    }

    public String getQuery() {
        return query;
    }

    public void setQuery(String query) {
        this.query = query;
    }

    public String getEmptyIsFailure() {
        return emptyIsFailure;
    }

    public void setEmptyIsFailure(String emptyIsFailure) {
        this.emptyIsFailure = emptyIsFailure;
    }

    public String getStopOnUnrecoverable() {
        return stopOnUnrecoverable;
    }

    public void setStopOnUnrecoverable(String stopOnUnrecoverable) {
        this.stopOnUnrecoverable = stopOnUnrecoverable;
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
}
