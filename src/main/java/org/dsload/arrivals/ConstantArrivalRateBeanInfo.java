package org.dsload.arrivals;

import org.dsload.core.DsloadBeanInfo;

public class ConstantArrivalRateBeanInfo extends DsloadBeanInfo {

    public ConstantArrivalRateBeanInfo() {
        super(ConstantArrivalRate.class);
        createPropertyGroup("schedule", new String[] {"rate", "dropAfter"});
        text("rate", "100");
        text("dropAfter", "0");
    }
}
