package org.dsload.kairosdb;

import org.dsload.core.DsloadBeanInfo;

public class KairosDbConnectionBeanInfo extends DsloadBeanInfo {

    public KairosDbConnectionBeanInfo() {
        super(KairosDbConnection.class);
        createPropertyGroup("variable", new String[] {"variableName"});
        createPropertyGroup("server", new String[] {"urls", "connectTimeout", "responseTimeout", "checkOnStart",
            "recordGauges"});
        createPropertyGroup("http", new String[] {"maxConnections", "poolTimeout", "keepAlive", "gzip"});
        createPropertyGroup("auth", new String[] {"user", "password"});
        createPropertyGroup("end", new String[] {"crossCheck", "crossCheckWait"});

        text("variableName", "kairosdb");
        text("urls", "http://127.0.0.1:8080");
        text("connectTimeout", "2000");
        text("responseTimeout", "30000");
        flag("checkOnStart", true);
        flag("recordGauges", true);
        text("maxConnections", "200");
        text("poolTimeout", "10000");
        flag("keepAlive", true);
        flag("gzip", false);
        text("user", "");
        password("password");
        flag("crossCheck", true);
        text("crossCheckWait", "30");
    }
}
