package org.dsload.kairosdb;

import org.dsload.core.DsloadBeanInfo;

public class KairosDbQuerySamplerBeanInfo extends DsloadBeanInfo {

    public KairosDbQuerySamplerBeanInfo() {
        super(KairosDbQuerySampler.class);
        createPropertyGroup("target", new String[] {"connection", "inFlight"});
        createPropertyGroup("request", new String[] {"metrics", "metricsPerQuery", "start", "end", "tags", "groupBy",
            "aggregator", "sampling", "limit"});
        createPropertyGroup("custom", new String[] {"query"});
        createPropertyGroup("response", new String[] {"emptyIsFailure", "responseDataLimit", "stopOnUnrecoverable"});

        text("connection", "kairosdb");
        text("metrics", "dsload.metric.#{m}");
        text("metricsPerQuery", "10");
        text("start", "15 minutes");
        text("end", "");
        text("tags", "");
        text("groupBy", "");
        choice("aggregator", "avg", QuerySettings.AGGREGATORS.toArray(new String[0]));
        text("sampling", "1 minutes");
        text("limit", "");
        multiline("query", "");
        flag("emptyIsFailure", false);
        text("responseDataLimit", "0");
        text("inFlight", "1");
        flag("stopOnUnrecoverable", true);
    }
}
