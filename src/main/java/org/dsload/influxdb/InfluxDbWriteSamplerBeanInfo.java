package org.dsload.influxdb;

import org.dsload.core.DsloadBeanInfo;

public class InfluxDbWriteSamplerBeanInfo extends DsloadBeanInfo {

    public InfluxDbWriteSamplerBeanInfo() {
        super(InfluxDbWriteSampler.class);
        createPropertyGroup("target", new String[] {"connection"});
        createPropertyGroup("request", new String[] {"body", "inFlight"});
        createPropertyGroup("response", new String[] {"bytesCounted", "responseDataLimit", "stopOnUnrecoverable"});

        text("connection", "influxdb");
        multiline("body", "cpu,host=server01,region=uswest value=1");
        text("inFlight", "1");
        choice("bytesCounted", InfluxDbWriteSampler.BODY, InfluxDbWriteSampler.BODY, InfluxDbWriteSampler.WIRE);
        text("responseDataLimit", "0");
        flag("stopOnUnrecoverable", true);
    }
}
