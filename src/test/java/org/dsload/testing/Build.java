package org.dsload.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where the build keeps things: the project, target/, the JMeter home the build made. */
public final class Build {
    private Build() {
    }

    public static Path basedir() {
        String dir = System.getProperty("dsload.basedir");
        if (dir != null) {
            return Path.of(dir);
        }
        Path here = Path.of("").toAbsolutePath();
        while (here != null && !Files.isRegularFile(here.resolve("pom.xml"))) {
            here = here.getParent();
        }
        return here == null ? Path.of("").toAbsolutePath() : here;
    }

    public static Path target() {
        String dir = System.getProperty("dsload.targetdir");
        return dir != null ? Path.of(dir) : basedir().resolve("target");
    }

    /** A folder under target/ for one server's data and logs. */
    public static Path work(String name) {
        return target().resolve("embedded").resolve(name);
    }

    public static Path jmeterHome() {
        Path home = target().resolve("jmeter-home");
        if (!Files.isDirectory(home.resolve("bin"))) {
            throw new IllegalStateException("no JMeter home at " + home + ": run ./mvnw package first");
        }
        return home;
    }
}
