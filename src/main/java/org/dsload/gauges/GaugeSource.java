package org.dsload.gauges;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Where a recorder reads a store's gauges: one server (a Redis node, a Cassandra node, an
 * InfluxDB) or one endpoint that answers for several (a KairosDB that reports every host of its
 * cluster). Read from the recorder's thread only, once a second.
 */
public interface GaugeSource extends AutoCloseable {

    /** What the source reads, for rows written when it cannot be read (host:port, a URL). */
    String name();

    /**
     * One reading.
     *
     * @param now the poll's time stamp (epoch milliseconds)
     * @return one reading per server the source answered for
     * @throws Refused     when the server answers but will not give its gauges (a permission, a
     *                     login, a command it does not know): the source is not asked again
     * @throws IOException when the server cannot be reached or did not answer in time: asked again
     *                     at the next poll
     */
    List<Reading> read(long now) throws Refused, IOException;

    @Override
    default void close() {
    }

    /** The gauges of one server at one time; values are text as the server gave them, absent when unknown. */
    record Reading(String node, long epochMillis, Map<String, String> values) {
    }

    /** The server will not give its gauges; the message says why, without credentials. */
    final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        public Refused(String reason) {
            super(reason);
        }
    }
}
