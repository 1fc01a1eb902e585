package org.dsload.serve;

import java.io.PrintStream;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.dsload.targets.Checkout;

import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * What {@code dsload serve} does: starts real servers on free loopback ports, prints for each the
 * -J properties that point the shipped plans at it, and stays in the foreground until Ctrl-C or
 * SIGTERM, then stops everything it started. A server that ends on its own ends the serve too,
 * unless the serve keeps going ({@code --keep-going}: fault tests kill members of an ensemble).
 *
 * <p>The signals are caught rather than left to the JVM's shutdown, so the servers stop in order
 * (KairosDB before the Cassandra it writes to) while the JVM still runs; a second signal ends at
 * once. Killed outright, the serve's servers are stopped by its orphan reaper
 * ({@link org.dsload.process.Orphans}).
 */
public final class Serve {
    private static final long WATCH_MILLIS = 1000;

    private Serve() {
    }

    /**
     * Serves until a signal; 0 after a stop asked for, 1 when a target could not start or one ended.
     *
     * @throws IllegalStateException when this is no checkout the servers can start from
     */
    public static int run(ServeRequest request, PrintStream out) {
        Checkout.requireCheckout();
        requireClientLibraries();
        CountDownLatch stop = new CountDownLatch(1);
        Thread serving = Thread.currentThread();
        SignalHandler handler = signal -> {
            if (stop.getCount() == 0) {
                out.println("dsload: SIG" + signal.getName() + " again: stopping at once");
                System.exit(128 + signal.getNumber());
            }
            stop.countDown(); // first: a start that failed of the same signal asks for it at once
            out.println("dsload: SIG" + signal.getName() + ": stopping the servers");
            // a target may take minutes to start (a first download, a Cassandra cluster): stop waiting for it
            serving.interrupt();
        };
        Signal.handle(new Signal("INT"), handler);
        Signal.handle(new Signal("TERM"), handler);
        ServeSession session;
        try {
            session = ServeSession.start(request, out, () -> stop.getCount() == 0);
        } catch (ServeSession.StartFailure e) {
            // the session has said why and stopped what it started
            if (e.stopAsked()) {
                out.println("dsload: every server stopped");
                return 0;
            }
            return 1;
        }
        int code = 0;
        try {
            if (stop.getCount() > 0) {
                announce(session.served(), out);
            }
            code = watchUntilStopped(session, stop, request.keepGoing(), out);
        } finally {
            Thread.interrupted(); // the signal's interrupt, if it came late: the servers stop in order
            session.close();
        }
        out.println("dsload: every server stopped");
        return code;
    }

    private static void announce(List<Served> served, PrintStream out) {
        out.println();
        for (Served s : served) {
            out.println(s.line() + "    (" + String.join(", ", s.plans()) + ")");
            for (Served.Secret secret : s.secrets()) {
                out.println("  first: " + secret.export() + "    (the file is readable by its owner alone)");
            }
        }
        Served first = served.get(0);
        out.println();
        out.println("dsload: serving until Ctrl-C or SIGTERM; for example:");
        out.println("  bin/jmeter -t test-plans/" + first.plans().get(0) + " " + first.jOptions());
    }

    /**
     * 0 once a stop is asked for, 1 when a server ends on its own first; with {@code keepGoing} a
     * process that ends is named once and the others serve on, until every one has ended (1).
     */
    private static int watchUntilStopped(ServeSession session, CountDownLatch stop, boolean keepGoing, PrintStream out) {
        Set<Long> told = new HashSet<>();
        try {
            while (!stop.await(WATCH_MILLIS, TimeUnit.MILLISECONDS)) {
                if (!keepGoing) {
                    Served lost = session.lost();
                    if (lost != null) {
                        out.println("dsload: " + lost.name() + " (pid " + lost.ended().pid() + ") ended on its own; "
                                + "stopping the others");
                        return 1;
                    }
                    continue;
                }
                for (Served s : session.served()) {
                    for (ProcessHandle p : s.processes()) {
                        if (!p.isAlive() && told.add(p.pid())) {
                            out.println("dsload: " + s.name() + ": pid " + p.pid() + " ended on its own; "
                                    + "the others serve on (--keep-going)");
                        }
                    }
                }
                if (session.served().stream().allMatch(Served::allEnded)) {
                    out.println("dsload: every server has ended; nothing is left to serve");
                    return 1;
                }
            }
        } catch (InterruptedException signalled) {
            // the signal handler interrupts as it asks for the stop
        }
        return 0;
    }

    /**
     * The clients serve uses to see that a target serves (Jedis for Redis Cluster, the Cassandra
     * driver) log through slf4j and pool through commons-pool2, which JMeter ships and dsload's
     * bundle therefore does not: bin/dsload puts the JMeter home's lib/ on the class path.
     */
    private static void requireClientLibraries() {
        for (String name : List.of("org.slf4j.LoggerFactory", "org.apache.commons.pool2.impl.GenericObjectPool")) {
            try {
                Class.forName(name, false, Serve.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("serve needs JMeter's libraries beside dsload's (" + name + " is missing): "
                        + "run it as bin/dsload serve after ./mvnw package, or add <JMeter home>/lib/* to the class path");
            }
        }
    }
}
