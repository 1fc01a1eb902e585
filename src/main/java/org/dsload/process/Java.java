package org.dsload.process;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;

/** The Java this process runs on, for the JVMs it starts. */
public final class Java {
    private Java() {
    }

    /** The java executable of this JVM. */
    public static String executable() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    /** The jar (or classes folder, in a build) holding a class: the class path of a JVM that runs it. */
    public static String classPathOf(Class<?> type) throws IOException {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException | RuntimeException e) {
            throw new IOException("cannot find the jar holding " + type.getName() + ": " + e);
        }
    }
}
