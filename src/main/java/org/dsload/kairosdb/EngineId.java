package org.dsload.kairosdb;

import org.apache.jmeter.util.JMeterUtils;

/**
 * The name of the JMeter engine running this JVM's threads: {@code local}, or on a jmeter-server
 * slave the host and port JMeter puts in front of its thread names ({@code 127.0.0.2_1099}).
 * Thread numbers repeat on every slave, so a resource id built from the thread number alone
 * would make two slaves write the same series.
 */
final class EngineId {
    /** Set by JMeter's remote engine to the slave's host:port (JMeterUtils.THREAD_GROUP_DISTRIBUTED_PREFIX_PROPERTY_NAME). */
    private static final String DISTRIBUTED_PREFIX = "__jm.D_TG";

    private EngineId() {
    }

    static String current() {
        String prefix = JMeterUtils.getJMeterProperties() == null ? ""
                : JMeterUtils.getPropDefault(DISTRIBUTED_PREFIX, "");
        return prefix.isBlank() ? "local" : prefix.trim().replaceAll("[^A-Za-z0-9._-]", "_");
    }
}
