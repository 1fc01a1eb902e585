package org.dsload.targets;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.dsload.process.ManagedProcess;

/**
 * A real InfluxDB 1.x server ({@code influxd} from Debian's {@code influxdb} package) on loopback
 * ports, data in its folder ({@link Placement}), no usage reporting, no internal monitoring database.
 * Where its data is not kept, its write-ahead log is in memory ({@link MemoryFolder}): influxd syncs
 * the log on every write, and on this machine's shared disk the syncs, not the server, set the
 * latency (vegeta at 5,000/s: p99 174-286 ms with the log on disk, 4.6-6.9 ms in memory).
 * The binary is {@code -Ddsload.influxd=<path>}, else {@code influxd} on the PATH or in
 * /usr/bin.
 */
public final class EmbeddedInfluxDb implements AutoCloseable {
    /** CI sets this to true: then a missing influxd fails the InfluxDB tests instead of skipping them. */
    public static final String REQUIRED_ENV = "DSLOAD_REQUIRE_INFLUXDB";
    private static final Duration READY = Duration.ofSeconds(30);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final int port;
    private final ManagedProcess process;
    private final Optional<MemoryFolder> memoryWal;

    private EmbeddedInfluxDb(int port, ManagedProcess process, Optional<MemoryFolder> memoryWal) {
        this.port = port;
        this.process = process;
        this.memoryWal = memoryWal;
    }

    /** The influxd binary, if one is installed. */
    public static Optional<Path> binary() {
        String configured = System.getProperty("dsload.influxd");
        if (configured != null && !configured.isBlank()) {
            return Optional.of(Path.of(configured)).filter(Files::isExecutable);
        }
        for (String dir : (System.getenv().getOrDefault("PATH", "") + ":/usr/bin:/usr/local/bin").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "influxd"))) {
                return Optional.of(Path.of(dir, "influxd"));
            }
        }
        return Optional.empty();
    }

    public static String missingMessage() {
        return "no influxd (InfluxDB 1.x) is installed: on Debian apt-get install influxdb, or name one with "
                + "-Ddsload.influxd=<path>";
    }

    public static EmbeddedInfluxDb start() {
        return start(Map.of());
    }

    /**
     * @param dataSettings extra settings of the {@code [data]} section, such as
     *                     {@code cache-max-memory-size} (values as TOML: numbers or quoted text)
     */
    public static EmbeddedInfluxDb start(Map<String, String> dataSettings) {
        return start(dataSettings, Placement.scratch());
    }

    /** @param httpSettings extra settings of the {@code [http]} section, such as {@code auth-enabled = true} */
    public static EmbeddedInfluxDb start(Map<String, String> dataSettings, Map<String, String> httpSettings) {
        return start(dataSettings, httpSettings, Placement.scratch());
    }

    /** On the placement's ports {@code influxdb.http} and {@code influxdb.rpc}, in its folder {@code influxdb}. */
    public static EmbeddedInfluxDb start(Map<String, String> dataSettings, Placement placement) {
        return start(dataSettings, Map.of(), placement);
    }

    private static EmbeddedInfluxDb start(Map<String, String> dataSettings, Map<String, String> httpSettings,
            Placement placement) {
        Path influxd = binary().orElseThrow(() -> new IllegalStateException(missingMessage()));
        int http = placement.ports().pick("influxdb.http", "127.0.0.1");
        int rpc = placement.ports().pick("influxdb.rpc", "127.0.0.1");
        Path dir = placement.folder("influxdb", "influxdb-" + http);
        // data not kept: the write-ahead log, synced on every write, in memory (MemoryFolder says why)
        Optional<MemoryFolder> memoryWal = placement.keepData() ? Optional.empty()
                : MemoryFolder.create("influxdb-wal-" + http);
        Path wal = memoryWal.map(MemoryFolder::path).orElse(dir.resolve("wal"));
        ManagedProcess process;
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("influxdb.conf"), config(dir, wal, http, rpc, dataSettings, httpSettings),
                    StandardCharsets.UTF_8);
            process = ManagedProcess.start("influxd:" + http,
                    List.of(influxd.toString(), "run", "-config", dir.resolve("influxdb.conf").toString()), dir,
                    dir.resolve("influxd.log"));
        } catch (IOException e) {
            memoryWal.ifPresent(MemoryFolder::close);
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            memoryWal.ifPresent(MemoryFolder::close);
            throw e;
        }
        EmbeddedInfluxDb db = new EmbeddedInfluxDb(http, process, memoryWal);
        try {
            process.await(db::pingAnswers, READY, "GET /ping on 127.0.0.1:" + http + " to answer 204");
        } catch (RuntimeException e) {
            process.close();
            memoryWal.ifPresent(MemoryFolder::close);
            throw e;
        }
        return db;
    }

    private static String config(Path dir, Path wal, int http, int rpc, Map<String, String> dataSettings,
            Map<String, String> httpSettings) {
        StringBuilder data = new StringBuilder();
        dataSettings.forEach((k, v) -> data.append("  ").append(k).append(" = ").append(v).append('\n'));
        StringBuilder httpExtra = new StringBuilder();
        httpSettings.forEach((k, v) -> httpExtra.append("  ").append(k).append(" = ").append(v).append('\n'));
        return String.join("\n",
                "reporting-disabled = true",
                "bind-address = \"127.0.0.1:" + rpc + "\"",
                "[meta]",
                "  dir = \"" + dir.resolve("meta") + "\"",
                "  logging-enabled = false",
                "[data]",
                "  dir = \"" + dir.resolve("data") + "\"",
                "  wal-dir = \"" + wal + "\"",
                "  query-log-enabled = false",
                "  wal-fsync-delay = \"0s\"",
                data.toString(),
                "[monitor]",
                "  store-enabled = false",
                "[http]",
                "  enabled = true",
                "  bind-address = \"127.0.0.1:" + http + "\"",
                "  log-enabled = false",
                "  pprof-enabled = false",
                httpExtra.toString(),
                "[logging]",
                "  level = \"warn\"",
                "  suppress-logo = true",
                "[subscriber]",
                "  enabled = false",
                "[continuous_queries]",
                "  enabled = false",
                "");
    }

    private boolean pingAnswers() {
        return send(HttpRequest.newBuilder(uri("/ping")).GET()).statusCode() == 204;
    }

    /** Runs an InfluxQL statement and returns the JSON answer. */
    public String query(String database, String statement) {
        String path = "/query?" + (database == null ? "" : "db=" + encode(database) + "&") + "q=" + encode(statement);
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.noBody()));
        if (response.statusCode() != 200) {
            throw new IllegalStateException(statement + " answered " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }

    /**
     * A figure of the HTTP service's own statistics in {@code /debug/vars}: {@code writeReq} (write
     * requests), {@code pointsWrittenOK} (points written) ...
     */
    public long httpd(String figure) {
        String vars = send(HttpRequest.newBuilder(uri("/debug/vars")).GET()).body();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"" + figure + "\":(\\d+)").matcher(
                vars.substring(vars.indexOf("\"httpd\"")));
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return HTTP.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    public long pid() {
        return process.pid();
    }

    public String host() {
        return "127.0.0.1";
    }

    public int port() {
        return port;
    }

    /** Freezes the server (SIGSTOP): connections stay open, nothing is answered; returns once the server is stopped. */
    public void pause() {
        process.pause();
    }

    public void resume() {
        process.resume();
    }

    @Override
    public void close() {
        try {
            process.stop(Duration.ofSeconds(10));
        } finally {
            memoryWal.ifPresent(MemoryFolder::close);
        }
    }

    /** Where the server keeps its write-ahead log in memory, if it does (its data is not kept). */
    public Optional<Path> memoryWal() {
        return memoryWal.map(MemoryFolder::path);
    }
}
