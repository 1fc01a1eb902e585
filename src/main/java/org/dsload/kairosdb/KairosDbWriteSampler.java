package org.dsload.kairosdb;

import java.io.IOException;
import java.net.URI;
import java.util.List;

import org.apache.jmeter.gui.TestElementMetadata;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.SampleResult;
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
 * KairosDB Write sampler: one {@code POST /api/v1/datapoints} per sample ({@link WriteCall}), a
 * generated batch of metrics for the thread's resource or a JSON body of the user's. The sample
 * counts the data points of the batch (its sample count, and its error count when the batch
 * failed), so rates, totals and error shares in the summary and in JMeter's listeners are points.
 * In the {@value #SETUP} phase (history written before the load, such as the read plan's seed) its
 * successful samples are left out of the results and its points out of the capacity figures.
 * With In flight above 1 the thread keeps that many batches outstanding through the connection's
 * async client, each timed on its own and counted as its points. The bean holds the fields;
 * {@link WriteSettings} compiles them, {@link ThreadBatches} makes the thread's batches and
 * {@link WriteCall} sends each.
 */
@TestElementMetadata(labelResource = "displayName")
public class KairosDbWriteSampler extends HttpInFlightSampler {
    private static final long serialVersionUID = 1L;
    static final String GENERATED = "generated";
    static final String TEMPLATE = "template";
    static final String MEASURED = "measured";
    static final String SETUP = "setup";
    /** Response code of a batch without data points that KairosDB acknowledged. */
    static final String EMPTY = "EMPTY_BATCH";

    private String connection = "kairosdb";
    private String mode = GENERATED;
    private String metricName = "dsload.metric.#{m}";
    private String tags = "host=res-#{engine}-#{thread}, dc=dc1";
    private String metricsPerRequest = "25";
    private String metricsPerResource = "100";
    private String pointsPerMetric = "1";
    private String timestamps = WriteSettings.NOW;
    private String interval = "15";
    private String values = "random:0-100";
    private String ttl = "0";
    private String body = "";
    private String phase = MEASURED;
    private String responseDataLimit = "0";
    private String inFlight = "1";
    private String stopOnUnrecoverable = "true";
    /** Whether a refused login stops the test, as last compiled. */
    private transient boolean stopsOnUnauthorized = true;

    private transient CompiledFields<WriteSettings.Compiled> compiled;
    /** This thread's batches, and what the connection's ledger learns of them. */
    private transient ThreadBatches batches;

    @Override
    protected SampleResult doSample(Entry entry) {
        return Unauthorized.stopIf(write(entry), stopsOnUnauthorized, getName());
    }

    private SampleResult write(Entry entry) {
        WriteSettings.Compiled c;
        KairosDbClient client;
        try {
            c = compiled();
            stopsOnUnauthorized = c.stop();
            client = SharedClients.lookup(connection, KairosDbClient.class, "dsload KairosDB Connection");
        } catch (ConfigException e) {
            return Results.refused(getName(), "POST " + KairosDbPaths.DATAPOINTS, e);
        }
        WriteLedger ledger = client.ledger();
        ledger.writer(getName(), c.setup());
        if (c.inFlight() > 1) {
            return inFlight(c, client);
        }
        if (!oneRequestDue(Unreachable::connectFailure)) {
            return null; // no arrival left before the thread's end, or the test is stopping
        }
        WriteCall call = new WriteCall(client, nextBatch(c, client), c.limit());
        RequestsResult result = Results.fill(new RequestsResult(), getName());
        result.setSampleCount(Math.max(1, call.points()));
        SampleTiming timing = new SampleTiming();
        timing.start(result);
        Outcome outcome;
        KairosDbClient.Exchange<KairosDbReplies.Text> reply = null;
        try {
            reply = call.send();
            timing.end(result, result.getSampleCount());
            outcome = call.answered(reply);
        } catch (IOException e) {
            timing.end(result, result.getSampleCount());
            outcome = call.failed(e);
        }
        // a failed batch failed every point it carried
        result.setErrorCount(outcome.success() ? 0 : result.getSampleCount());
        Results.bytes(result, outcome.sentBytes(), outcome.receivedBytes());
        if (outcome.success()) {
            batches().written(call, getName());
            Results.succeed(result, outcome.code(), outcome.message());
            if (c.limit() > 0) {
                Results.text(result, reply.body().shown(c.limit()));
                result.setSamplerData(call.describe(c.limit()));
            }
            if (c.setup()) {
                result.setIgnore();
            }
        } else {
            if (reply != null) {
                Results.text(result, reply.body().text());
            } else if (KairosDbErrors.unanswered(outcome.code())) {
                batches().unanswered(call);
            }
            Results.fail(result, outcome.code(), outcome.message());
            result.setSamplerData(call.describe(Math.max(c.limit(), reply == null ? c.limit() : KairosDbReplies.ERROR_TEXT)));
        }
        return result;
    }

    /**
     * Requests in flight: batches sent while fewer than In flight are outstanding, each timed on its
     * own and counted as its points; the row holds the batches that ended.
     */
    private SampleResult inFlight(WriteSettings.Compiled c, KairosDbClient client) {
        RequestsResult result = call(c, client, c.inFlight(), client.async(), KairosDbRequest.answers(), place -> {
            WriteCall write = new WriteCall(client, nextBatch(c, client), c.limit());
            URI node = client.next();
            place.prepare(node, client.request(node, KairosDbPaths.DATAPOINTS, write.batch().json(), true), write,
                    Math.max(1, write.points()));
        }).sample(this, getName());
        if (result == null) {
            return null;
        }
        List<Completion> row = result.requests();
        if (row.get(0).detail() instanceof HttpEnd end) {
            WriteCall first = (WriteCall) end.sent().payload();
            if (!result.isSuccessful() || c.limit() > 0) {
                int shown = result.isSuccessful() ? c.limit() : Math.max(c.limit(), KairosDbReplies.ERROR_TEXT);
                result.setSamplerData(first.describe(shown) + BatchResult.andMore(row, "\n", "requests"));
                if (end.reply() != null) {
                    String text = end.reply().text();
                    Results.text(result, text.length() > shown ? text.substring(0, shown) + " ..." : text);
                }
            }
        }
        if (c.setup() && result.isSuccessful()) {
            result.setIgnore();
        }
        return result;
    }

    /**
     * The points of a row's successful batches go into the ledger (rows at the thread's end too),
     * and those of batches sent that got no answer, as points KairosDB may hold.
     */
    @Override
    protected void account(List<Completion> row) {
        HttpEnd.succeeded(row, WriteCall.class).forEach(call -> batches().written(call, getName()));
        HttpEnd.unanswered(row, WriteCall.class, KairosDbErrors::unanswered).forEach(call -> batches().unanswered(call));
    }

    private ThreadBatches batches() {
        if (batches == null) {
            batches = new ThreadBatches();
        }
        return batches;
    }

    private WriteBatch.Built nextBatch(WriteSettings.Compiled c, KairosDbClient client) {
        return batches().next(c, client, body);
    }

    /** The fields compiled, again only when one of them changed (they are set before every sample). */
    private WriteSettings.Compiled compiled() {
        if (compiled == null) {
            compiled = new CompiledFields<>();
        }
        WriteSettings.Fields raw = new WriteSettings.Fields(connection, mode, metricName, tags, metricsPerRequest,
                metricsPerResource, pointsPerMetric, timestamps, interval, values, ttl, phase, responseDataLimit,
                inFlight, stopOnUnrecoverable);
        return compiled.get(raw.array(), () -> WriteSettings.compile(raw, getName()));
    }

    public String getConnection() {
        return connection;
    }

    public void setConnection(String connection) {
        this.connection = connection;
    }

    public String getMode() {
        return mode;
    }

    public void setMode(String mode) {
        this.mode = mode;
    }

    public String getMetricName() {
        return metricName;
    }

    public void setMetricName(String metricName) {
        this.metricName = metricName;
    }

    public String getTags() {
        return tags;
    }

    public void setTags(String tags) {
        this.tags = tags;
    }

    public String getMetricsPerRequest() {
        return metricsPerRequest;
    }

    public void setMetricsPerRequest(String metricsPerRequest) {
        this.metricsPerRequest = metricsPerRequest;
    }

    public String getMetricsPerResource() {
        return metricsPerResource;
    }

    public void setMetricsPerResource(String metricsPerResource) {
        this.metricsPerResource = metricsPerResource;
    }

    public String getPointsPerMetric() {
        return pointsPerMetric;
    }

    public void setPointsPerMetric(String pointsPerMetric) {
        this.pointsPerMetric = pointsPerMetric;
    }

    public String getTimestamps() {
        return timestamps;
    }

    public void setTimestamps(String timestamps) {
        this.timestamps = timestamps;
    }

    public String getInterval() {
        return interval;
    }

    public void setInterval(String interval) {
        this.interval = interval;
    }

    public String getValues() {
        return values;
    }

    public void setValues(String values) {
        this.values = values;
    }

    public String getTtl() {
        return ttl;
    }

    public void setTtl(String ttl) {
        this.ttl = ttl;
    }

    public String getBody() {
        return body;
    }

    public void setBody(String body) {
        this.body = body;
    }

    public String getPhase() {
        return phase;
    }

    public void setPhase(String phase) {
        this.phase = phase;
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
