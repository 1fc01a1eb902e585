package org.dsload.cassandra;

import org.dsload.core.DsloadBeanInfo;

public class CassandraSamplerBeanInfo extends DsloadBeanInfo {

    public CassandraSamplerBeanInfo() {
        super(CassandraSampler.class);
        createPropertyGroup("target", new String[] {"session"});
        createPropertyGroup("request", new String[] {"mode", "prepare", "statement", "bindValues", "batchSize"});
        createPropertyGroup("options", new String[] {"consistency", "serialConsistency", "idempotent", "pageSize",
            "readAllPages", "timeout", "inFlight", "concurrent"});
        createPropertyGroup("response", new String[] {"responseDataLimit", "stopOnUnrecoverable"});

        text("session", "cassandra");
        choice("mode", "single", StatementPlan.Mode.labels());
        flag("prepare", true);
        multiline("statement", "SELECT release_version FROM system.local");
        multiline("bindValues", "");
        text("batchSize", "1");
        String[] levels = new String[CassandraConnection.CONSISTENCY_LEVELS.length + 1];
        levels[0] = CqlSettings.DEFAULT;
        System.arraycopy(CassandraConnection.CONSISTENCY_LEVELS, 0, levels, 1, CassandraConnection.CONSISTENCY_LEVELS.length);
        choice("consistency", CqlSettings.DEFAULT, levels);
        choice("serialConsistency", CqlSettings.DEFAULT, CqlSettings.DEFAULT, "SERIAL", "LOCAL_SERIAL");
        choice("idempotent", CqlSettings.DEFAULT, CqlSettings.DEFAULT, "true", "false");
        text("pageSize", "0");
        flag("readAllPages", true);
        text("timeout", "0");
        text("inFlight", "1");
        text("concurrent", "1");
        text("responseDataLimit", "1024");
        flag("stopOnUnrecoverable", true);
    }
}
