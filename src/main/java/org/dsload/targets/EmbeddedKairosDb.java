package org.dsload.targets;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.dsload.process.Folders;
import org.dsload.process.ManagedProcess;
import org.dsload.process.ProcFs;

/**
 * A real KairosDB 1.3 server in a JVM of its own (Java 17, {@link CassandraJava}), its class path
 * resolved by Maven from {@code embedded-targets/kairosdb/pom.xml} ({@link TargetClasspath}), on
 * the H2 datastore or on a Cassandra node.
 *
 * <p>Each instance has a folder ({@code target/embedded/kairosdb-<port>/} by default) with a configuration
 * folder of its own ({@code conf/}: KairosDB also loads every .conf, .properties and .json file
 * beside the file it is given), its log, H2 database and query cache. The HTTP API listens on
 * 127.0.0.1 on a free port, telnet is off, ingested points go through the memory queue (the file
 * queue would take 160 MB of disk). Ready means {@code /api/v1/version} answered and a point
 * written was read back. KairosDB keeps its JVM alive when a service fails to start: the start-up
 * is watched for that in the log, and the process is killed when it never becomes ready.
 */
public final class EmbeddedKairosDb implements AutoCloseable {
    /** Generous: on a loaded 2-core machine start-up was seen to take 61 s (8.5 s when idle). */
    static final Duration READY = Duration.ofSeconds(180);
    private static final Pattern SAMPLE_SIZE = Pattern.compile("\"sample_size\"\\s*:\\s*(\\d+)");
    private static final List<String> START_FAILURES = List.of("Failed starting up services", "Failed to startup");
    /** Old Guice and Jersey reflect into these JDK packages; Java 17 refuses without the opens. */
    private static final List<String> OPENS = List.of(
            "--add-opens", "java.base/java.lang=ALL-UNNAMED",
            "--add-opens", "java.base/java.util=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens", "java.base/java.io=ALL-UNNAMED");

    private final String host = "127.0.0.1";
    private final int port;
    private final Path dir;
    private final String datastore;
    private final String user;
    private final String password;
    private final List<String> command;
    private final boolean keepData;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private ManagedProcess process;
    private long launchedNanos;
    private Duration startTime;

    private EmbeddedKairosDb(Options options) throws IOException {
        this.port = options.placement.ports().pick("kairosdb.http", host);
        this.dir = options.placement.folder("kairosdb", "kairosdb-" + port);
        this.keepData = options.placement.keepData();
        this.datastore = options.cassandra == null ? "h2" : "cassandra";
        this.user = options.user;
        this.password = options.password;
        if (!keepData) {
            Folders.deleteTree(dir);
        }
        Path conf = Files.createDirectories(dir.resolve("conf"));
        Files.writeString(conf.resolve("kairosdb.conf"), config(options), StandardCharsets.UTF_8);
        Path logback = dir.resolve("logback.xml");
        Files.writeString(logback, logback(dir.resolve("kairosdb.log")), StandardCharsets.UTF_8);
        this.command = new ArrayList<>();
        command.add(CassandraJava.executable().toString());
        command.addAll(List.of("-Xms" + options.heap, "-Xmx" + options.heap, "-XX:+UseSerialGC"));
        command.addAll(OPENS);
        command.addAll(TargetClasspath.serverOptions());
        command.add("-Djava.io.tmpdir=" + Files.createDirectories(dir.resolve("tmp")));
        command.add("-Dlogback.configurationFile=" + logback.toUri());
        if (user != null) {
            command.add("-Djava.security.auth.login.config=" + writeAuth(dir, user, password));
        }
        command.addAll(List.of("-cp", TargetClasspath.joined(TargetClasspath.KAIROSDB), "org.kairosdb.core.Main",
                "-c", "run", "-p", conf.resolve("kairosdb.conf").toString()));
    }

    /** What to start: the H2 datastore unless a Cassandra node is given. */
    public static final class Options {
        private EmbeddedCassandra cassandra;
        private String keyspace;
        private String user;
        private String password;
        private String heap = System.getProperty("dsload.kairosdb.heap", "384m");
        private Placement placement = Placement.scratch();

        /** The Cassandra datastore on this node, in a keyspace of the instance's own. */
        public Options cassandra(EmbeddedCassandra node) {
            this.cassandra = node;
            return this;
        }

        /** HTTP basic authentication for every API call but the health checks (Jetty JAAS, a property file). */
        public Options basicAuth(String userName, String secret) {
            this.user = userName;
            this.password = secret;
            return this;
        }

        public Options heap(String size) {
            this.heap = size;
            return this;
        }

        /**
         * Its port {@code kairosdb.http} and folder {@code kairosdb}; with kept data, the keyspace on
         * Cassandra is {@code kairosdb} (else one named after the port).
         */
        public Options placement(Placement where) {
            this.placement = where;
            if (where.keepData()) {
                this.keyspace = "kairosdb";
            }
            return this;
        }

        public EmbeddedKairosDb start() {
            return EmbeddedKairosDb.start(this);
        }
    }

    public static Options options() {
        return new Options();
    }

    /** KairosDB on H2, ready when this returns. */
    public static EmbeddedKairosDb start() {
        return options().start();
    }

    /** KairosDB on the Cassandra datastore of a running node, ready when this returns. */
    public static EmbeddedKairosDb startOnCassandra(EmbeddedCassandra node) {
        return options().cassandra(node).start();
    }

    private static EmbeddedKairosDb start(Options options) {
        EmbeddedKairosDb kairos;
        try {
            kairos = new EmbeddedKairosDb(options);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare a KairosDB folder: " + e.getMessage(), e);
        }
        kairos.launch();
        try {
            kairos.awaitReady();
            return kairos;
        } catch (RuntimeException e) {
            kairos.close();
            throw e;
        }
    }

    private String config(Options options) {
        StringBuilder conf = new StringBuilder("kairosdb: {\n");
        conf.append("  service.telnet: \"<disabled>\"\n");
        conf.append("  jetty.port: ").append(port).append('\n');
        conf.append("  jetty.address: \"").append(host).append("\"\n");
        conf.append("  queue_processor.class: \"org.kairosdb.core.queue.MemoryQueueProcessor\"\n");
        conf.append("  query_cache.cache_dir: ").append(quoted(dir.resolve("cache"))).append('\n');
        // KairosDB's own metrics (queries waiting, request times, points ingested) every second,
        // for the server gauges dsload records beside the load.
        conf.append("  reporter.schedule: \"* * * * * ?\"\n");
        if (options.user != null) {
            conf.append("  jetty.auth_module_name: \"dsloadBasicAuth\"\n");
        }
        if (options.cassandra == null) {
            conf.append("  service.datastore: \"org.kairosdb.datastore.h2.H2Module\"\n");
            conf.append("  datastore.h2.database_path: ").append(quoted(dir.resolve("h2db"))).append('\n');
        } else {
            String keyspace = options.keyspace != null ? options.keyspace : "kairosdb_" + port;
            conf.append("  service.datastore: \"org.kairosdb.datastore.cassandra.CassandraModule\"\n");
            conf.append("  datastore.cassandra.write_cluster.cql_host_list: [\"").append(options.cassandra.address())
                    .append("\"]\n");
            conf.append("  datastore.cassandra.write_cluster.keyspace: \"").append(keyspace).append("\"\n");
            conf.append("  datastore.cassandra.write_cluster.write_consistency_level: \"ONE\"\n");
            // COMPACT STORAGE is refused where Cassandra's compact_tables_enabled guardrail is off
            // (4.1 and later make that possible): KairosDB reads and writes the plain table the same way.
            conf.append("  datastore.cassandra.table_create_with.data_points: \"\"\n");
        }
        conf.append("}\n");
        return conf.toString();
    }

    private static String quoted(Path path) {
        return "\"" + path.toString().replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static String logback(Path log) {
        return "<configuration>\n"
                + "  <appender name=\"file\" class=\"ch.qos.logback.core.FileAppender\">\n"
                + "    <file>" + log + "</file>\n"
                + "    <encoder><pattern>%d{HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n</pattern></encoder>\n"
                + "  </appender>\n"
                // The Cassandra driver warns about every slow or paged request: megabytes in a minute.
                + "  <logger name=\"com.datastax\" level=\"ERROR\"/>\n"
                + "  <logger name=\"com.mchange\" level=\"WARN\"/>\n"
                + "  <root level=\"INFO\"><appender-ref ref=\"file\"/></root>\n"
                + "</configuration>\n";
    }

    /** A JAAS configuration whose property file holds the one user; both outside conf/, which KairosDB reads. */
    private static Path writeAuth(Path dir, String user, String password) throws IOException {
        Path props = dir.resolve("auth.props");
        Files.writeString(props, user + ": " + password + "\n", StandardCharsets.UTF_8);
        Path jaas = dir.resolve("jaas.conf");
        Files.writeString(jaas, "dsloadBasicAuth {\n  org.eclipse.jetty.jaas.spi.PropertyFileLoginModule required\n"
                + "  file=" + quoted(props) + ";\n};\n", StandardCharsets.UTF_8);
        return jaas;
    }

    private void launch() {
        launchedNanos = System.nanoTime();
        startTime = null;
        if (process == null) {
            process = ManagedProcess.start("kairosdb-" + datastore + ":" + port, command, dir, dir.resolve("kairosdb.out"));
        } else {
            process.restart();
        }
    }

    private void awaitReady() {
        long deadline = System.nanoTime() + READY.toNanos();
        process.await(() -> answersVersion(), READY, "/api/v1/version on " + url());
        Duration left = Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
        long stamp = System.currentTimeMillis();
        process.await(() -> writesAndReadsBack(stamp), left, "a point written to " + url() + " to be read back");
        startTime = Duration.ofNanos(System.nanoTime() - launchedNanos);
    }

    private boolean answersVersion() {
        failIfStartFailed();
        HttpResponse<String> r = call("GET", "/api/v1/version", null);
        return r.statusCode() == 200 && r.body().contains("KairosDB");
    }

    /** KairosDB logs a failed service and carries on with a JVM that will never serve. */
    private void failIfStartFailed() {
        for (Path log : List.of(dir.resolve("kairosdb.log"), dir.resolve("kairosdb.out"))) {
            try {
                if (Files.isRegularFile(log)) {
                    String text = Files.readString(log, StandardCharsets.UTF_8);
                    for (String failure : START_FAILURES) {
                        if (text.contains(failure)) {
                            throw new IllegalStateException("KairosDB on port " + port + " failed to start (\"" + failure
                                    + "\"); end of " + log + ":\n" + tail(text, 40));
                        }
                    }
                }
            } catch (IOException e) {
                // not written yet
            }
        }
    }

    private static String tail(String text, int lines) {
        String[] all = text.split("\n");
        return String.join("\n", List.of(all).subList(Math.max(0, all.length - lines), all.length));
    }

    private boolean writesAndReadsBack(long stamp) {
        failIfStartFailed();
        String point = "[{\"name\":\"dsload.embedded.ready\",\"timestamp\":" + stamp
                + ",\"value\":1,\"tags\":{\"host\":\"embedded\"}}]";
        if (call("POST", "/api/v1/datapoints", point).statusCode() != 204) {
            return false;
        }
        return count("dsload.embedded.ready", stamp, stamp) == 1;
    }

    /**
     * The number of points KairosDB holds for a metric in a time range (both ends included), read
     * with a count query; -1 when the query fails.
     */
    public long count(String metric, long fromMillis, long toMillis) {
        String query = String.format(Locale.ROOT, "{\"start_absolute\":%d,\"end_absolute\":%d,\"metrics\":[{\"name\":\"%s\","
                + "\"aggregators\":[{\"name\":\"count\",\"sampling\":{\"value\":100,\"unit\":\"years\"}}]}]}",
                fromMillis, toMillis, metric);
        HttpResponse<String> r = call("POST", "/api/v1/datapoints/query", query);
        if (r.statusCode() != 200) {
            return -1;
        }
        Matcher m = SAMPLE_SIZE.matcher(r.body());
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    /** A request to the API, authenticated when the instance is; for tests that check behind the elements' back. */
    public HttpResponse<String> call(String method, String path, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url() + path)).timeout(Duration.ofSeconds(20))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (user != null) {
            request.header("Authorization", "Basic " + Base64.getEncoder()
                    .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
        }
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** The base URL, http://127.0.0.1:port, as the KairosDB connection element takes it. */
    public String url() {
        return "http://" + host + ":" + port;
    }

    public int port() {
        return port;
    }

    /** h2 or cassandra. */
    public String datastore() {
        return datastore;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isRunning() {
        return process != null && process.isAlive();
    }

    public Path log() {
        return dir.resolve("kairosdb.log");
    }

    /** From launch to the first point read back, or null before the server was ready. */
    public Duration startTime() {
        return startTime;
    }

    /** Resident memory of the server's JVM in bytes (from /proc), or -1 where that cannot be read. */
    public long residentBytes() {
        return ProcFs.residentBytes(pid());
    }

    /**
     * SIGSTOP: connections are accepted by the kernel, nothing is answered. Returns once every
     * thread of the server is stopped: a write sent before that could still be answered.
     */
    public void pause() {
        process.pause();
    }

    public void resume() {
        process.resume();
    }

    /** Starts the server again on the same port and data after {@link #stop()}. */
    public void restart() {
        launch();
        awaitReady();
    }

    /** SIGTERM: KairosDB flushes its queue and stops its services. */
    public void stop() {
        process.stop(Duration.ofSeconds(20));
    }

    /** Stops the server and deletes its data (unless its placement keeps it), keeping its configuration and log. */
    @Override
    public void close() {
        if (process != null) {
            process.stop(Duration.ofSeconds(10));
        }
        if (keepData) {
            return;
        }
        for (String data : List.of("h2db", "cache", "tmp", "queue")) {
            try {
                Folders.deleteTree(dir.resolve(data));
            } catch (IOException e) {
                // the next instance in this folder empties it anyway
            }
        }
    }

    @Override
    public String toString() {
        return "KairosDB (" + datastore + ") at " + url();
    }
}
