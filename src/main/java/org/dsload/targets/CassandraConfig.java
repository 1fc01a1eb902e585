package org.dsload.targets;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The files a Cassandra node needs beside its jars, which carry neither: a minimal
 * cassandra.yaml (everything under the node's folder, loopback only, no snapshots, no
 * bootstrap streaming) and a logback.xml writing INFO to the console, which the launcher sends
 * to the node's log file.
 */
final class CassandraConfig {
    private CassandraConfig() {
    }

    /** What differs between the nodes of a cluster; ports are the same on every node, as Cassandra requires. */
    record Node(String address, int nativePort, int storagePort, String seeds, Path dir, String clientAddress,
            boolean logins) {
        Node(String address, int nativePort, int storagePort, String seeds, Path dir) {
            this(address, nativePort, storagePort, seeds, dir, address, false);
        }

        Node(String address, int nativePort, int storagePort, String seeds, Path dir, String clientAddress) {
            this(address, nativePort, storagePort, seeds, dir, clientAddress, false);
        }
    }

    static Path writeYaml(Node node, String clusterName, int tokens) throws IOException {
        Path dir = node.dir();
        String yaml = String.join("\n", List.of(
                "cluster_name: '" + clusterName + "'",
                "num_tokens: " + tokens,
                "partitioner: org.apache.cassandra.dht.Murmur3Partitioner",
                "endpoint_snitch: SimpleSnitch",
                "seed_provider:",
                "  - class_name: org.apache.cassandra.locator.SimpleSeedProvider",
                "    parameters:",
                "      - seeds: \"" + node.seeds() + "\"",
                "listen_address: " + node.address(),
                "rpc_address: " + node.address(),
                // where the node tells clients to reach it: a fault proxy in front of it, for network faults
                "broadcast_rpc_address: " + node.clientAddress(),
                "storage_port: " + node.storagePort(),
                "native_transport_port: " + node.nativePort(),
                "start_native_transport: true",
                "auto_bootstrap: false",
                "data_file_directories:",
                "  - " + dir.resolve("data"),
                "commitlog_directory: " + dir.resolve("commitlog"),
                "saved_caches_directory: " + dir.resolve("saved_caches"),
                "hints_directory: " + dir.resolve("hints"),
                "cdc_raw_directory: " + dir.resolve("cdc_raw"),
                "commitlog_sync: periodic",
                "commitlog_sync_period: 10000ms",
                "auto_snapshot: false",
                "snapshot_before_compaction: false",
                "snapshot_on_duplicate_row_detection: false",
                // with logins: roles and permissions as a production cluster has them (superuser cassandra/cassandra)
                "authenticator: " + (node.logins() ? "PasswordAuthenticator" : "AllowAllAuthenticator"),
                "authorizer: " + (node.logins() ? "CassandraAuthorizer" : "AllowAllAuthorizer"),
                "role_manager: CassandraRoleManager",
                "dynamic_snitch: false",
                // Small caches and memtables: the node shares 2 cores and some GB with the load generator.
                "key_cache_size: 16MiB",
                "memtable_heap_space: 128MiB",
                "memtable_offheap_space: 128MiB",
                "concurrent_reads: 16",
                "concurrent_writes: 16",
                "concurrent_counter_writes: 16",
                "") );
        Path file = dir.resolve("conf/cassandra.yaml");
        Files.createDirectories(file.getParent());
        Files.writeString(file, yaml, StandardCharsets.UTF_8);
        return file;
    }

    static Path writeLogback(Path dir) throws IOException {
        String xml = """
                <configuration scan="false">
                  <appender name="CONSOLE" class="ch.qos.logback.core.ConsoleAppender">
                    <encoder>
                      <pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{1} %msg%n</pattern>
                    </encoder>
                  </appender>
                  <logger name="org.apache.cassandra.utils.SigarLibrary" level="ERROR"/>
                  <logger name="org.apache.cassandra.utils.NativeLibrary" level="ERROR"/>
                  <logger name="org.apache.cassandra.service.StartupChecks" level="ERROR"/>
                  <logger name="com.datastax.driver" level="WARN"/>
                  <root level="INFO">
                    <appender-ref ref="CONSOLE"/>
                  </root>
                </configuration>
                """;
        Path file = dir.resolve("conf/logback.xml");
        Files.createDirectories(file.getParent());
        Files.writeString(file, xml, StandardCharsets.UTF_8);
        return file;
    }
}
