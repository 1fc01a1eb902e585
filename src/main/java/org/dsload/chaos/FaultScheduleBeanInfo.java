package org.dsload.chaos;

import org.dsload.core.DsloadBeanInfo;
import org.dsload.core.format.RunProperties;

public class FaultScheduleBeanInfo extends DsloadBeanInfo {

    public FaultScheduleBeanInfo() {
        super(FaultSchedule.class);
        createPropertyGroup("schedule", new String[] {"faults"});
        createPropertyGroup("targetGroup", new String[] {"targets"});
        createPropertyGroup("drivers", new String[] {"networkDriver", "processDriver", "proxyControl", "commandPrefix",
            "commandTemplates", "commandTimeout", "readyTimeout"});
        createPropertyGroup("run", new String[] {"engine", "endWithLoad", "endTestAfter"});

        multiline("faults", "cpu node1 percent=50 at 30s for 20s\ndelay node1 delay=200ms after 1 + 20s for 20s");

        multiline("targets", "node1: host=127.0.0.1 port=9042 pidfile=/var/run/cassandra.pid data=/var/lib/cassandra");
        choice("networkDriver", "proxy", "proxy", "command");
        choice("processDriver", "process", "process", "command");
        text("proxyControl", "${__P(fault_proxy,127.0.0.1:8474)}");
        text("commandPrefix", "");
        multiline("commandTemplates", "");
        text("commandTimeout", "60");
        text("readyTimeout", "240");
        text("engine", "${__P(" + RunProperties.FAULTS_ENGINE + ",)}");
        flag("endWithLoad", true);
        text("endTestAfter", "");
    }
}
