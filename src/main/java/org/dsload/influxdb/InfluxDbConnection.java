package org.dsload.influxdb;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

import org.apache.jmeter.gui.TestElementMetadata;
import org.dsload.core.ClientConfigElement;
import org.dsload.core.Fields;
import org.dsload.core.Secrets;
import org.dsload.http.AsyncHttp;
import org.dsload.http.StartCheck;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * dsload InfluxDB Connection: one async HTTP client (Apache HttpClient 5, the copy in JMeter's lib)
 * over one or more InfluxDB servers, built at test start and shared by every thread, and the write
 * endpoint: {@code /write?db=} of the 1.x API (user and password as basic authentication), or
 * {@code /api/v2/write?org=&bucket=} of the 2.x API (a token). With the 1.x API it records its
 * servers' {@code /debug/vars} while the test runs, and counts the writes of its samplers for the
 * cross-check against the servers' counts.
 */
@TestElementMetadata(labelResource = "displayName")
public class InfluxDbConnection extends ClientConfigElement<InfluxDbClient> {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(InfluxDbConnection.class);
    static final String V1 = "1.x";
    static final String V2 = "2.x";
    /** Connections opened at start by default, and in plans saved before the field existed. */
    static final int CONNECTIONS_AT_START = 16;

    private String urls = "http://127.0.0.1:8086";
    private String api = V1;
    private String database = "test";
    private String user = "";
    private String password = "";
    private String organization = "";
    private String bucket = "";
    private String token = "";
    private String precision = "ns";
    private String gzip = "false";
    private String connectTimeout = "2000";
    private String responseTimeout = "30000";
    private String maxConnections = "100";
    private String connectionsAtStart = Integer.toString(CONNECTIONS_AT_START);
    private String checkOnStart = "true";
    private String recordGauges = "true";

    @Override
    protected InfluxDbClient open(Fields f) {
        List<URI> bases = f.baseUrls("urls", urls);
        boolean v2 = f.choice("api", api, V1, V2).equals(V2);
        String unit = f.choice("precision", precision, "ns", "us", "ms", "s");
        String path;
        String authorization;
        String name = "";
        String secret = "";
        if (v2) {
            String org = f.required("organization", organization);
            String into = f.required("bucket", bucket);
            String apiToken = Secrets.resolve(f, "token", token);
            if (apiToken.isEmpty()) {
                throw f.error("token", "must not be empty with API 2.x: give the token, env:NAME or file:/path");
            }
            path = "api/v2/write?org=" + encode(org) + "&bucket=" + encode(into) + (unit.equals("ns") ? "" : "&precision=" + unit);
            authorization = "Token " + apiToken;
        } else {
            String db = f.required("database", database);
            // 1.x names nanoseconds n and microseconds u
            String v1Unit = unit.equals("us") ? "u" : unit;
            path = "write?db=" + encode(db) + (unit.equals("ns") ? "" : "&precision=" + v1Unit);
            name = f.text("user", user);
            secret = Secrets.resolve(f, "password", password);
            authorization = name.isEmpty() ? null : "Basic " + Base64.getEncoder()
                    .encodeToString((name + ":" + secret).getBytes(StandardCharsets.UTF_8));
        }
        int connect = f.integer("connectTimeout", connectTimeout, 1, Integer.MAX_VALUE);
        int response = f.integer("responseTimeout", responseTimeout, 1, Integer.MAX_VALUE);
        int connections = f.integer("maxConnections", maxConnections, 1, 100_000);
        int atStart = f.integer("connectionsAtStart", connectionsAtStart, 0, 100_000, CONNECTIONS_AT_START);
        boolean compress = f.flag("gzip", gzip);
        boolean check = f.flag("checkOnStart", checkOnStart);
        // a plan saved before the field existed records them, as a new element does
        boolean gauges = f.text("recordGauges", recordGauges).isEmpty() || f.flag("recordGauges", recordGauges);
        AsyncHttp.Settings settings = new AsyncHttp.Settings(connections, bases.size(), connect, response, true);
        String describe = "InfluxDB " + (v2 ? V2 : V1) + " at " + bases + ", Max connections per server "
                + connections + ", connect timeout " + connect + " ms, response timeout " + response + " ms";
        InfluxDbClient client = new InfluxDbClient(bases, path, authorization, compress, settings, describe);
        if (check) {
            // opened before the first arrival, so that the first writes do not wait for TCP connects
            StartCheck.reach(f, client, "InfluxDB", "Check URLs and that InfluxDB is up", () -> {
                // the first round of pings is the check: one ping when none are asked for
                client.open(Math.max(1, atStart), (long) connect + response);
            });
        }
        if (gauges && v2) {
            log.info("dsload: {}: InfluxDB 2.x has no /debug/vars: server gauges are recorded with the 1.x API only",
                    f.element());
        } else if (gauges) {
            WriteCounter writes = new WriteCounter();
            AutoCloseable lease = InfluxDbGauges.record(f.element(), bases, name, secret, writes);
            if (lease != null) {
                client.recordGauges(lease, writes);
            }
        }
        return client;
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    public String getUrls() {
        return urls;
    }

    public void setUrls(String urls) {
        this.urls = urls;
    }

    public String getApi() {
        return api;
    }

    public void setApi(String api) {
        this.api = api;
    }

    public String getDatabase() {
        return database;
    }

    public void setDatabase(String database) {
        this.database = database;
    }

    public String getUser() {
        return user;
    }

    public void setUser(String user) {
        this.user = user;
    }

    public String getPassword() {
        return password;
    }

    public void setPassword(String password) {
        this.password = password;
    }

    public String getOrganization() {
        return organization;
    }

    public void setOrganization(String organization) {
        this.organization = organization;
    }

    public String getBucket() {
        return bucket;
    }

    public void setBucket(String bucket) {
        this.bucket = bucket;
    }

    public String getToken() {
        return token;
    }

    public void setToken(String token) {
        this.token = token;
    }

    public String getPrecision() {
        return precision;
    }

    public void setPrecision(String precision) {
        this.precision = precision;
    }

    public String getGzip() {
        return gzip;
    }

    public void setGzip(String gzip) {
        this.gzip = gzip;
    }

    public String getConnectTimeout() {
        return connectTimeout;
    }

    public void setConnectTimeout(String connectTimeout) {
        this.connectTimeout = connectTimeout;
    }

    public String getResponseTimeout() {
        return responseTimeout;
    }

    public void setResponseTimeout(String responseTimeout) {
        this.responseTimeout = responseTimeout;
    }

    public String getMaxConnections() {
        return maxConnections;
    }

    public void setMaxConnections(String maxConnections) {
        this.maxConnections = maxConnections;
    }

    public String getConnectionsAtStart() {
        return connectionsAtStart;
    }

    public void setConnectionsAtStart(String connectionsAtStart) {
        this.connectionsAtStart = connectionsAtStart;
    }

    public String getCheckOnStart() {
        return checkOnStart;
    }

    public void setCheckOnStart(String checkOnStart) {
        this.checkOnStart = checkOnStart;
    }

    public String getRecordGauges() {
        return recordGauges;
    }

    public void setRecordGauges(String recordGauges) {
        this.recordGauges = recordGauges;
    }
}
