package org.dsload.kairosdb;

import org.dsload.core.DsloadBeanInfo;

public class KairosDbWriteSamplerBeanInfo extends DsloadBeanInfo {

    public KairosDbWriteSamplerBeanInfo() {
        super(KairosDbWriteSampler.class);
        createPropertyGroup("target", new String[] {"connection", "inFlight", "mode", "phase"});
        createPropertyGroup("batch", new String[] {"metricName", "tags", "metricsPerRequest", "metricsPerResource",
            "pointsPerMetric", "timestamps", "interval", "values", "ttl"});
        createPropertyGroup("template", new String[] {"body"});
        createPropertyGroup("response", new String[] {"responseDataLimit", "stopOnUnrecoverable"});

        text("connection", "kairosdb");
        choice("mode", KairosDbWriteSampler.GENERATED, KairosDbWriteSampler.GENERATED, KairosDbWriteSampler.TEMPLATE);
        choice("phase", KairosDbWriteSampler.MEASURED, KairosDbWriteSampler.MEASURED, KairosDbWriteSampler.SETUP);
        text("metricName", "dsload.metric.#{m}");
        text("tags", "host=res-#{engine}-#{thread}, dc=dc1");
        text("metricsPerRequest", "25");
        text("metricsPerResource", "100");
        text("pointsPerMetric", "1");
        choice("timestamps", WriteSettings.NOW, WriteSettings.NOW, WriteSettings.SIMULATED);
        text("interval", "15");
        text("values", "random:0-100");
        text("ttl", "0");
        multiline("body", "");
        text("responseDataLimit", "0");
        text("inFlight", "1");
        flag("stopOnUnrecoverable", true);
    }
}
