package org.dsload.arrivals;

import org.dsload.core.DsloadBeanInfo;

public class PhaseBarrierBeanInfo extends DsloadBeanInfo {

    public PhaseBarrierBeanInfo() {
        super(PhaseBarrier.class);
        createPropertyGroup("waiting", new String[] {"timeoutSeconds"});
        text("timeoutSeconds", "300");
    }
}
