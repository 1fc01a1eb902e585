package org.dsload.scenarios;

import java.util.Map;

import org.dsload.targets.EmbeddedCassandra;
import org.dsload.targets.EmbeddedKairosDb;

/**
 * The KairosDB the S1 scenarios run against: on H2 by default (ready in seconds), or on an
 * embedded Cassandra node, S1's deployment, with {@code -Ddsload.kairosdb.datastore=cassandra}.
 */
final class KairosDbTarget implements Scenario.Target {
    static final String DATASTORE_PROPERTY = "dsload.kairosdb.datastore";

    private final EmbeddedCassandra cassandra;
    private final EmbeddedKairosDb kairos;

    KairosDbTarget() {
        String datastore = System.getProperty(DATASTORE_PROPERTY, "h2").trim();
        if (datastore.equals("cassandra")) {
            cassandra = EmbeddedCassandra.start();
            EmbeddedKairosDb started;
            try {
                started = EmbeddedKairosDb.startOnCassandra(cassandra);
            } catch (RuntimeException e) {
                cassandra.close();
                throw e;
            }
            kairos = started;
        } else if (datastore.equals("h2")) {
            cassandra = null;
            kairos = EmbeddedKairosDb.start();
        } else {
            throw new IllegalArgumentException(DATASTORE_PROPERTY + " takes h2 or cassandra, got '" + datastore + "'");
        }
    }

    @Override
    public Map<String, String> properties() {
        return Map.of("urls", kairos.url());
    }

    @Override
    public void close() {
        kairos.close();
        if (cassandra != null) {
            cassandra.close();
        }
    }
}
