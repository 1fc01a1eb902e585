package org.dsload.zookeeper;

import org.dsload.core.DsloadBeanInfo;

public class ZooKeeperConnectionBeanInfo extends DsloadBeanInfo {

    public ZooKeeperConnectionBeanInfo() {
        super(ZooKeeperConnection.class);
        createPropertyGroup("variable", new String[] {"variableName"});
        createPropertyGroup("server", new String[] {"connectString", "namespace", "sessionTimeout", "connectionTimeout",
            "requestTimeout", "checkOnStart", "recordGauges"});
        createPropertyGroup("retry", new String[] {"retryPolicy", "retries", "retrySleep"});
        createPropertyGroup("auth", new String[] {"authUser", "authPassword", "acl"});
        createPropertyGroup("sessionGroup", new String[] {"sessions", "maxSessions"});
        createPropertyGroup("rootGroup", new String[] {"testRoot", "allowUsedRoot", "cleanUp"});

        text("variableName", "zk");
        text("connectString", "127.0.0.1:2181");
        text("namespace", "");
        text("sessionTimeout", "30000");
        text("connectionTimeout", "5000");
        text("requestTimeout", "10000");
        flag("checkOnStart", true);
        flag("recordGauges", true);
        choice("retryPolicy", ClientSettings.RETRY_EXPONENTIAL, ClientSettings.RETRY_NONE, ClientSettings.RETRY_N_TIMES,
                ClientSettings.RETRY_EXPONENTIAL);
        text("retries", "3");
        text("retrySleep", "100");
        text("authUser", "");
        password("authPassword");
        choice("acl", ClientSettings.ACL_OPEN, ClientSettings.ACL_OPEN, ClientSettings.ACL_CREATOR,
                ClientSettings.ACL_CREATOR_WORLD_READ);
        choice("sessions", ZooKeeperConnection.PER_TEST, ZooKeeperConnection.PER_TEST, ZooKeeperConnection.PER_THREAD);
        text("maxSessions", "2000");
        text("testRoot", "");
        flag("allowUsedRoot", false);
        flag("cleanUp", false);
    }
}
