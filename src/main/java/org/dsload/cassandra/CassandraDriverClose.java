package org.dsload.cassandra;

import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.ProgrammaticDriverConfigLoaderBuilder;

/**
 * How a driver session of dsload's shuts down. The driver stops its two event loop groups (I/O and
 * admin) with Netty's graceful shutdown, whose quiet period it sets to 2 s by default: a session's
 * {@code close()} then returns no sooner than 2 s after it began, however idle the session, and a
 * run's test end, which closes the session that read the node's gauges and then the load's session,
 * waited 2 s for each. The driver closes its connections before it stops the groups, so nothing is
 * left for a long quiet period to let through: {@value #QUIET_MILLIS} ms is enough for the close's
 * own last tasks. A Cassandra Session's Driver options still override it (the quiet period is then
 * read in milliseconds unless they set {@code advanced.netty.io-group.shutdown.unit} too).
 */
public final class CassandraDriverClose {
    /** The quiet period of each event loop group's shutdown. */
    static final int QUIET_MILLIS = 100;
    /** The driver's own bound on a group's shutdown, 15 s. */
    private static final int TIMEOUT_MILLIS = 15_000;

    private CassandraDriverClose() {
    }

    /** Sets both groups' shutdown to a quiet period of {@value #QUIET_MILLIS} ms; returns {@code config}. */
    public static ProgrammaticDriverConfigLoaderBuilder promptly(ProgrammaticDriverConfigLoaderBuilder config) {
        return config.withString(DefaultDriverOption.NETTY_IO_SHUTDOWN_UNIT, "MILLISECONDS")
                .withInt(DefaultDriverOption.NETTY_IO_SHUTDOWN_QUIET_PERIOD, QUIET_MILLIS)
                .withInt(DefaultDriverOption.NETTY_IO_SHUTDOWN_TIMEOUT, TIMEOUT_MILLIS)
                .withString(DefaultDriverOption.NETTY_ADMIN_SHUTDOWN_UNIT, "MILLISECONDS")
                .withInt(DefaultDriverOption.NETTY_ADMIN_SHUTDOWN_QUIET_PERIOD, QUIET_MILLIS)
                .withInt(DefaultDriverOption.NETTY_ADMIN_SHUTDOWN_TIMEOUT, TIMEOUT_MILLIS);
    }
}
