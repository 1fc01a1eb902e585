package org.dsload.zookeeper;

import org.dsload.core.DsloadBeanInfo;

public class ZooKeeperSamplerBeanInfo extends DsloadBeanInfo {

    public ZooKeeperSamplerBeanInfo() {
        super(ZooKeeperSampler.class);
        createPropertyGroup("target", new String[] {"connection"});
        createPropertyGroup("request", new String[] {"operation", "path", "data", "dataSize", "createMode", "ttl",
            "createParents", "version", "multiOperations"});
        createPropertyGroup("watching", new String[] {"watch", "trigger", "watchTimeout"});
        createPropertyGroup("response", new String[] {"acceptedCodes", "responseDataLimit"});

        text("connection", "zk");
        choice("operation", "get", Operation.words());
        text("path", "/dsload/#{seq}");
        text("data", "");
        text("dataSize", "100");
        choice("createMode", "persistent", ZooKeeperSampler.CREATE_MODES);
        text("ttl", "60000");
        flag("createParents", false);
        text("version", "-1");
        multiline("multiOperations", "");
        choice("watch", ZooKeeperSampler.WATCH_NONE, ZooKeeperSampler.WATCH_NONE, ZooKeeperSampler.WATCH_ONCE,
                ZooKeeperSampler.WATCH_KEEP);
        choice("trigger", ZooKeeperSampler.TRIGGER_EXTERNAL, ZooKeeperSampler.TRIGGER_EXTERNAL, "set", "create", "delete");
        text("watchTimeout", "10000");
        text("acceptedCodes", "");
        text("responseDataLimit", "1024");
    }
}
