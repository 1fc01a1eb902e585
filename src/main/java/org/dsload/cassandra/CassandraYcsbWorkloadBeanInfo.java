package org.dsload.cassandra;

import org.dsload.ycsb.YcsbWorkloadBeanInfo;

/** The form of the YCSB Workload of older plans: the workload's fields, then the cassandra binding's. */
@SuppressWarnings("deprecation") // describes the element kept for older plans
public class CassandraYcsbWorkloadBeanInfo extends YcsbWorkloadBeanInfo {

    public CassandraYcsbWorkloadBeanInfo() {
        super(CassandraYcsbWorkload.class);
        getBeanDescriptor().setHidden(true); // not in the Add menus: new plans use YCSB Workload and Cassandra Settings
        createPropertyGroup("cassandra", new String[] {"keyspace", "createSchema", "replication", "readConsistency",
            "writeConsistency"});
        text("keyspace", "ycsb");
        flag("createSchema", true);
        text("replication", CassandraYcsbSettings.DEFAULT_REPLICATION);
        choice("readConsistency", "QUORUM", CassandraConnection.CONSISTENCY_LEVELS);
        choice("writeConsistency", "QUORUM", CassandraConnection.CONSISTENCY_LEVELS);
    }
}
