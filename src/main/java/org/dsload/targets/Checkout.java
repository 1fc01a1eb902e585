package org.dsload.targets;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The dsload checkout the embedded targets run from: its folder (with {@code embedded-targets/},
 * the Maven wrapper, {@code test-plans/}), {@code target/} where servers keep their data and
 * logs, and the JMeter home the build made.
 *
 * <p>The folder is {@code -Ddsload.basedir}, else {@code DSLOAD_HOME} (set by {@code bin/dsload}),
 * else the checkout holding this code ({@code jmeter-plugins/lib/ext/} or {@code target/classes/}
 * of one), else the nearest folder with a pom.xml from the working directory up.
 */
public final class Checkout {
    private Checkout() {
    }

    public static Path basedir() {
        String dir = System.getProperty("dsload.basedir");
        if (dir != null && !dir.isBlank()) {
            return Path.of(dir).toAbsolutePath();
        }
        String env = System.getenv("DSLOAD_HOME");
        if (env != null && !env.isBlank()) {
            return Path.of(env).toAbsolutePath();
        }
        Path ofCode = holdingThisCode();
        if (ofCode != null) {
            return ofCode;
        }
        Path here = Path.of("").toAbsolutePath();
        while (here != null && !Files.isRegularFile(here.resolve("pom.xml"))) {
            here = here.getParent();
        }
        return here == null ? Path.of("").toAbsolutePath() : here;
    }

    /** The checkout whose build this code comes from (the bundle's jar, or target/classes, is inside it). */
    private static Path holdingThisCode() {
        try {
            Path code = Path.of(Checkout.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            for (Path candidate = code.getParent(); candidate != null; candidate = candidate.getParent()) {
                if (Files.isDirectory(candidate.resolve("embedded-targets")) && Files.isRegularFile(candidate.resolve("pom.xml"))) {
                    return candidate;
                }
            }
            return null;
        } catch (URISyntaxException | RuntimeException e) {
            return null;
        }
    }

    public static Path target() {
        String dir = System.getProperty("dsload.targetdir");
        return dir != null && !dir.isBlank() ? Path.of(dir) : basedir().resolve("target");
    }

    /** A folder under target/ for one server's data and logs. */
    public static Path work(String name) {
        return target().resolve("embedded").resolve(name);
    }

    /** The shipped test plans. */
    public static Path plans() {
        return basedir().resolve("test-plans");
    }

    public static Path jmeterHome() {
        Path home = target().resolve("jmeter-home");
        if (!Files.isDirectory(home.resolve("bin"))) {
            throw new IllegalStateException("no JMeter home at " + home + ": run ./mvnw package first");
        }
        return home;
    }

    /**
     * Fails, saying what to do, unless this is a checkout the servers can be started from (its
     * embedded-targets/ folder and Maven wrapper are there).
     */
    public static Path requireCheckout() {
        Path base = basedir();
        if (!Files.isDirectory(base.resolve("embedded-targets")) || !Files.isRegularFile(base.resolve("mvnw"))) {
            throw new IllegalStateException("no dsload checkout at " + base + " (it needs embedded-targets/ and mvnw, "
                    + "which resolve the servers' class paths): run bin/dsload from a checkout, or set DSLOAD_HOME to one");
        }
        return base;
    }
}
