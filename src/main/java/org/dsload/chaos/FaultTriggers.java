package org.dsload.chaos;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** When each named trigger first fired in this engine during the current test (epoch ms). */
public final class FaultTriggers {
    private static final Map<String, Long> FIRED = new ConcurrentHashMap<>();

    private FaultTriggers() {
    }

    public static void fire(String name) {
        FIRED.putIfAbsent(name, System.currentTimeMillis());
    }

    public static Long fired(String name) {
        return FIRED.get(name);
    }

    public static void reset() {
        FIRED.clear();
    }
}
