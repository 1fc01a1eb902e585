package org.dsload.cassandra;

import org.dsload.core.DsloadBeanInfo;

public class CassandraYcsbSettingsBeanInfo extends DsloadBeanInfo {

    public CassandraYcsbSettingsBeanInfo() {
        super(CassandraYcsbSettings.class);
        createPropertyGroup("variable", new String[] {"variableName"});
        createPropertyGroup("schema", new String[] {"keyspace", "createSchema", "replication"});
        createPropertyGroup("consistency", new String[] {"readConsistency", "writeConsistency"});
        text("variableName", "ycsb_cassandra");
        text("keyspace", "ycsb");
        flag("createSchema", true);
        text("replication", CassandraYcsbSettings.DEFAULT_REPLICATION);
        choice("readConsistency", "QUORUM", CassandraConnection.CONSISTENCY_LEVELS);
        choice("writeConsistency", "QUORUM", CassandraConnection.CONSISTENCY_LEVELS);
    }
}
