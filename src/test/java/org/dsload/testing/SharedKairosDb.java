package org.dsload.testing;

import org.dsload.targets.EmbeddedKairosDb;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One KairosDB on H2 shared by every test class that extends with this, started by the first and
 * stopped when the test JVM's launcher session ends (JUnit closes what that session's store holds;
 * the root store would be closed after each class where a fork runs its classes one by one): a server takes
 * seconds to a minute to start on a busy machine, too long to pay per class. A class that stops
 * or freezes it must leave it serving again.
 */
public final class SharedKairosDb implements BeforeAllCallback {
    private static final String KEY = "dsload.shared-kairosdb";
    private static EmbeddedKairosDb server;

    @Override
    public void beforeAll(ExtensionContext context) {
        context.getStore(ExtensionContext.StoreScope.LAUNCHER_SESSION, ExtensionContext.Namespace.GLOBAL)
                .computeIfAbsent(KEY, key -> (AutoCloseable) SharedKairosDb::stop, AutoCloseable.class);
        start();
    }

    /** Starts the server, or a new one when a class before left it down. */
    private static synchronized void start() {
        if (server == null || !server.isRunning()) {
            server = EmbeddedKairosDb.start();
            System.out.printf("dsload: shared KairosDB (H2) %s ready in %.1f s, %d MiB resident%n", server.url(),
                    server.startTime().toMillis() / 1000.0, server.residentBytes() >> 20);
        }
    }

    private static synchronized void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** The shared server; only after the extension has run for the calling class. */
    public static synchronized EmbeddedKairosDb server() {
        if (server == null) {
            throw new IllegalStateException("annotate the test class with @ExtendWith(SharedKairosDb.class)");
        }
        return server;
    }
}
