package org.dsload.cassandra;

import java.util.Locale;

import org.dsload.core.Fields;

import com.datastax.oss.driver.api.core.config.DriverOption;
import com.datastax.oss.driver.api.core.config.ProgrammaticDriverConfigLoaderBuilder;

/**
 * Driver options given by their path in the driver's reference configuration, one
 * {@code path = value} per line ({@code advanced.heartbeat.interval = 10 seconds}). Values are
 * passed as text; the driver's configuration library converts text to numbers, booleans and
 * durations when the option is read. Lines starting with # are comments.
 */
final class DriverOptions {
    private DriverOptions() {
    }

    static void apply(Fields f, String property, String text, ProgrammaticDriverConfigLoaderBuilder config) {
        if (text == null) {
            return;
        }
        for (String raw : text.split("\\R")) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq <= 0) {
                throw f.error(property, "expects 'path = value' lines, got '" + line + "'");
            }
            String path = line.substring(0, eq).strip();
            String value = line.substring(eq + 1).strip();
            if (!path.matches("[a-z0-9_.\\-]+")) {
                throw f.error(property, "has '" + path + "', which is not a driver option path "
                        + "(lower case words separated by dots, e.g. advanced.heartbeat.interval)");
            }
            if (path.toLowerCase(Locale.ROOT).contains("password")) {
                throw f.error(property, "must not carry passwords; use the Password field, which takes env: and file:");
            }
            DriverOption option = () -> path;
            config.withString(option, unquote(value));
        }
    }

    private static String unquote(String value) {
        if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
            return value.substring(1, value.length() - 1);
        }
        return value;
    }
}
