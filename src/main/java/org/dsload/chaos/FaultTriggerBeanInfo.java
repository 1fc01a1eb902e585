package org.dsload.chaos;

import org.dsload.core.DsloadBeanInfo;

public class FaultTriggerBeanInfo extends DsloadBeanInfo {

    public FaultTriggerBeanInfo() {
        super(FaultTrigger.class);
        createPropertyGroup("trigger", new String[] {"triggerName"});
        text("triggerName", "load-started");
    }
}
