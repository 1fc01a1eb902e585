package org.dsload.cassandra;

import org.dsload.core.DsloadBeanInfo;

public class CassandraConnectionBeanInfo extends DsloadBeanInfo {

    public CassandraConnectionBeanInfo() {
        super(CassandraConnection.class);
        createPropertyGroup("variable", new String[] {"variableName"});
        createPropertyGroup("cluster", new String[] {"contactPoints", "localDatacenter", "keyspace", "protocolVersion",
            "compression", "recordGauges"});
        createPropertyGroup("auth", new String[] {"username", "password", "ssl", "sslHostnameValidation"});
        createPropertyGroup("requests", new String[] {"consistency", "serialConsistency", "requestTimeout",
            "connectTimeout"});
        createPropertyGroup("pool", new String[] {"poolLocalSize", "poolRemoteSize", "maxRequestsPerConnection"});
        createPropertyGroup("policies", new String[] {"loadBalancing", "retryPolicy", "speculativeExecution",
            "speculativeDelay", "speculativeMax"});
        createPropertyGroup("advanced", new String[] {"driverOptions"});

        text("variableName", "cassandra");
        text("contactPoints", "127.0.0.1:9042");
        text("localDatacenter", "datacenter1");
        text("keyspace", "");
        choice("protocolVersion", "", "", "V4", "V5");
        choice("compression", "none", "none", "lz4");
        text("username", "");
        password("password");
        flag("ssl", false);
        flag("sslHostnameValidation", true);
        choice("consistency", "LOCAL_ONE", CassandraConnection.CONSISTENCY_LEVELS);
        choice("serialConsistency", "SERIAL", CassandraConnection.SERIAL_LEVELS);
        text("requestTimeout", "2000");
        text("connectTimeout", "5000");
        text("poolLocalSize", "1");
        text("poolRemoteSize", "1");
        text("maxRequestsPerConnection", "1024");
        choice("loadBalancing", "default", "default", "dc-inferring");
        choice("retryPolicy", "default", "default", "consistency-downgrading");
        choice("speculativeExecution", "none", "none", "constant");
        text("speculativeDelay", "100");
        text("speculativeMax", "2");
        multiline("driverOptions", "");
        flag("recordGauges", true);
    }
}
