package org.dsload.influxdb;

import org.dsload.core.DsloadBeanInfo;

public class InfluxDbConnectionBeanInfo extends DsloadBeanInfo {

    public InfluxDbConnectionBeanInfo() {
        super(InfluxDbConnection.class);
        createPropertyGroup("variable", new String[] {"variableName"});
        createPropertyGroup("server", new String[] {"urls", "api", "precision", "connectTimeout", "responseTimeout",
            "maxConnections", "gzip", "checkOnStart", "connectionsAtStart", "recordGauges"});
        createPropertyGroup("v1", new String[] {"database", "user", "password"});
        createPropertyGroup("v2", new String[] {"organization", "bucket", "token"});

        text("variableName", "influxdb");
        text("urls", "http://127.0.0.1:8086");
        choice("api", InfluxDbConnection.V1, InfluxDbConnection.V1, InfluxDbConnection.V2);
        choice("precision", "ns", "ns", "us", "ms", "s");
        text("connectTimeout", "2000");
        text("responseTimeout", "30000");
        text("maxConnections", "100");
        flag("gzip", false);
        flag("checkOnStart", true);
        text("connectionsAtStart", Integer.toString(InfluxDbConnection.CONNECTIONS_AT_START));
        flag("recordGauges", true);
        text("database", "test");
        text("user", "");
        password("password");
        text("organization", "");
        text("bucket", "");
        password("token");
    }
}
