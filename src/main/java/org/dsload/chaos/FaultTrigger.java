package org.dsload.chaos;

import org.apache.jmeter.gui.TestElementMetadata;
import org.apache.jmeter.processor.PreProcessor;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testelement.AbstractTestElement;

/**
 * Fires a named trigger the first time a sampler in its scope is about to run (put it under that
 * sampler, or under a thread group to fire when the group's first sample starts). A Fault
 * Schedule row whose start is {@code on <name> [+ gap]} starts then. Costs one map lookup per
 * sample after the first.
 */
@TestElementMetadata(labelResource = "displayName")
public class FaultTrigger extends AbstractTestElement implements PreProcessor, TestBean {
    private static final long serialVersionUID = 1L;

    private String triggerName = "";

    @Override
    public void process() {
        String name = triggerName == null ? "" : triggerName.trim();
        if (!name.isEmpty() && FaultTriggers.fired(name) == null) {
            FaultTriggers.fire(name);
        }
    }

    public String getTriggerName() {
        return triggerName;
    }

    public void setTriggerName(String triggerName) {
        this.triggerName = triggerName;
    }
}
