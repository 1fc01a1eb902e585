package org.dsload.generator;

import org.dsload.core.DsloadBeanInfo;

public class GeneratorMetricsElementBeanInfo extends DsloadBeanInfo {

    public GeneratorMetricsElementBeanInfo() {
        super(GeneratorMetricsElement.class);
    }
}
