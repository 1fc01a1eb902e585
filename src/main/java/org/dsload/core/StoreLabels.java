package org.dsload.core;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.jmeter.samplers.SampleResult;

/**
 * Which labels of this engine's results came from samplers of which store: a sample's label is
 * noted under the kind of client its sampler looked up ({@link SharedClients#lookup}). The gauge
 * recorders write them beside what the store's samplers sent, so that the summary can find in the
 * results file the rows of a slave lost during the run (whose last count came before its end).
 */
public final class StoreLabels {
    private static final ThreadLocal<Class<?>> CLIENT = new ThreadLocal<>();
    private static final Map<Class<?>, Set<String>> LABELS = new ConcurrentHashMap<>();

    private StoreLabels() {
    }

    /** The sample this thread is taking uses a client of this kind. */
    static void used(Class<?> clientType) {
        CLIENT.set(clientType);
    }

    /** Notes the sample's label under the kind of client it used, if it used one. */
    static void sampled(SampleResult result) {
        Class<?> client = CLIENT.get();
        if (client == null || result == null) {
            return;
        }
        CLIENT.remove();
        Set<String> labels = LABELS.get(client);
        if (labels == null) {
            labels = LABELS.computeIfAbsent(client, k -> ConcurrentHashMap.newKeySet());
        }
        String label = result.getSampleLabel();
        if (label != null && !labels.contains(label)) {
            labels.add(label);
        }
    }

    /** The labels of the samples that used a client of this kind in this JVM. */
    public static Set<String> of(Class<?> clientType) {
        return Set.copyOf(LABELS.getOrDefault(clientType, Set.of()));
    }
}
