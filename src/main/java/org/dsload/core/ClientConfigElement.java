package org.dsload.core;

import org.apache.jmeter.config.ConfigElement;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestStateListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The life cycle every dsload connection element shares: build one client at test start, share
 * it with all threads through a variable, close it at test end.
 *
 * <p>A configuration that cannot work (a malformed number, an unreachable server when the
 * element checks at start) does not throw out of {@code testStarted}, where JMeter would log it
 * and carry on silently. It is printed once on the console, logged, and published in place of
 * the client, so that the first sample using it fails with the same message and stops the test.
 *
 * @param <C> the client type
 */
public abstract class ClientConfigElement<C extends AutoCloseable> extends AbstractTestElement
        implements ConfigElement, TestStateListener, TestBean {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(ClientConfigElement.class);

    private String variableName = "";
    private transient C client;

    /** Builds the client from the (already evaluated) bean properties. */
    protected abstract C open(Fields fields) throws Exception;

    protected Fields fields() {
        return new Fields(getClass(), getName());
    }

    @Override
    public void testStarted() {
        EngineServices.acquire(this, null);
        openClient();
    }

    private void openClient() {
        Fields fields = fields();
        synchronized (this) {
            closeClient();
            String name;
            try {
                name = fields.required("variableName", variableName);
            } catch (ConfigException e) {
                report(e);
                return;
            }
            String earlier = VariableOwners.claim(name, this, fields.element());
            if (earlier != null) {
                warn(earlier + " and " + fields.element() + " both publish their client as variable '" + name
                        + "': samplers using it get only the one started last. Give each a variable name of its own.");
            }
            try {
                client = open(fields);
                SharedClients.publish(name, client);
                if (client instanceof ConnectionCounting counting) {
                    GeneratorMetrics.connections(name, counting::openConnections);
                }
            } catch (ConfigException e) {
                SharedClients.publish(name, new SharedClients.Refused(e.getMessage()));
                report(e);
            } catch (Exception e) {
                ConfigException wrapped = fields.error("cannot start: " + Errors.describe(e), e);
                SharedClients.publish(name, new SharedClients.Refused(wrapped.getMessage()));
                report(wrapped);
            }
        }
    }

    private static void warn(String message) {
        log.warn("dsload: {}", message);
        System.err.println("dsload: " + message); // NOSONAR the console is where a headless user looks
    }

    /**
     * A client that cannot start refuses the run, whichever sampler comes first: a JMeter sampler
     * of the plan (an HTTP request that creates the database) fails on its own terms before any
     * dsload sampler could say why.
     */
    private static void report(ConfigException e) {
        ConfigRefusal.say(e.getMessage());
    }

    @Override
    public void testStarted(String host) {
        EngineServices.acquire(this, host);
        openClient();
    }

    @Override
    public void testEnded() {
        synchronized (this) {
            closeClient();
        }
        EngineServices.release(this);
    }

    @Override
    public void testEnded(String host) {
        testEnded();
    }

    private void closeClient() {
        if (client != null) {
            GeneratorMetrics.forgetConnections(variableName);
            try {
                client.close();
            } catch (Exception e) {
                log.warn("dsload: closing {} failed: {}", getName(), Errors.describe(e));
            }
            client = null;
        }
    }

    /** Thread clones share the client of the original so that {@code testEnded} closes the right one. */
    @Override
    public Object clone() {
        @SuppressWarnings("unchecked")
        ClientConfigElement<C> copy = (ClientConfigElement<C>) super.clone();
        copy.client = client;
        return copy;
    }

    @Override
    public void addConfigElement(ConfigElement config) {
        // nothing to merge: samplers find the client by variable name
    }

    @Override
    public boolean expectsModification() {
        return false;
    }

    public String getVariableName() {
        return variableName;
    }

    public void setVariableName(String variableName) {
        this.variableName = variableName;
    }
}
