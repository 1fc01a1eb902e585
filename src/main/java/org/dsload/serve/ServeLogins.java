package org.dsload.serve;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Locale;

import org.dsload.targets.EmbeddedCassandra;
import org.dsload.targets.EmbeddedRedis;
import org.dsload.targets.Placement;

import com.datastax.oss.driver.api.core.CqlSession;

import redis.clients.jedis.Jedis;

/**
 * The logins of targets served with {@code --logins}: the password is kept in a file of the
 * target's folder that its owner alone can read, and the plans get {@code env:DSLOAD_<TARGET>_PASSWORD}
 * (JMeter logs every -J value, dsload's elements read the variable): the password itself is never
 * printed.
 */
final class ServeLogins {
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A user, its password, and where the password is kept. */
    record Login(String user, String password, Served.Secret secret) {
        /** The property value that names the password: {@code env:DSLOAD_REDIS_PASSWORD}. */
        String reference() {
            return "env:" + secret.variable();
        }
    }

    private ServeLogins() {
    }

    /** A new random password for {@code user} of the target. */
    static Login create(Placement placement, String target, String user) {
        byte[] random = new byte[18];
        RANDOM.nextBytes(random);
        return existing(placement, target, user, Base64.getUrlEncoder().withoutPadding().encodeToString(random));
    }

    /**
     * A role of the node for the plans, with the login's password (made again, or given the new
     * password, on a node whose data is kept), allowed what the shipped plans do (create their
     * keyspace and tables): a user of its own rather than the default superuser, whose password
     * everybody knows.
     */
    static void createRole(EmbeddedCassandra node, Login login) {
        // the password is base64url: no quote can end the literal
        try (CqlSession session = node.session(null)) {
            boolean exists = session.execute("SELECT role FROM system_auth.roles WHERE role = ?", login.user()).one() != null;
            session.execute((exists ? "ALTER ROLE " + login.user() + " WITH" : "CREATE ROLE " + login.user()
                    + " WITH LOGIN = true AND SUPERUSER = true AND") + " PASSWORD = '" + login.password() + "'");
        }
    }

    private static Login existing(Placement placement, String target, String user, String password) {
        String variable = "DSLOAD_" + target.toUpperCase(Locale.ROOT).replace('-', '_') + "_PASSWORD";
        Path file = placement.folder("", target).resolve(target + ".password");
        try {
            Files.createDirectories(file.getParent());
            Files.deleteIfExists(file);
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(file, password + "\n", StandardCharsets.UTF_8, StandardOpenOption.TRUNCATE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the " + target + " password in " + file + ": " + e.getMessage(), e);
        }
        return new Login(user, password, new Served.Secret(variable, file.toAbsolutePath()));
    }

    /**
     * Makes a running redis-server require the password (CONFIG SET, so that it never stands on
     * the server's command line, which every local user can read).
     */
    static void requirePassword(EmbeddedRedis redis, String password) {
        try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
            jedis.configSet("requirepass", password);
        }
    }
}
