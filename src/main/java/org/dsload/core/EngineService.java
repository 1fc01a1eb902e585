package org.dsload.core;

/**
 * What runs on an engine beside a test for as long as dsload elements take part in it (the
 * generator's figures, the recording of histograms). Core starts and ends the services through
 * {@link EngineServices} without knowing them: a service is a public class with a public no-argument
 * constructor, listed in {@code META-INF/services/org.dsload.core.EngineService}.
 */
public interface EngineService {

    /**
     * A dsload element's test start on this engine: called for each element, so a service starts
     * with the first and lets the others pass.
     *
     * @param engine     the engine's name ({@code master}, {@code slave-<host>_<port>})
     * @param remoteHost the host:port the master reached this engine at, or null in a local run
     */
    void started(String engine, String remoteHost);

    /**
     * A dsload element's test end, once every sampler thread of the engine is done.
     *
     * @param last whether it was the last element taking part in the test
     */
    void ended(boolean last);
}
