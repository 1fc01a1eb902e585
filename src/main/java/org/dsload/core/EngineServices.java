package org.dsload.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;

import org.apache.jmeter.util.JMeterUtils;
import org.dsload.core.format.RunProperties;

/**
 * The test's life on this engine as dsload elements take part in it: the first element's test
 * start names the engine ({@code dsload.engine}) and starts the {@link EngineService}s, the last
 * one's test end ends them. Elements call {@link #acquire} from {@code testStarted} and
 * {@link #release} from {@code testEnded}.
 */
public final class EngineServices {
    private static final Set<Object> OWNERS = Collections.newSetFromMap(new IdentityHashMap<>());
    private static List<EngineService> services;

    private EngineServices() {
    }

    /**
     * @param owner      the element taking part, which must {@link #release} at test end
     * @param remoteHost the host:port the master reached this engine at, or null in a local run
     */
    public static synchronized void acquire(Object owner, String remoteHost) {
        String engine = RunProperties.engine(remoteHost);
        if (JMeterUtils.getJMeterProperties() != null) {
            JMeterUtils.setProperty(RunProperties.ENGINE, engine);
        }
        OWNERS.add(owner);
        for (EngineService service : services()) {
            service.started(engine, remoteHost);
        }
    }

    /** Called by each element at test end, when every sampler thread of the engine is done. */
    public static synchronized void release(Object owner) {
        boolean last = OWNERS.remove(owner) && OWNERS.isEmpty();
        List<EngineService> reversed = new ArrayList<>(services());
        Collections.reverse(reversed); // ended in the reverse order of their start
        for (EngineService service : reversed) {
            service.ended(last);
        }
    }

    private static List<EngineService> services() {
        if (services == null) {
            List<EngineService> found = new ArrayList<>();
            ServiceLoader.load(EngineService.class, EngineService.class.getClassLoader()).forEach(found::add);
            services = List.copyOf(found);
        }
        return services;
    }
}
