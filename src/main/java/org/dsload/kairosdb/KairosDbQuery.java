package org.dsload.kairosdb;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import org.apache.jmeter.gui.TestElementMetadata;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.dsload.core.ClientSampler;
import org.dsload.core.ConfigException;
import org.dsload.core.Results;
import org.dsload.core.SampleTiming;
import org.dsload.core.SharedClients;

/**
 * KairosDB Query sampler: one {@code POST /api/v1/datapoints/query} per sample, built from the
 * fields or the user's own JSON. The answer is read in full; the points it returned
 * ({@code sample_size}) and its result count are in the response message and in the variables
 * {@value #SAMPLE_SIZE_VARIABLE} and {@value #RESULTS_VARIABLE}.
 */
@TestElementMetadata(labelResource = "displayName")
public class KairosDbQuery extends ClientSampler {
    private static final long serialVersionUID = 1L;
    static final String SAMPLE_SIZE_VARIABLE = "kairosdb_sample_size";
    static final String RESULTS_VARIABLE = "kairosdb_results";

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
    private String responseDataLimit = "0";

    private transient QuerySettings.Compiled compiled;

    @Override
    protected SampleResult doSample(Entry entry) {
        QuerySettings.Compiled c;
        KairosClient client;
        try {
            c = compiled();
            client = SharedClients.lookup(connection, KairosClient.class, "dsload KairosDB Connection");
        } catch (ConfigException e) {
            return Results.refused(getName(), "POST " + KairosPaths.QUERY, e);
        }
        byte[] json = c.json() != null ? c.json() : query.getBytes(StandardCharsets.UTF_8);
        client.ledger().reader(getName());
        SampleResult result = Results.create(getName());
        result.setSamplerData("POST " + KairosPaths.QUERY + "\n" + new String(json, StandardCharsets.UTF_8));
        SampleTiming timing = new SampleTiming();
        timing.start(result);
        KairosClient.Exchange<QueryAnswer> reply;
        try {
            reply = client.post(KairosPaths.QUERY, json, false, QueryAnswer.reader(c.limit()));
        } catch (IOException e) {
            timing.end(result);
            Results.fail(result, HttpFailures.code(e), HttpFailures.message(e, client));
            return result;
        }
        timing.end(result);
        Results.bytes(result, reply.sentBytes(), reply.receivedBytes());
        QueryAnswer answer = reply.body();
        if (!answer.text().isEmpty()) {
            Results.text(result, answer.truncated() ? answer.text() + "\n... (truncated)" : answer.text());
        }
        String code = Integer.toString(reply.status());
        if (reply.status() != 200) {
            Results.fail(result, code, "HTTP " + reply.status() + " " + reply.reason() + " from " + reply.node() + ": "
                    + answer.problem());
        } else if (answer.problem() != null) {
            Results.fail(result, code, answer.problem() + " (from " + reply.node() + ")");
        } else {
            client.ledger().queried(getName(), answer.sampleSize());
            Results.succeed(result, code, "sample_size " + answer.sampleSize() + ", results " + answer.results());
            JMeterVariables variables = JMeterContextService.getContext().getVariables();
            if (variables != null) {
                variables.put(SAMPLE_SIZE_VARIABLE, Long.toString(answer.sampleSize()));
                variables.put(RESULTS_VARIABLE, Integer.toString(answer.results()));
            }
        }
        return result;
    }

    private QuerySettings.Compiled compiled() {
        QuerySettings.Raw now = new QuerySettings.Raw(connection, metrics, metricsPerQuery, start, end, tags, groupBy,
                aggregator, sampling, limit, query, responseDataLimit);
        if (compiled == null || !compiled.from().equals(now)) {
            compiled = QuerySettings.compile(now, getName());
        }
        return compiled;
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

    public String getResponseDataLimit() {
        return responseDataLimit;
    }

    public void setResponseDataLimit(String responseDataLimit) {
        this.responseDataLimit = responseDataLimit;
    }
}
