package org.dsload.arrivals;

import org.dsload.core.DsloadBeanInfo;

public class ConstantArrivalRateBeanInfo extends DsloadBeanInfo {

    public ConstantArrivalRateBeanInfo() {
        super(ConstantArrivalRate.class);
        createPropertyGroup("schedule", new String[] {"rate", "warmUp", "rampUp", "dropAfter"});
        text("rate", "100");
        text("warmUp", "0");
        text("rampUp", "0");
        text("dropAfter", "0");
    }
}
