package org.dsload.bench;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;

import org.dsload.ycsb.Operation;
import org.dsload.ycsb.Preset;
import org.dsload.ycsb.Workload;
import org.dsload.ycsb.WorkloadSpec;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;

/**
 * The reference for requests in flight on CQL, in a JVM of its own like JMeter: YCSB workload A
 * (read 0.5, update 0.5 of one field, zipfian keys over the loaded records) with the statements of
 * YCSB's cassandra-cql binding, one thread keeping N requests outstanding with executeAsync and a
 * semaphore of N, the driver settings of test-plans/cassandra-ycsb.jmx. Keys and values come from
 * dsload's workload model, so both sides draw the same distribution at the same cost. Prints
 * {@code ops=<n> seconds=<s> p99us=<µs> errors=<n>} for the window after the warm-up.
 *
 * <p>Arguments: host port keyspace inFlight warmupSeconds seconds records consistency
 */
public final class PlainCqlYcsbLoop {
    private static final int FIELDS = 10;

    private PlainCqlYcsbLoop() {
    }

    public static void main(String[] args) throws Exception {
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        String keyspace = args[2];
        int inFlight = Integer.parseInt(args[3]);
        PlainLoop.Window window = PlainLoop.Window.ofSeconds(args[4], args[5]);
        long records = Long.parseLong(args[6]);
        DriverConfigLoader config = DriverConfigLoader.programmaticBuilder()
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(2))
                .withString(DefaultDriverOption.REQUEST_CONSISTENCY, args[7])
                .withInt(DefaultDriverOption.CONNECTION_POOL_LOCAL_SIZE, 1)
                .build();
        Map<Operation, Double> mix = new EnumMap<>(Operation.class);
        for (Operation op : Operation.values()) {
            mix.put(op, Preset.A.proportion(op));
        }
        Workload w = new Workload(new WorkloadSpec("workloada", "usertable", records, 0, records, 0, FIELDS, 100, 1,
                "constant", true, false, mix, Preset.A.requestDistribution(), 0.2, 0.8, 1, 1000, "uniform", false, 1,
                1));
        try (CqlSession session = CqlSession.builder().withConfigLoader(config)
                .addContactPoint(new InetSocketAddress(host, port)).withLocalDatacenter("datacenter1").build()) {
            PreparedStatement read = session.prepare("SELECT * FROM " + keyspace + ".usertable WHERE y_id = ? LIMIT 1");
            PreparedStatement[] updates = new PreparedStatement[FIELDS];
            for (int f = 0; f < FIELDS; f++) {
                updates[f] = session.prepare("UPDATE " + keyspace + ".usertable SET field" + f + " = ? WHERE y_id = ?");
            }
            SplittableRandom random = new SplittableRandom(1); // used by the sending thread only
            PlainLoop.Result result = PlainLoop.inFlight(inFlight, (i, done) -> {
                String key = w.key(w.nextRecord(random));
                BoundStatement statement = w.nextOperation(random) == Operation.READ ? read.bind(key)
                        : updates[w.nextField(random)].bind(w.nextValue(random), key);
                session.executeAsync(statement).whenComplete((rs, error) -> {
                    if (rs != null) {
                        rs.one(); // a client reads the row it asked for
                    }
                    done.completed(error == null);
                });
            }, window);
            System.out.println(result.line());
        }
    }
}
