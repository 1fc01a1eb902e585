package org.dsload.guidriver;

import org.apache.jmeter.config.ConfigTestElement;
import org.apache.jmeter.testbeans.TestBean;

/**
 * An element whose resources lack a field's label, tooltip and group title, shown in the GUI to
 * prove that the driver sees the marks JMeter leaves then.
 */
public class UnlabelledBean extends ConfigTestElement implements TestBean {
    private static final long serialVersionUID = 1L;

    private String hostsList = "";

    public String getHostsList() {
        return hostsList;
    }

    public void setHostsList(String hostsList) {
        this.hostsList = hostsList;
    }
}
