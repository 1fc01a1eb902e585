package org.dsload.process;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;

/** The Java this process runs on, for the JVMs it starts. */
public final class Java {
    private Java() {
    }

    /** The java executable of this JVM. */
    public static String executable() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    /**
     * Extra JVM options a user gives through an environment variable, split at white space (no
     * quoting: JVM options hold no spaces); none when it is unset or blank.
     */
    public static List<String> optionsFrom(String variable) {
        String value = System.getenv(variable);
        return value == null || value.isBlank() ? List.of() : List.of(value.trim().split("\\s+"));
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
