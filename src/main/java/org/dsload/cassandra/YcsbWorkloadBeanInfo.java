package org.dsload.cassandra;

import org.dsload.core.DsloadBeanInfo;
import org.dsload.ycsb.WorkloadSpec;

public class YcsbWorkloadBeanInfo extends DsloadBeanInfo {

    public YcsbWorkloadBeanInfo() {
        super(YcsbWorkload.class);
        createPropertyGroup("variable", new String[] {"variableName"});
        createPropertyGroup("schema", new String[] {"keyspace", "table", "createSchema", "replication", "fieldCount"});
        createPropertyGroup("records", new String[] {"workload", "recordCount", "insertStart", "insertCount",
            "operationCount", "fieldLength", "minFieldLength", "fieldLengthDistribution", "insertOrder", "zeroPadding"});
        createPropertyGroup("operations", new String[] {"readProportion", "updateProportion", "insertProportion",
            "scanProportion", "readModifyWriteProportion", "readAllFields", "writeAllFields", "minScanLength",
            "maxScanLength", "scanLengthDistribution"});
        createPropertyGroup("keys", new String[] {"requestDistribution", "hotspotDataFraction", "hotspotOpnFraction",
            "seed"});
        createPropertyGroup("consistency", new String[] {"readConsistency", "writeConsistency"});

        text("variableName", "ycsb");
        text("keyspace", "ycsb");
        text("table", "usertable");
        flag("createSchema", true);
        text("replication", "{'class': 'SimpleStrategy', 'replication_factor': 1}");
        text("fieldCount", "10");
        choice("workload", "a", "a", "b", "c", "d", "e", "f");
        text("recordCount", "1000");
        text("insertStart", "0");
        text("insertCount", "");
        text("operationCount", "0");
        text("fieldLength", "100");
        text("minFieldLength", "1");
        choice("fieldLengthDistribution", "constant", WorkloadSpec.LENGTH_DISTRIBUTIONS);
        choice("insertOrder", "hashed", "hashed", "ordered");
        text("zeroPadding", "1");
        text("readProportion", "");
        text("updateProportion", "");
        text("insertProportion", "");
        text("scanProportion", "");
        text("readModifyWriteProportion", "");
        flag("readAllFields", true);
        flag("writeAllFields", false);
        text("minScanLength", "1");
        text("maxScanLength", "");
        choice("scanLengthDistribution", "uniform", "uniform", "zipfian");
        String[] distributions = new String[WorkloadSpec.REQUEST_DISTRIBUTIONS.length + 1];
        distributions[0] = "";
        System.arraycopy(WorkloadSpec.REQUEST_DISTRIBUTIONS, 0, distributions, 1, WorkloadSpec.REQUEST_DISTRIBUTIONS.length);
        choice("requestDistribution", "", distributions);
        text("hotspotDataFraction", "0.2");
        text("hotspotOpnFraction", "0.8");
        text("seed", "1");
        choice("readConsistency", "QUORUM", CassandraConnection.CONSISTENCY_LEVELS);
        choice("writeConsistency", "QUORUM", CassandraConnection.CONSISTENCY_LEVELS);
    }
}
