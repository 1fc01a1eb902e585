package org.dsload.ycsb;

import org.dsload.core.DsloadBeanInfo;

public class YcsbSamplerBeanInfo extends DsloadBeanInfo {

    public YcsbSamplerBeanInfo() {
        super(YcsbSampler.class);
        createPropertyGroup("target", new String[] {"binding", "session", "bindingSettings", "workload", "phase",
            "inFlight"});
        createPropertyGroup("errors", new String[] {"stopOnUnrecoverable"});
        // the bindings registered in the plugin's jar
        choice("binding", YcsbSampler.CASSANDRA, YcsbBindingProvider.names());
        text("session", "cassandra");
        text("bindingSettings", "");
        text("workload", "ycsb");
        choice("phase", YcsbSampler.RUN, "load", YcsbSampler.RUN);
        text("inFlight", "1");
        flag("stopOnUnrecoverable", true);
    }
}
