package org.dsload.cassandra;

import org.dsload.core.DsloadBeanInfo;

public class YcsbSamplerBeanInfo extends DsloadBeanInfo {

    public YcsbSamplerBeanInfo() {
        super(YcsbSampler.class);
        createPropertyGroup("target", new String[] {"binding", "session", "workload", "phase"});
        createPropertyGroup("errors", new String[] {"stopOnUnrecoverable"});
        choice("binding", YcsbSampler.CASSANDRA, YcsbSampler.CASSANDRA, YcsbSampler.REDIS);
        text("session", "cassandra");
        text("workload", "ycsb");
        choice("phase", YcsbSampler.RUN, "load", YcsbSampler.RUN);
        flag("stopOnUnrecoverable", true);
    }
}
