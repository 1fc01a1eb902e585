package org.dsload.influxdb;

import org.dsload.core.DsloadBeanInfo;

public class InfluxDbGaugesBeanInfo extends DsloadBeanInfo {

    public InfluxDbGaugesBeanInfo() {
        super(InfluxDbGauges.class);
        createPropertyGroup("server", new String[] {"urls", "recordGauges"});
        createPropertyGroup("auth", new String[] {"user", "password"});

        text("urls", "http://127.0.0.1:8086");
        flag("recordGauges", true);
        text("user", "");
        password("password");
    }
}
