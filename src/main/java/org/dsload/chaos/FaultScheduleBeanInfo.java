package org.dsload.chaos;

import java.beans.PropertyDescriptor;
import java.util.ArrayList;

import org.apache.jmeter.testbeans.gui.TableEditor;
import org.dsload.core.DsloadBeanInfo;

public class FaultScheduleBeanInfo extends DsloadBeanInfo {

    public FaultScheduleBeanInfo() {
        super(FaultSchedule.class);
        createPropertyGroup("schedule", new String[] {"faults"});
        createPropertyGroup("targetGroup", new String[] {"targets"});
        createPropertyGroup("drivers", new String[] {"networkDriver", "processDriver", "proxyControl", "commandPrefix",
            "commandTemplates", "commandTimeout", "readyTimeout"});
        createPropertyGroup("run", new String[] {"engine", "endWithLoad"});

        PropertyDescriptor faults = property("faults");
        faults.setPropertyEditorClass(TableEditor.class);
        faults.setValue(TableEditor.CLASSNAME, FaultRow.class.getName());
        faults.setValue(TableEditor.HEADERS, new String[] {"Kind", "Target", "Parameters", "Start", "Duration"});
        faults.setValue(TableEditor.OBJECT_PROPERTIES, new String[] {FaultRow.KIND, FaultRow.TARGET, FaultRow.PARAMETERS,
            FaultRow.START, FaultRow.DURATION});
        faults.setValue(NOT_UNDEFINED, Boolean.TRUE);
        faults.setValue(DEFAULT, new ArrayList<>());
        faults.setValue(MULTILINE, Boolean.TRUE);

        multiline("targets", "node1: host=127.0.0.1 port=9042 pidfile=/var/run/cassandra.pid data=/var/lib/cassandra");
        choice("networkDriver", "proxy", "proxy", "command");
        choice("processDriver", "process", "process", "command");
        text("proxyControl", "${__P(fault_proxy,127.0.0.1:8474)}");
        text("commandPrefix", "");
        multiline("commandTemplates", "");
        text("commandTimeout", "60");
        text("readyTimeout", "240");
        text("engine", "${__P(" + ScheduleRun.ENGINE_PROPERTY + ",)}");
        flag("endWithLoad", true);
    }
}
