package org.dsload.cassandra;

import org.dsload.core.DsloadBeanInfo;

public class YcsbSamplerBeanInfo extends DsloadBeanInfo {

    public YcsbSamplerBeanInfo() {
        super(YcsbSampler.class);
        createPropertyGroup("target", new String[] {"session", "workload", "phase"});
        text("session", "cassandra");
        text("workload", "ycsb");
        choice("phase", YcsbSampler.RUN, "load", YcsbSampler.RUN);
    }
}
