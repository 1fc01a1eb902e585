package org.dsload.core;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Resolves credential fields. A value {@code env:NAME} is read from the environment and
 * {@code file:/path} from the first line of a file, so a plan or a command line never has to
 * carry the secret itself (JMeter logs every {@code -J} property it is given).
 */
public final class Secrets {
    private Secrets() {
    }

    public static String resolve(Fields fields, String property, String raw) {
        if (raw == null || raw.isEmpty()) {
            return "";
        }
        if (raw.startsWith("env:")) {
            String name = raw.substring(4).trim();
            String value = System.getenv(name);
            if (value == null) {
                throw fields.error(property, "names environment variable " + name + ", which is not set");
            }
            return value;
        }
        if (raw.startsWith("file:")) {
            Path path = Path.of(raw.substring(5).trim());
            try {
                String content = Files.readString(path, StandardCharsets.UTF_8);
                int end = content.indexOf('\n');
                return (end >= 0 ? content.substring(0, end) : content).strip();
            } catch (IOException e) {
                throw fields.error(property, "names file " + path + ", which cannot be read (" + e.getMessage() + ")");
            }
        }
        return raw;
    }
}
