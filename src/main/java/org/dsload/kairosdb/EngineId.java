package org.dsload.kairosdb;

import org.apache.jmeter.util.JMeterUtils;
import org.dsload.core.format.RunProperties;

/**
 * The name of the JMeter engine running this JVM's threads ({@code master}, or
 * {@code slave-<host>_<port>} on a jmeter-server slave). Thread numbers repeat on every slave,
 * so a resource id built from the thread number alone would make two slaves write the same series.
 */
final class EngineId {
    private EngineId() {
    }

    static String current() {
        return JMeterUtils.getJMeterProperties() == null ? RunProperties.MASTER
                : JMeterUtils.getPropDefault(RunProperties.ENGINE, RunProperties.MASTER);
    }
}
