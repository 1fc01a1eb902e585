package org.dsload.zookeeper;

import org.dsload.core.DsloadBeanInfo;

public class ZooKeeperSamplerBeanInfo extends DsloadBeanInfo {

    public ZooKeeperSamplerBeanInfo() {
        super(ZooKeeperSampler.class);
        createPropertyGroup("target", new String[] {"connection"});
        createPropertyGroup("request", new String[] {"operation", "path", "data", "dataSize", "createMode", "ttl",
            "createParents", "version", "multiOperations", "inFlight",
            "requestsPerSample"});
        createPropertyGroup("watching", new String[] {"watch", "trigger", "watchTimeout"});
        createPropertyGroup("response", new String[] {"acceptedCodes", "responseDataLimit", "stopOnUnrecoverable"});

        text("connection", "zk");
        choice("operation", "get", ZnodeOperation.words());
        text("path", "/dsload/#{seq}");
        text("data", "");
        text("dataSize", "100");
        choice("createMode", "persistent", OperationSettings.CREATE_MODES);
        text("ttl", "60000");
        flag("createParents", false);
        text("version", "-1");
        multiline("multiOperations", "");
        text("inFlight", "1");
        text("requestsPerSample", "0");
        choice("watch", OperationSettings.WATCH_NONE, OperationSettings.WATCH_NONE, OperationSettings.WATCH_ONCE,
                OperationSettings.WATCH_KEEP);
        choice("trigger", OperationSettings.TRIGGER_EXTERNAL, OperationSettings.TRIGGER_EXTERNAL, "set", "create", "delete");
        text("watchTimeout", "10000");
        text("acceptedCodes", "");
        text("responseDataLimit", "1024");
        flag("stopOnUnrecoverable", true);
    }
}
