package org.dsload.core;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.MissingResourceException;
import java.util.ResourceBundle;

/**
 * Parses the text of an element's fields into typed values. Numbers and flags are kept as text
 * in the beans so that a malformed value (a typo, an unset {@code ${__P()}}) is reported here,
 * naming the element and the field as the GUI labels it, instead of silently becoming 0 or false.
 */
public final class Fields {
    private final String element;
    private final ResourceBundle labels;
    /** What a field is called in messages: "field" in a plan, "option" on a command line. */
    private final String fieldWord;

    /**
     * @param beanClass   the TestBean whose resource bundle holds the field labels
     * @param elementName the name the user gave the element in the plan
     */
    public Fields(Class<?> beanClass, String elementName) {
        this.labels = bundle(beanClass);
        this.fieldWord = "field";
        String kind = label("displayName", beanClass.getSimpleName());
        this.element = elementName == null || elementName.isBlank() || elementName.equals(kind)
                ? kind : kind + " '" + elementName + "'";
    }

    private Fields(String command) {
        this.labels = null;
        this.fieldWord = "option";
        this.element = command;
    }

    /**
     * The field's text, or {@code defaultValue} when it is empty: a plan saved before the field
     * existed leaves it so (JMeter 5.6 sets a property missing from the plan to "").
     */
    public static String orDefault(String raw, String defaultValue) {
        return raw == null || raw.isBlank() ? defaultValue : raw;
    }

    /**
     * The fields of a command line, whose properties are its options ({@code --password}): a
     * command that runs without JMeter on the class path cannot name a TestBean class.
     */
    public static Fields ofCommand(String command) {
        return new Fields(command);
    }

    private static ResourceBundle bundle(Class<?> beanClass) {
        try {
            return ResourceBundle.getBundle(beanClass.getName() + "Resources", Locale.ROOT);
        } catch (MissingResourceException e) {
            return null;
        }
    }

    private String label(String key, String fallback) {
        if (labels != null && labels.containsKey(key)) {
            return labels.getString(key);
        }
        return fallback;
    }

    /** The label of a bean property as the GUI shows it. */
    public String fieldLabel(String property) {
        return label(property + ".displayName", property);
    }

    /** A problem with one field, worded for the person who filled it in. */
    public ConfigException error(String property, String problem) {
        return new ConfigException(element + ": " + fieldWord + " '" + fieldLabel(property) + "' " + problem);
    }

    /** A problem with the element as a whole (for example the server it names cannot be reached). */
    public ConfigException error(String problem, Throwable cause) {
        return new ConfigException(element + ": " + problem, cause);
    }

    public String element() {
        return element;
    }

    public String text(String property, String raw) {
        return raw == null ? "" : raw.trim();
    }

    public String required(String property, String raw) {
        String value = text(property, raw);
        if (value.isEmpty()) {
            throw error(property, "must not be empty");
        }
        return value;
    }

    public int integer(String property, String raw, int min, int max) {
        long value = longValue(property, raw, min, max);
        return (int) value;
    }

    /**
     * A whole number in a field added after plans were saved: JMeter 5.6.3 hands a saved plan's
     * missing property to the element as empty text, which means the field's default here.
     */
    public int integer(String property, String raw, int min, int max, int whenEmpty) {
        return text(property, raw).isEmpty() ? whenEmpty : integer(property, raw, min, max);
    }

    /** A number, decimal point allowed; the caller checks its range. */
    public double number(String property, String raw) {
        String value = required(property, raw);
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw error(property, "must be a number, got '" + value + "'");
        }
    }

    public long longValue(String property, String raw, long min, long max) {
        String value = required(property, raw);
        long parsed;
        try {
            parsed = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw error(property, "must be a whole number" + range(min, max) + ", got '" + value + "'");
        }
        if (parsed < min || parsed > max) {
            throw error(property, "must be" + range(min, max) + ", got " + parsed);
        }
        return parsed;
    }

    private static String range(long min, long max) {
        if (max == Long.MAX_VALUE || max == Integer.MAX_VALUE) {
            return " of at least " + min;
        }
        return " from " + min + " to " + max;
    }

    public boolean flag(String property, String raw) {
        String value = required(property, raw).toLowerCase(Locale.ROOT);
        switch (value) {
            case "true":
            case "yes":
                return true;
            case "false":
            case "no":
                return false;
            default:
                throw error(property, "must be true or false, got '" + raw.trim() + "'");
        }
    }

    /** One of the given words, compared without case. */
    public String choice(String property, String raw, String... allowed) {
        String value = required(property, raw);
        for (String option : allowed) {
            if (option.equalsIgnoreCase(value)) {
                return option;
            }
        }
        throw error(property, "must be one of " + String.join(", ", allowed) + ", got '" + value + "'");
    }

    /**
     * A comma or whitespace separated list of {@code host[:port]}; IPv6 literals go in brackets
     * ({@code [::1]:6379}).
     */
    public List<HostPort> hostPorts(String property, String raw, int defaultPort) {
        String value = required(property, raw);
        List<HostPort> result = new ArrayList<>();
        for (String item : value.split("[,\\s]+")) {
            if (!item.isEmpty()) {
                result.add(hostPort(property, item, defaultPort));
            }
        }
        return result;
    }

    private HostPort hostPort(String property, String item, int defaultPort) {
        String host = item;
        String port = null;
        if (item.startsWith("[")) {
            int close = item.indexOf(']');
            if (close < 0) {
                throw error(property, "has an unclosed IPv6 bracket in '" + item + "'");
            }
            host = item.substring(1, close);
            if (close + 1 < item.length()) {
                if (item.charAt(close + 1) != ':') {
                    throw error(property, "expects host:port, got '" + item + "'");
                }
                port = item.substring(close + 2);
            }
        } else {
            int colon = item.lastIndexOf(':');
            if (colon >= 0 && item.indexOf(':') == colon) {
                host = item.substring(0, colon);
                port = item.substring(colon + 1);
            }
        }
        if (host.isEmpty()) {
            throw error(property, "has an empty host in '" + item + "'");
        }
        int portNumber = defaultPort;
        if (port != null) {
            try {
                portNumber = Integer.parseInt(port);
            } catch (NumberFormatException e) {
                throw error(property, "has a port that is not a number in '" + item + "'");
            }
            if (portNumber < 1 || portNumber > 65535) {
                throw error(property, "has port " + portNumber + " in '" + item + "': ports go from 1 to 65535");
            }
        }
        return new HostPort(host, portNumber);
    }

    /**
     * A comma or whitespace separated list of HTTP base URLs ({@code http://host:port/prefix}),
     * each ending with '/' so that API paths resolve below a proxy's prefix. A user name in a URL
     * is refused: credentials go in fields of their own, which are never logged.
     */
    public List<URI> baseUrls(String property, String raw) {
        List<URI> urls = new ArrayList<>();
        for (String part : required(property, raw).split("[,\\s]+")) {
            if (part.isBlank()) {
                continue;
            }
            URI uri;
            try {
                uri = new URI(part.trim());
            } catch (URISyntaxException e) {
                throw error(property, "has '" + part + "', which is not a URL: " + e.getReason());
            }
            if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
                throw error(property, "has '" + part + "': give http://host:port or https://host:port");
            }
            if (uri.getUserInfo() != null) {
                throw error(property, "has a user name in '" + uri.getHost() + "': use the User and Password fields");
            }
            String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
            urls.add(uri.resolve(path.endsWith("/") ? path : path + "/"));
        }
        if (urls.isEmpty()) {
            throw error(property, "is empty: give at least one http://host:port");
        }
        return urls;
    }

    /** A host name or address and a TCP port. */
    public record HostPort(String host, int port) {
        @Override
        public String toString() {
            return host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
        }
    }
}
