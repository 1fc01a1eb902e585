package org.dsload.ycsb;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/**
 * A store the YCSB elements can drive, as YCSB loads a binding by name: the YCSB Operation's
 * Binding field names it, and the provider binds each sampler thread to the client of the store's
 * connection element. A provider is a public class with a public no-argument constructor in its
 * store's package, listed in {@code META-INF/services/org.dsload.ycsb.YcsbBindingProvider}; the
 * YCSB elements know no store.
 */
public interface YcsbBindingProvider {

    /** The name the Binding field gives ({@code cassandra}, {@code redis}). */
    String name();

    /**
     * The client published under {@code connection} by the store's connection element, looked up
     * at every sample ({@code SharedClients.lookup}): a new test publishes another.
     *
     * @throws org.dsload.core.ConfigException naming what to add to the plan when there is none
     */
    Object client(String connection);

    /**
     * The binding of one sampler thread to {@code client}, for as long as it is the one published.
     *
     * @param settings the variable name of the binding's own settings element (the Binding settings
     *                 field), or empty for the binding's defaults
     * @throws org.dsload.core.ConfigException when the settings are missing or do not fit the workload
     */
    YcsbBinding bind(Object client, String settings, WorkloadRun run);

    /** Every registered binding, by name. */
    static List<YcsbBindingProvider> all() {
        List<YcsbBindingProvider> found = new ArrayList<>();
        ServiceLoader.load(YcsbBindingProvider.class, YcsbBindingProvider.class.getClassLoader()).forEach(found::add);
        found.sort(Comparator.comparing(YcsbBindingProvider::name));
        return found;
    }

    /** The names the Binding field takes. */
    static String[] names() {
        return all().stream().map(YcsbBindingProvider::name).toArray(String[]::new);
    }
}
