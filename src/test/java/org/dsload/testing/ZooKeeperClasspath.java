package org.dsload.testing;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The class path of a forked ZooKeeper server: the jars of the test class path that hold the
 * server and what it needs at run time (jute, slf4j with log4j2 behind it, commons-io, dropwizard metrics, snappy). Found by
 * class, so it works whether the test JVM was given the jars themselves or a manifest-only jar.
 */
final class ZooKeeperClasspath {
    private static final String[] CLASSES = {
        "org.apache.zookeeper.server.quorum.QuorumPeerMain",
        "org.apache.jute.Record",
        "org.apache.yetus.audience.InterfaceAudience",
        "org.slf4j.Logger",
        "org.apache.logging.slf4j.Log4jLoggerFactory",
        "org.apache.logging.log4j.LogManager",
        "org.apache.logging.log4j.core.LoggerContext",
        "org.apache.commons.io.FileUtils",
        "com.codahale.metrics.Reservoir",
        "org.xerial.snappy.SnappyInputStream",
    };
    private static String classpath;

    private ZooKeeperClasspath() {
    }

    static synchronized String get() {
        if (classpath == null) {
            Set<String> jars = new LinkedHashSet<>();
            for (String name : CLASSES) {
                jars.add(jarOf(name));
            }
            classpath = String.join(File.pathSeparator, jars);
        }
        return classpath;
    }

    private static String jarOf(String className) {
        try {
            CodeSource source = Class.forName(className, false, ZooKeeperClasspath.class.getClassLoader())
                    .getProtectionDomain().getCodeSource();
            return Path.of(source.getLocation().toURI()).toString();
        } catch (ClassNotFoundException | URISyntaxException | NullPointerException e) {
            throw new IllegalStateException("the test class path lacks " + className
                    + ", which a forked ZooKeeper server needs", e);
        }
    }
}
