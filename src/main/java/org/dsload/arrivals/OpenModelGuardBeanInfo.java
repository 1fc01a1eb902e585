package org.dsload.arrivals;

import org.dsload.core.DsloadBeanInfo;

public class OpenModelGuardBeanInfo extends DsloadBeanInfo {

    public OpenModelGuardBeanInfo() {
        super(OpenModelGuard.class);
        createPropertyGroup("limits", new String[] {"maxConcurrent"});
        text("maxConcurrent", "200");
    }
}
