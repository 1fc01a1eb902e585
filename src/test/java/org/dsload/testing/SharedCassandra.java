package org.dsload.testing;

import org.dsload.targets.EmbeddedCassandra;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One Cassandra node shared by every test class that extends with this, started by the first and
 * stopped when the test JVM's launcher session ends (JUnit closes what that session's store holds;
 * the root store would be closed after each class where a fork runs its classes one by one): a node takes
 * 10 to 30 s to start here, too long to pay per class.
 */
public final class SharedCassandra implements BeforeAllCallback {
    private static final String KEY = "dsload.shared-cassandra";
    private static EmbeddedCassandra node;

    @Override
    public void beforeAll(ExtensionContext context) {
        context.getStore(ExtensionContext.StoreScope.LAUNCHER_SESSION, ExtensionContext.Namespace.GLOBAL)
                .computeIfAbsent(KEY, key -> start(), EmbeddedCassandra.class);
    }

    private static synchronized EmbeddedCassandra start() {
        if (node == null || !node.isRunning()) {
            node = EmbeddedCassandra.start();
            System.out.printf("dsload: shared Cassandra node %s ready in %.1f s, %d MiB resident%n", node.address(),
                    node.startTime().toMillis() / 1000.0, node.residentBytes() >> 20);
        }
        return node;
    }

    /** The shared node; only after the extension has run for the calling class. */
    public static synchronized EmbeddedCassandra node() {
        if (node == null) {
            throw new IllegalStateException("annotate the test class with @ExtendWith(SharedCassandra.class)");
        }
        return node;
    }
}
