package org.dsload.remote;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import org.dsload.process.Commands;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The key pair JMeter's RMI over SSL uses on the master and every slave: {@code rmi_keystore.jks}
 * with one key under the alias {@code rmi}, made by the JDK's keytool with the parameters of
 * JMeter's own {@code create-rmi-keystore} script (RSA 2048, valid 7 days).
 *
 * <p>Instead of JMeter's well-known {@code changeit}, each keystore gets a random password. It is
 * written only to {@code rmi_keystore.properties} beside the keystore (owner read/write only),
 * handed to keytool through its environment and to JMeter processes through {@code -q} (JMeter
 * logs the name of such a file, not its content), so it is never on a command line, in a log, on
 * the console or in the repository. A keystore copied without its password file is useless; the
 * two files together are the secret and travel together to remote slaves.
 */
public final class RmiKeystore {
    public static final String KEYSTORE = "rmi_keystore.jks";
    public static final String PASSWORD_FILE = "rmi_keystore.properties";
    /** Held while a process checks and makes the keystore. */
    static final String LOCK_FILE = "rmi_keystore.lock";
    public static final String ALIAS = "rmi";
    static final String PASSWORD_PROPERTY = "server.rmi.ssl.keystore.password";
    static final int VALIDITY_DAYS = 7;
    /** A keystore closer than this to its end is replaced, so a run never outlives its certificate. */
    static final Duration RENEW_BEFORE = Duration.ofDays(1);
    private static final Duration KEYTOOL_LIMIT = Duration.ofSeconds(60);
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private final Path keystore;
    private final Path passwordFile;

    private RmiKeystore(Path keystore, Path passwordFile) {
        this.keystore = keystore;
        this.passwordFile = passwordFile;
    }

    /**
     * The keystore in {@code dir}, made (or renewed when it is about to expire) if needed. A new
     * key would lock out the slaves started with the old one (recorded in {@link SlavesPidFile#FILE}
     * of the same folder): while they run, it is refused.
     */
    public static synchronized RmiKeystore ensure(Path dir, java.io.PrintStream console) throws IOException {
        Path absolute = dir.toAbsolutePath().normalize();
        Files.createDirectories(absolute);
        // one process at a time: two runs started together on a fresh folder would each make a key, and
        // the slaves of one would meet the keystore of the other with their own password
        try (java.nio.channels.FileChannel lock = java.nio.channels.FileChannel.open(absolute.resolve(LOCK_FILE),
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE);
             java.nio.channels.FileLock held = lock.lock()) {
            return ensureLocked(absolute, console);
        }
    }

    private static RmiKeystore ensureLocked(Path absolute, java.io.PrintStream console) throws IOException {
        RmiKeystore store = new RmiKeystore(absolute.resolve(KEYSTORE), absolute.resolve(PASSWORD_FILE));
        String why = "missing";
        if (Files.isRegularFile(store.keystore)) {
            if (!Files.isRegularFile(store.passwordFile)) {
                throw new IOException(store.keystore + " has no " + PASSWORD_FILE + " beside it: delete the keystore to "
                        + "have dsload make a new one, or write " + PASSWORD_PROPERTY + "=<its password> into "
                        + store.passwordFile);
            }
            Instant end = store.notAfter();
            if (Instant.now().plus(RENEW_BEFORE).isBefore(end)) {
                return store;
            }
            why = "about to expire (" + end + ")";
            console.println("dsload: the RMI keystore " + store.keystore + " expires " + end + "; making a new one");
        }
        refuseWhileSlavesUseIt(absolute, store.keystore, why);
        store.create();
        console.println("dsload: made the RMI keystore " + store.keystore + " (password in " + store.passwordFile
                + "); remote slaves need a copy of both files");
        return store;
    }

    private static void refuseWhileSlavesUseIt(Path dir, Path keystore, String why) throws IOException {
        List<SlavesPidFile.Entry> running = SlavesPidFile.running(dir);
        if (!running.isEmpty()) {
            String slaves = String.join(", ", running.stream().map(e -> e.address() + " (pid " + e.pid() + ")").toList());
            throw new IOException("the RMI keystore " + keystore + " is " + why + ", and the slaves started with it still "
                    + "run: " + slaves + ". A new key would lock them out (JMeter's SSLHandshakeException). Restart them, "
                    + "which makes a new keystore: dsload slaves stop --remote-dir " + dir + ", then dsload slaves start "
                    + "--remote-dir " + dir);
        }
    }

    /** An existing keystore, as {@code dsload slaves} on a slave machine uses the copies it was given. */
    public static RmiKeystore existing(Path dir) throws IOException {
        Path absolute = dir.toAbsolutePath().normalize();
        RmiKeystore store = new RmiKeystore(absolute.resolve(KEYSTORE), absolute.resolve(PASSWORD_FILE));
        if (!Files.isRegularFile(store.keystore) || !Files.isRegularFile(store.passwordFile)) {
            throw new IOException("no " + KEYSTORE + " and " + PASSWORD_FILE + " in " + absolute
                    + ": copy both from the master's remote-servers/ folder");
        }
        return store;
    }

    public Path keystore() {
        return keystore;
    }

    /** The properties file holding the password, to pass to JMeter with {@code -q}. */
    public Path passwordFile() {
        return passwordFile;
    }

    /** The non-secret settings naming this keystore, for a JMeter process. */
    public Map<String, String> properties() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("server.rmi.ssl.keystore.file", keystore.toString());
        p.put("server.rmi.ssl.truststore.file", keystore.toString());
        p.put("server.rmi.ssl.keystore.alias", ALIAS);
        return p;
    }

    Instant notAfter() throws IOException {
        char[] password = password();
        try {
            KeyStore ks = KeyStore.getInstance(keystore.toFile(), password);
            X509Certificate cert = (X509Certificate) ks.getCertificate(ALIAS);
            if (cert == null) {
                throw new IOException(keystore + " has no key under the alias '" + ALIAS + "' that JMeter looks for");
            }
            return cert.getNotAfter().toInstant();
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot read " + keystore + " with the password in " + passwordFile + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * A TLS context that presents this keystore's key and trusts its certificate, as both ends of
     * dsload's RMI connections do: what a client outside JMeter (the runner fetching a slave's
     * recordings) needs to be let in by a jmeter-server.
     */
    public SSLContext clientContext() throws IOException {
        char[] password = password();
        try {
            KeyStore ks = KeyStore.getInstance(keystore.toFile(), password);
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(ks, password);
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(ks);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys.getKeyManagers(), trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot use " + keystore + " for TLS: " + e.getMessage(), e);
        }
    }

    private char[] password() throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(passwordFile)) {
            p.load(in);
        }
        String value = p.getProperty(PASSWORD_PROPERTY);
        if (value == null || value.isEmpty()) {
            throw new IOException(passwordFile + " has no " + PASSWORD_PROPERTY);
        }
        return value.toCharArray();
    }

    private void create() throws IOException {
        Files.deleteIfExists(keystore);
        Files.deleteIfExists(passwordFile);
        byte[] random = new byte[24];
        new SecureRandom().nextBytes(random);
        String password = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        String variable = "DSLOAD_RMI_STOREPASS";
        List<String> command = List.of(keytool().toString(), "-genkeypair", "-keyalg", "RSA",
                "-keysize", "2048", "-alias", ALIAS, "-validity", Integer.toString(VALIDITY_DAYS),
                "-dname", "CN=" + ALIAS + ", OU=dsload", "-keystore", keystore.toString(),
                "-storepass:env", variable);
        Commands.Result result;
        try {
            result = Commands.run(command, Map.of(variable, password), KEYTOOL_LIMIT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while keytool made " + keystore, e);
        }
        if (result.exit() != 0 || !Files.isRegularFile(keystore)) {
            throw new IOException("keytool could not make " + keystore + ": " + result.output().trim());
        }
        ownerOnly(keystore);
        writePrivately(passwordFile, PASSWORD_PROPERTY + "=" + password + "\n");
    }

    private static void writePrivately(Path file, String text) throws IOException {
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        } catch (UnsupportedOperationException notPosix) {
            Files.createFile(file);
        } catch (FileAlreadyExistsException e) {
            ownerOnly(file);
        }
        try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.TRUNCATE_EXISTING)) {
            out.write(("# RMI keystore password for JMeter (-q this file); keep private, copy with "
                    + KEYSTORE + "\n").getBytes(StandardCharsets.ISO_8859_1));
            out.write(text.getBytes(StandardCharsets.ISO_8859_1));
        }
    }

    private static void ownerOnly(Path file) throws IOException {
        try {
            Files.setPosixFilePermissions(file, OWNER_ONLY);
        } catch (UnsupportedOperationException notPosix) {
            // other file systems: permissions are the user's business
        }
    }

    static Path keytool() {
        Path tool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        return Files.isExecutable(tool) ? tool : Path.of("keytool");
    }
}
