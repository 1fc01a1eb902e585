package org.dsload.run;

import java.util.regex.Pattern;

/**
 * Property names whose values are secrets: passwords, tokens, keys that open something. Their
 * literal values are masked in a run's record and refused in a distributed run, where JMeter
 * logs every property it sends; names that merely contain "key" (keyspace, key_prefix, keys) are
 * no secrets.
 */
final class SecretNames {
    private static final Pattern SECRET = Pattern.compile("(?i).*(password|passwd|passphrase|secret|token|credential"
            + "|api[._-]?key|access[._-]?key|private[._-]?key).*|(.*[._-])?(pass|pwd)([._-].*)?");

    private SecretNames() {
    }

    static boolean isSecret(String propertyName) {
        return SECRET.matcher(propertyName).matches();
    }

    /** A literal value of a secret: not a reference (env:NAME, file:/path) read where it is used, and not empty. */
    static boolean isLiteralSecret(String propertyName, String value) {
        return isSecret(propertyName) && !value.isEmpty() && !value.startsWith("env:") && !value.startsWith("file:");
    }
}
