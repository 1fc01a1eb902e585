package org.dsload.kairosdb;

import java.net.URI;
import java.util.List;

import org.apache.jmeter.gui.TestElementMetadata;
import org.dsload.core.ClientConfigElement;
import org.dsload.core.Fields;
import org.dsload.core.Secrets;
import org.dsload.http.StartCheck;

/**
 * KairosDB Connection: one pooled HTTP client over one or more KairosDB nodes, built at test
 * start and shared by every thread; at test end, before it closes, the points its write samplers
 * reported are counted back in KairosDB ({@link EndOfTest}).
 */
@TestElementMetadata(labelResource = "displayName")
public class KairosDbConnection extends ClientConfigElement<KairosDbClient> {
    private static final long serialVersionUID = 1L;

    private String urls = "http://127.0.0.1:8080";
    private String maxConnections = "200";
    private String keepAlive = "true";
    private String gzip = "false";
    private String connectTimeout = "2000";
    private String responseTimeout = "30000";
    private String poolTimeout = "10000";
    private String user = "";
    private String password = "";
    private String checkOnStart = "true";
    private String crossCheck = "true";
    private String crossCheckWait = "30";
    private String recordGauges = "true";

    /** The client of the running test, kept for the count at its end (clones share the original's). */
    private transient KairosDbClient current;
    private transient EndOfTest.Settings endSettings;
    private transient CrossCheck.Result lastCrossCheck;
    /** KairosDB's own metrics recorded while the test runs, or null. */
    private transient AutoCloseable gauges;

    @Override
    protected KairosDbClient open(Fields f) {
        List<URI> nodes = nodes(f);
        int connections = f.integer("maxConnections", maxConnections, 1, 100_000);
        KairosDbClient.ClientSettings settings = new KairosDbClient.ClientSettings(connections,
                f.flag("keepAlive", keepAlive), f.flag("gzip", gzip),
                f.integer("connectTimeout", connectTimeout, 1, Integer.MAX_VALUE),
                f.integer("responseTimeout", responseTimeout, 1, Integer.MAX_VALUE),
                f.integer("poolTimeout", poolTimeout, 0, Integer.MAX_VALUE));
        String userName = f.text("user", user);
        String secret = Secrets.resolve(f, "password", password);
        boolean check = f.flag("checkOnStart", checkOnStart);
        boolean recordServerGauges = f.flag("recordGauges", recordGauges);
        endSettings = new EndOfTest.Settings(f.flag("crossCheck", crossCheck),
                f.longValue("crossCheckWait", crossCheckWait, 0, 3600) * 1000, getName());
        KairosDbClient client = new KairosDbClient(nodes, settings, userName, secret);
        if (check) {
            StartCheck.reach(f, client, "KairosDB", "Check URLs, credentials and that KairosDB is up",
                    () -> Checks.versions(client));
        }
        current = client;
        gauges = recordServerGauges ? KairosDbGauges.start(f.element(), nodes, userName, secret) : null;
        return client;
    }

    private List<URI> nodes(Fields f) {
        return f.baseUrls("urls", urls);
    }

    @Override
    public void testEnded() {
        long ended = System.currentTimeMillis();
        KairosDbClient client = current;
        current = null;
        if (client != null && endSettings != null) {
            lastCrossCheck = EndOfTest.run(client, endSettings);
        }
        stopGauges(ended);
        super.testEnded();
    }

    /**
     * Once KairosDB's own metrics of the load's last second can be read: they reach its datastore
     * through its queue a moment later, and the figures its reporter sums per period are stamped
     * with the next second (the count at test end usually took that long already).
     */
    private void stopGauges(long testEnded) {
        AutoCloseable lease = gauges;
        gauges = null;
        if (lease == null) {
            return;
        }
        long wait = testEnded + KairosDbMetricsSource.LAG_MILLIS + 2000 - System.currentTimeMillis();
        try {
            if (wait > 0) {
                Thread.sleep(wait);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            lease.close();
        } catch (Exception e) {
            // the gauges are a side figure
        }
    }

    /** The count at the end of the last test, or null when nothing was written or read. */
    CrossCheck.Result lastCrossCheck() {
        return lastCrossCheck;
    }

    @Override
    public Object clone() {
        KairosDbConnection copy = (KairosDbConnection) super.clone();
        copy.current = current;
        copy.endSettings = endSettings;
        copy.gauges = gauges;
        return copy;
    }

    public String getUrls() {
        return urls;
    }

    public void setUrls(String urls) {
        this.urls = urls;
    }

    public String getMaxConnections() {
        return maxConnections;
    }

    public void setMaxConnections(String maxConnections) {
        this.maxConnections = maxConnections;
    }

    public String getKeepAlive() {
        return keepAlive;
    }

    public void setKeepAlive(String keepAlive) {
        this.keepAlive = keepAlive;
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

    public String getPoolTimeout() {
        return poolTimeout;
    }

    public void setPoolTimeout(String poolTimeout) {
        this.poolTimeout = poolTimeout;
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

    public String getCheckOnStart() {
        return checkOnStart;
    }

    public void setCheckOnStart(String checkOnStart) {
        this.checkOnStart = checkOnStart;
    }

    public String getCrossCheck() {
        return crossCheck;
    }

    public void setCrossCheck(String crossCheck) {
        this.crossCheck = crossCheck;
    }

    public String getCrossCheckWait() {
        return crossCheckWait;
    }

    public void setCrossCheckWait(String crossCheckWait) {
        this.crossCheckWait = crossCheckWait;
    }

    public String getRecordGauges() {
        return recordGauges;
    }

    public void setRecordGauges(String recordGauges) {
        this.recordGauges = recordGauges;
    }
}
