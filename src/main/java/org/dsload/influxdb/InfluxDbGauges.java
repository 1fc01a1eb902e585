package org.dsload.influxdb;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import org.apache.jmeter.config.ConfigElement;
import org.apache.jmeter.engine.util.NoThreadClone;
import org.apache.jmeter.gui.TestElementMetadata;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleListener;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestStateListener;
import org.dsload.core.ConfigException;
import org.dsload.core.EngineServices;
import org.dsload.core.Fields;
import org.dsload.core.Secrets;
import org.dsload.gauges.GaugeRecording;
import org.dsload.gauges.GaugeSource;
import org.dsload.gauges.HttpGauges;
import org.dsload.influxdb.report.InfluxDbServerSection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * dsload InfluxDB Gauges: records an InfluxDB 1.x server's {@code /debug/vars} each second while
 * the test runs, and counts the writes of the samplers in its scope (JMeter's HTTP Request to
 * {@code /write}, and dsload InfluxDB Write unless its Connection counts them for gauges of its
 * own) for the cross-check against the server's own counts. It serves plans that write with
 * JMeter's HTTP sampler, which have no dsload connection element, and servers whose
 * {@code /debug/vars} needs other credentials than the writes. One instance serves all threads; a
 * field that cannot work is logged and the load runs without gauges.
 */
@TestElementMetadata(labelResource = "displayName")
public class InfluxDbGauges extends AbstractTestElement
        implements ConfigElement, TestStateListener, SampleListener, TestBean, NoThreadClone {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(InfluxDbGauges.class);
    /** A poll must fit into its second. */
    static final Duration POLL_TIMEOUT = Duration.ofMillis(900);

    private String urls = "http://127.0.0.1:8086";
    private String user = "";
    private String password = "";
    private String recordGauges = "true";

    private transient volatile WriteCounter writes;
    private transient AutoCloseable gauges;

    @Override
    public void testStarted() {
        start(null);
    }

    @Override
    public void testStarted(String host) {
        start(host);
    }

    private synchronized void start(String host) {
        EngineServices.acquire(this, host);
        stop();
        Fields f = new Fields(getClass(), getName());
        try {
            if (!f.flag("recordGauges", recordGauges)) {
                return;
            }
            List<URI> servers = f.baseUrls("urls", urls);
            String userName = f.text("user", user);
            String secret = Secrets.resolve(f, "password", password);
            WriteCounter counter = new WriteCounter();
            gauges = record(f.element(), servers, userName, secret, counter);
            writes = gauges == null ? null : counter;
            if (writes != null) {
                ConnectionCountedRows.watch();
            }
        } catch (ConfigException e) {
            log.error("dsload: {}; InfluxDB server gauges are not recorded", e.getMessage());
            System.err.println("dsload: " + e.getMessage() + "; InfluxDB server gauges are not recorded"); // NOSONAR
        }
    }

    /**
     * Records the {@code /debug/vars} of InfluxDB 1.x servers while a test runs, over an HTTP client
     * of its own (never the load's pool), with the writes an element counted for the cross-check:
     * for this element and for an InfluxDB Connection that records gauges.
     *
     * @return the lease to close after the load, or null when nothing is recorded
     */
    static AutoCloseable record(String element, List<URI> servers, String user, String password, WriteCounter writes) {
        HttpGauges http = new HttpGauges(user, password, POLL_TIMEOUT);
        return GaugeRecording.start(InfluxDbServerSection.FILE, element, InfluxDbClient.class,
                () -> servers.stream().<GaugeSource>map(s -> new InfluxDbVarsSource(s, http)).toList(), writes::snapshot);
    }

    @Override
    public void sampleOccurred(SampleEvent event) {
        WriteCounter counter = writes;
        if (counter != null && !ConnectionCountedRows.contains(event.getResult())) {
            counter.add(event.getResult());
        }
    }

    @Override
    public void testEnded() {
        synchronized (this) {
            stop();
        }
        EngineServices.release(this);
    }

    @Override
    public void testEnded(String host) {
        testEnded();
    }

    private void stop() {
        if (writes != null) {
            ConnectionCountedRows.unwatch();
        }
        writes = null;
        if (gauges != null) {
            try {
                gauges.close();
            } catch (Exception e) {
                log.debug("dsload: stopping the InfluxDB gauges: {}", e.toString());
            }
            gauges = null;
        }
    }

    @Override
    public void sampleStarted(SampleEvent event) {
        // only finished samples count
    }

    @Override
    public void sampleStopped(SampleEvent event) {
        // only finished samples count
    }

    @Override
    public void addConfigElement(ConfigElement config) {
        // nothing to merge
    }

    @Override
    public boolean expectsModification() {
        return false;
    }

    public String getUrls() {
        return urls;
    }

    public void setUrls(String urls) {
        this.urls = urls;
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

    public String getRecordGauges() {
        return recordGauges;
    }

    public void setRecordGauges(String recordGauges) {
        this.recordGauges = recordGauges;
    }
}
