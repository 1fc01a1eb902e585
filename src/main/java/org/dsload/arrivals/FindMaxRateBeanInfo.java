package org.dsload.arrivals;

import org.dsload.core.DsloadBeanInfo;

public class FindMaxRateBeanInfo extends DsloadBeanInfo {

    public FindMaxRateBeanInfo() {
        super(FindMaxRate.class);
        createPropertyGroup("search", new String[] {"rateProperty", "startRate", "settleSeconds", "stepSeconds", "maxSteps",
            "resolutionPercent", "repeatAnswer"});
        createPropertyGroup("limits", new String[] {"percentile", "maxLatencyMillis", "maxErrorPercent", "maxLatePercent",
            "maxGauges", "labels"});
        text("rateProperty", "rate");
        text("startRate", "100");
        text("settleSeconds", "5");
        text("stepSeconds", "10");
        text("maxSteps", "12");
        text("resolutionPercent", "10");
        text("repeatAnswer", "1");
        text("percentile", "99");
        text("maxLatencyMillis", "");
        text("maxErrorPercent", "1");
        text("maxLatePercent", "");
        text("maxGauges", "");
        text("labels", "");
    }
}
