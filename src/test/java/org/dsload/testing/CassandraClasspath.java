package org.dsload.testing;

import java.nio.file.Path;
import java.util.List;

/**
 * The class path of the Cassandra server ({@code embedded-targets/cassandra/pom.xml}), resolved
 * and cached by {@link TargetClasspath}.
 */
public final class CassandraClasspath {
    static final String MODULE = "cassandra";

    private CassandraClasspath() {
    }

    public static Path pom() {
        return TargetClasspath.pom(MODULE);
    }

    public static List<Path> jars() {
        return TargetClasspath.jars(MODULE);
    }
}
