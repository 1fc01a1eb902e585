package org.dsload.core;

import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;

/**
 * How config elements hand their client to samplers: the element puts it into the JMeter
 * variables of the engine thread at test start, JMeter copies those variables into every thread
 * it starts, and samplers look the client up by the variable name the user chose (the idiom of
 * JMeter's JDBC and Bolt elements).
 */
public final class SharedClients {
    private SharedClients() {
    }

    /** Stands in for a client whose configuration was refused at test start. */
    public record Refused(String message) {
    }

    public static void publish(String variableName, Object client) {
        JMeterVariables variables = JMeterContextService.getContext().getVariables();
        if (variables != null) {
            variables.putObject(variableName, client);
        }
    }

    /**
     * The client published under {@code variableName}.
     *
     * @param kind what the user has to add to the plan if it is missing, e.g. "Redis Connection"
     * @throws ConfigException if there is none, it is of another kind, or it was refused at start
     */
    public static <T> T lookup(String variableName, Class<T> type, String kind) {
        T client = setting(variableName, type, kind);
        StoreLabels.used(type);
        return client;
    }

    /**
     * What a settings element published under {@code variableName} (a workload, a binding's
     * settings): found as {@link #lookup} finds a client, but not the store the sample uses.
     */
    public static <T> T setting(String variableName, Class<T> type, String kind) {
        JMeterVariables variables = JMeterContextService.getContext().getVariables();
        Object found = variables == null ? null : variables.getObject(variableName);
        if (type.isInstance(found)) {
            return type.cast(found);
        }
        if (found instanceof Refused refused) {
            throw new ConfigException(refused.message());
        }
        if (found == null) {
            throw new ConfigException("No " + kind + " named '" + variableName + "' is in scope: add a "
                    + kind + " config element whose Variable name is '" + variableName + "'");
        }
        throw new ConfigException("Variable '" + variableName + "' holds a " + found.getClass().getSimpleName()
                + ", not a " + kind + ": give the " + kind + " a variable name of its own");
    }
}
