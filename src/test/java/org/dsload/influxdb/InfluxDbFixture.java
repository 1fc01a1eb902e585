package org.dsload.influxdb;

import org.dsload.targets.EmbeddedInfluxDb;
import org.dsload.testing.JMeterRuntime;
import org.dsload.testing.Prerequisites;

/** Builds InfluxDB elements the way a plan would. */
final class InfluxDbFixture {
    /** S2's two bodies; the second carries two points, so that points and requests differ. */
    static final String TWO_BODIES = "cpu,host=server01,region=uswest value=1\n---\n"
            + "cpu,host=server02,region=useast value=2\ncpu,host=server03,region=useast value=3";

    private InfluxDbFixture() {
    }

    static void requireInfluxd() {
        if (EmbeddedInfluxDb.binary().isEmpty()) {
            Prerequisites.missing(EmbeddedInfluxDb.missingMessage(), EmbeddedInfluxDb.REQUIRED_ENV, "true");
        }
    }

    static InfluxDbConnection connection(String url) {
        JMeterRuntime.init();
        InfluxDbConnection c = new InfluxDbConnection();
        c.setName("influxdb");
        c.setVariableName("influxdb");
        c.setUrls(url);
        return c;
    }

    static InfluxDbWriteSampler write(String body, int inFlight) {
        JMeterRuntime.init();
        InfluxDbWriteSampler w = new InfluxDbWriteSampler();
        w.setName("write");
        w.setConnection("influxdb");
        w.setBody(body);
        w.setInFlight(Integer.toString(inFlight));
        return w;
    }

    static String url(EmbeddedInfluxDb influx) {
        return "http://" + influx.host() + ":" + influx.port();
    }
}
