package org.dsload.redis;

import org.dsload.core.DsloadBeanInfo;

public class RedisConnectionBeanInfo extends DsloadBeanInfo {

    public RedisConnectionBeanInfo() {
        super(RedisConnection.class);
        createPropertyGroup("variable", new String[] {"variableName"});
        createPropertyGroup("server", new String[] {"mode", "hosts", "database", "ssl", "clientName",
            "connectTimeout", "socketTimeout", "checkOnStart", "clusterMaxAttempts", "recordGauges"});
        createPropertyGroup("auth", new String[] {"user", "password"});
        createPropertyGroup("pool", new String[] {"minIdle", "maxIdle", "maxTotal", "blockWhenExhausted",
            "maxWait", "testOnBorrow", "testOnReturn", "testWhileIdle", "evictionInterval"});

        text("variableName", "redis");
        choice("mode", RedisConnection.STANDALONE, RedisConnection.STANDALONE, RedisConnection.CLUSTER);
        text("hosts", "127.0.0.1:6379");
        text("database", "0");
        flag("ssl", false);
        text("clientName", "dsload");
        text("connectTimeout", "2000");
        text("socketTimeout", "2000");
        flag("checkOnStart", true);
        text("clusterMaxAttempts", "5");
        flag("recordGauges", true);
        text("user", "");
        password("password");
        text("minIdle", "0");
        text("maxIdle", "200");
        text("maxTotal", "200");
        flag("blockWhenExhausted", true);
        text("maxWait", "3000");
        flag("testOnBorrow", false);
        flag("testOnReturn", false);
        flag("testWhileIdle", false);
        text("evictionInterval", "30000");
    }
}
