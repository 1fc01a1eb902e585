package org.dsload.core;

import org.apache.jmeter.config.ConfigTestElement;
import org.apache.jmeter.samplers.AbstractSampler;
import org.apache.jmeter.testbeans.TestBean;

/**
 * A dsload sampler: it finds its client (connection, session, workload) by the variable name a
 * config element published, so no config element's fields are ever merged into its own.
 */
public abstract class ClientSampler extends AbstractSampler implements TestBean {
    private static final long serialVersionUID = 1L;

    @Override
    public boolean applies(ConfigTestElement configElement) {
        return false;
    }
}
