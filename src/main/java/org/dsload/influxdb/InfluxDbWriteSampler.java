package org.dsload.influxdb;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.jmeter.gui.TestElementMetadata;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.dsload.core.BatchResult;
import org.dsload.core.CompiledFields;
import org.dsload.core.Completion;
import org.dsload.core.ConfigException;
import org.dsload.core.Fields;
import org.dsload.core.Outcome;
import org.dsload.core.RequestsResult;
import org.dsload.core.Results;
import org.dsload.core.SharedClients;
import org.dsload.core.Unrecoverable;
import org.dsload.core.inflight.SamplerWindow;
import org.dsload.http.HttpEnd;
import org.dsload.http.HttpInFlightSampler;
import org.dsload.http.HttpPlace;
import org.dsload.http.HttpReply;
import org.dsload.http.HttpTransport;

/**
 * dsload InfluxDB Write: POSTs line protocol to the write endpoint of a dsload InfluxDB Connection,
 * the bodies in turn, each request timed on its own in microseconds from its send (and, under an
 * arrival element, from its intended start) to InfluxDB's answer. In flight N keeps up to N
 * requests of the thread outstanding at once; a sample returns the requests that ended, one
 * results row per kind. Response code: the HTTP status (204); a request without an HTTP answer
 * has JMeter's {@code Non HTTP response code: <exception>}, status 0 in the summary.
 */
@TestElementMetadata(labelResource = "displayName")
public class InfluxDbWriteSampler extends HttpInFlightSampler {
    private static final long serialVersionUID = 1L;
    static final String BODY = "body";
    static final String WIRE = "wire";

    private String connection = "influxdb";
    private String body = "cpu,host=server01,region=uswest value=1";
    private String inFlight = "1";
    private String bytesCounted = BODY;
    private String responseDataLimit = "0";
    private String stopOnUnrecoverable = "true";

    private transient CompiledFields<Compiled> compiled;
    private transient long seq;
    /** The client of the latest sample, whose endpoint rows name. */
    private transient InfluxDbClient lastClient;
    private transient int thread;

    /** The fields compiled; a change of any makes a new call. */
    record Compiled(LineBodies bodies, int inFlight, boolean wire, int limit, boolean stop) {
    }

    /** What a request wrote, for its row and the gauges' count: where, its points, its body. */
    record Written(InfluxDbClient.Target target, int points, byte[] body) {
    }

    @Override
    protected SampleResult doSample(Entry entry) {
        Compiled c;
        InfluxDbClient client;
        try {
            c = compiled();
            client = SharedClients.lookup(connection, InfluxDbClient.class, "dsload InfluxDB Connection");
        } catch (ConfigException e) {
            return Results.refused(getName(), "POST /write", e);
        }
        lastClient = client;
        SamplerWindow<HttpPlace> current = call(c, client, c.inFlight(), client.http(), answers(c, client),
                place -> prepare(place, c, client));
        thread = JMeterContextService.getContext().getThreadNum() + 1;
        RequestsResult result = current.sample(this, getName());
        if (result == null) {
            return null; // no arrival left before the thread's end, or the test is stopping
        }
        show(result, result.requests(), c);
        return Unrecoverable.stopIfRow(result, InfluxDbErrors::unrecoverable, c.stop(), getName());
    }

    private void prepare(HttpPlace place, Compiled c, InfluxDbClient client) {
        long n = seq++;
        InfluxDbClient.Target target = client.next();
        byte[] lines = c.bodies().body(n, thread);
        place.prepare(target.write(), client.write(target, lines), new Written(target, c.bodies().points(n), lines), 1);
    }

    /** How a request's end becomes its outcome: on the client's I/O thread, so it does little. */
    private static HttpTransport.Answers answers(Compiled c, InfluxDbClient client) {
        return new HttpTransport.Answers() {
            @Override
            public Outcome answered(HttpPlace.Sent sent, HttpReply reply) {
                long out = c.wire() ? reply.wireSent() : reply.bodySent();
                long in = c.wire() ? reply.wireReceived() : reply.bodyReceived();
                if (reply.ok()) {
                    return Outcome.ok(Integer.toString(reply.status()), "written", out, in);
                }
                return InfluxDbErrors.refused(reply.status(), reply.reason(), server(sent), reply.text(), out, in);
            }

            @Override
            public Outcome failed(HttpPlace.Sent sent, Exception error) {
                return InfluxDbErrors.transport(error, server(sent), client.http().settings());
            }

            @Override
            public Outcome timedOut(HttpPlace.Sent sent, long timeoutMillis) {
                return InfluxDbErrors.timedOut(server(sent), timeoutMillis);
            }
        };
    }

    private static String server(HttpPlace.Sent sent) {
        return ((Written) sent.payload()).target().base().toString();
    }

    /**
     * The row's URL is its first request's (the gauges count writes by it); its request and answer
     * text only where someone will look: with a response data limit, or when the row failed.
     */
    private static void show(RequestsResult result, List<Completion> row, Compiled c) {
        if (!(row.get(0).detail() instanceof HttpEnd end)) {
            return;
        }
        Written written = (Written) end.sent().payload();
        result.setURL(written.target().url());
        if (c.limit() == 0 && result.isSuccessful()) {
            return;
        }
        int limit = Math.max(c.limit(), result.isSuccessful() ? 0 : 4096);
        String text = new String(written.body(), StandardCharsets.UTF_8);
        String more = BatchResult.andMore(row, "\n", "requests");
        result.setSamplerData("POST " + written.target().write() + "\n"
                + (text.length() > limit ? text.substring(0, limit) + " ..." : text) + more);
        if (end.reply() != null) {
            String answer = end.reply().text();
            Results.text(result, answer.length() > limit ? answer.substring(0, limit) + " ..." : answer);
        }
    }

    /**
     * Every row names the write endpoint, so that the gauges count it as writes: a timed-out or
     * cancelled request has no answer to tell its server, the first server's endpoint stands for it.
     * A connection that records its servers' gauges counts the row here, for every row reaches
     * this, those reported at the thread's end too.
     */
    @Override
    protected void finish(RequestsResult row) {
        InfluxDbClient client = lastClient;
        if (client != null) {
            row.setURL(client.targets().get(0).url());
            WriteCounter writes = client.gaugeWrites();
            if (writes != null) {
                writes.add(row);
                ConnectionCountedRows.add(row);
            }
        }
    }

    /** Points of the row's requests that InfluxDB accepted (2xx), for the gauges' cross-check. */
    static long acceptedPoints(RequestsResult result) {
        return HttpEnd.succeeded(result.requests(), Written.class).stream().mapToLong(Written::points).sum();
    }

    /** Points of the row's requests that timed out, sent with no answer: InfluxDB may have stored them. */
    static long unansweredPoints(RequestsResult result) {
        return HttpEnd.unanswered(result.requests(), Written.class, InfluxDbErrors::timedOut).stream()
                .mapToLong(Written::points).sum();
    }

    private Compiled compiled() {
        if (compiled == null) {
            compiled = new CompiledFields<>();
        }
        return compiled.get(new String[] {connection, body, inFlight, bytesCounted, responseDataLimit,
            stopOnUnrecoverable}, this::compile);
    }

    private Compiled compile() {
        Fields f = new Fields(InfluxDbWriteSampler.class, getName());
        f.required("connection", connection);
        LineBodies bodies;
        try {
            bodies = LineBodies.compile(body);
        } catch (IllegalArgumentException e) {
            throw f.error("body", e.getMessage());
        }
        int places = f.integer("inFlight", inFlight, 1, 100_000, 1);
        boolean wire = (f.text("bytesCounted", bytesCounted).isEmpty() ? BODY
                : f.choice("bytesCounted", bytesCounted, BODY, WIRE)).equals(WIRE);
        int limit = f.text("responseDataLimit", responseDataLimit).isEmpty() ? 0
                : f.integer("responseDataLimit", responseDataLimit, 0, Integer.MAX_VALUE);
        boolean stop = f.text("stopOnUnrecoverable", stopOnUnrecoverable).isEmpty()
                || f.flag("stopOnUnrecoverable", stopOnUnrecoverable);
        return new Compiled(bodies, places, wire, limit, stop);
    }

    public String getConnection() {
        return connection;
    }

    public void setConnection(String connection) {
        this.connection = connection;
    }

    public String getBody() {
        return body;
    }

    public void setBody(String body) {
        this.body = body;
    }

    public String getInFlight() {
        return inFlight;
    }

    public void setInFlight(String inFlight) {
        this.inFlight = inFlight;
    }

    public String getBytesCounted() {
        return bytesCounted;
    }

    public void setBytesCounted(String bytesCounted) {
        this.bytesCounted = bytesCounted;
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
