package org.dsload.kairosdb;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import org.apache.jmeter.gui.TestElementMetadata;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.dsload.core.ClientSampler;
import org.dsload.core.ConfigException;
import org.dsload.core.Results;
import org.dsload.core.SampleTiming;
import org.dsload.core.SharedClients;

/**
 * KairosDB Write sampler: one {@code POST /api/v1/datapoints} per sample, a generated batch of
 * metrics for the thread's resource or a JSON body of the user's. The sample counts the data
 * points of the batch (its sample count), so rates and totals in the summary are points.
 */
@TestElementMetadata(labelResource = "displayName")
public class KairosDbWrite extends ClientSampler {
    private static final long serialVersionUID = 1L;
    static final String GENERATED = "generated";
    static final String TEMPLATE = "template";
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
    private String responseDataLimit = "0";

    /** This thread's batch maker, built again only when a field it depends on changes. */
    private transient WriteSettings.Compiled compiled;
    private transient WriteBatch batch;
    private transient KairosClient ledgerOf;
    /** The last body of the template mode, and its batch, for the ledger of {@code bodyLedgerOf}. */
    private transient String bodyText;
    private transient WriteBatch.Built bodyBuilt;
    private transient KairosClient bodyLedgerOf;

    @Override
    protected SampleResult doSample(Entry entry) {
        WriteSettings.Compiled c;
        KairosClient client;
        try {
            c = compiled();
            client = SharedClients.lookup(connection, KairosClient.class, "dsload KairosDB Connection");
        } catch (ConfigException e) {
            return Results.refused(getName(), "POST " + KairosPaths.DATAPOINTS, e);
        }
        WriteLedger ledger = client.ledger();
        WriteBatch.Built built;
        if (c.spec() != null) {
            if (batch == null || ledgerOf != client) {
                int thread = JMeterContextService.getContext().getThreadNum() + 1;
                batch = new WriteBatch(c.spec(), thread, EngineId.current());
                batch.series().forEach(s -> ledger.series(s.name(), s.tags()));
                ledgerOf = client;
            }
            built = batch.next(System.currentTimeMillis());
        } else {
            built = bodyBatch(ledger, client);
        }
        ledger.writer(getName());
        SampleResult result = Results.create(getName());
        result.setSampleCount(Math.max(1, built.points()));
        SampleTiming timing = new SampleTiming();
        timing.start(result);
        KairosClient.Exchange<Replies.Text> reply;
        try {
            reply = client.post(KairosPaths.DATAPOINTS, built.json(), true, Replies.text(c.limit()));
        } catch (IOException e) {
            timing.end(result);
            Results.fail(result, HttpFailures.code(e), HttpFailures.message(e, client));
            result.setSamplerData(describe(client, built, c.limit()));
            return result;
        }
        timing.end(result);
        Results.bytes(result, reply.sentBytes(), reply.receivedBytes());
        String text = reply.body().text();
        boolean accepted = reply.status() == 204 || reply.status() == 200;
        if (accepted && built.points() == 0) {
            // KairosDB acknowledges a batch without points and stores nothing: not a write.
            Results.fail(result, EMPTY, "the batch holds no data points: " + reply.node() + " answered HTTP "
                    + reply.status() + " and stored nothing");
            result.setSamplerData(describe(client, built, Math.max(c.limit(), Replies.ERROR_TEXT)));
        } else if (accepted) {
            ledger.written(getName(), built.points(), built.firstPoint(), built.lastPoint());
            Results.succeed(result, Integer.toString(reply.status()), built.points() + " data points written");
            if (c.limit() > 0) {
                Results.text(result, reply.body().shown(c.limit()));
                result.setSamplerData(describe(client, built, c.limit()));
            }
        } else {
            Results.fail(result, Integer.toString(reply.status()), "HTTP " + reply.status() + " " + reply.reason()
                    + " from " + reply.node() + ": " + Replies.errors(text));
            Results.text(result, text);
            result.setSamplerData(describe(client, built, Math.max(c.limit(), Replies.ERROR_TEXT)));
        }
        return result;
    }

    /**
     * The user's body as a batch. A body without per-sample functions is the same text every time:
     * it is parsed, counted and noted in the ledger only when it changes.
     */
    private WriteBatch.Built bodyBatch(WriteLedger ledger, KairosClient client) {
        if (!body.equals(bodyText) || bodyLedgerOf != client) {
            TemplateBody.Counted counted = TemplateBody.count(body);
            counted.series().forEach(s -> ledger.series(s.name(), s.tags()));
            bodyBuilt = new WriteBatch.Built(body.getBytes(StandardCharsets.UTF_8), counted.points(),
                    counted.firstPoint(), counted.lastPoint());
            bodyText = body;
            bodyLedgerOf = client;
        }
        return bodyBuilt;
    }

    private static String describe(KairosClient client, WriteBatch.Built built, int limit) {
        String json = new String(built.json(), StandardCharsets.UTF_8);
        String shown = limit <= 0 ? "" : json.length() > limit ? json.substring(0, limit) + " ... ("
                + json.length() + " characters)" : json;
        return "POST " + KairosPaths.DATAPOINTS + " (" + built.points() + " data points"
                + (client.settings().gzip() ? ", gzip" : "") + ")\n" + shown;
    }

    private WriteSettings.Compiled compiled() {
        WriteSettings.Fields now = new WriteSettings.Fields(connection, mode, metricName, tags, metricsPerRequest,
                metricsPerResource, pointsPerMetric, timestamps, interval, values, ttl, responseDataLimit);
        if (compiled != null && compiled.from().equals(now)) {
            return compiled;
        }
        compiled = WriteSettings.compile(now, getName());
        batch = null;
        return compiled;
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

    public String getResponseDataLimit() {
        return responseDataLimit;
    }

    public void setResponseDataLimit(String responseDataLimit) {
        this.responseDataLimit = responseDataLimit;
    }
}
