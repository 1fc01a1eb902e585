package org.dsload.zookeeper;

import org.dsload.core.DsloadBeanInfo;

public class CapacityStepsBeanInfo extends DsloadBeanInfo {

    public CapacityStepsBeanInfo() {
        super(CapacitySteps.class);
        createPropertyGroup("steps", new String[] {"unit", "unitsProperty", "startUnits", "stepUnits", "maxUnits",
            "stepSeconds"});
        createPropertyGroup("bounds", new String[] {"maxErrorPercent", "maxP99Millis", "maxGauges", "labels"});
        text("unit", "domains");
        text("unitsProperty", "active_units");
        text("startUnits", "5");
        text("stepUnits", "5");
        text("maxUnits", "20");
        text("stepSeconds", "60");
        text("maxErrorPercent", "1");
        text("maxP99Millis", "500");
        text("maxGauges", "");
        text("labels", "");
    }
}
