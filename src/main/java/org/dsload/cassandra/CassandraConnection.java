package org.dsload.cassandra;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.apache.jmeter.gui.TestElementMetadata;
import org.dsload.core.ClientConfigElement;
import org.dsload.core.Errors;
import org.dsload.core.Fields;
import org.dsload.core.Fields.HostPort;
import org.dsload.core.Secrets;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.InvalidKeyspaceException;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.config.ProgrammaticDriverConfigLoaderBuilder;
import com.datastax.oss.driver.api.core.metadata.Node;

/**
 * Cassandra Session: one driver {@link CqlSession} built at test start from the fields, shared
 * by every thread, closed at test end. Every setting maps to a driver option
 * ({@link DefaultDriverOption}), so what the driver's documentation says of an option holds here;
 * Driver options passes any other option by its path.
 */
@TestElementMetadata(labelResource = "displayName")
public class CassandraConnection extends ClientConfigElement<CassandraClient> {
    private static final long serialVersionUID = 1L;
    static final int DEFAULT_PORT = 9042;
    static final String[] CONSISTENCY_LEVELS = {"ANY", "ONE", "TWO", "THREE", "QUORUM", "ALL", "LOCAL_ONE",
        "LOCAL_QUORUM", "EACH_QUORUM", "SERIAL", "LOCAL_SERIAL"};
    static final String[] SERIAL_LEVELS = {"SERIAL", "LOCAL_SERIAL"};

    private String contactPoints = "127.0.0.1:9042";
    private String localDatacenter = "datacenter1";
    private String keyspace = "";
    private String username = "";
    private String password = "";
    private String ssl = "false";
    private String sslHostnameValidation = "true";
    private String consistency = "LOCAL_ONE";
    private String serialConsistency = "SERIAL";
    private String requestTimeout = "2000";
    private String connectTimeout = "5000";
    private String poolLocalSize = "1";
    private String poolRemoteSize = "1";
    private String maxRequestsPerConnection = "1024";
    private String loadBalancing = "default";
    private String retryPolicy = "default";
    private String speculativeExecution = "none";
    private String speculativeDelay = "100";
    private String speculativeMax = "2";
    private String compression = "none";
    private String protocolVersion = "";
    private String driverOptions = "";
    private String recordGauges = "true";

    @Override
    protected CassandraClient open(Fields f) {
        List<HostPort> points = f.hostPorts("contactPoints", contactPoints, DEFAULT_PORT);
        String dc = f.required("localDatacenter", localDatacenter);
        String space = f.text("keyspace", keyspace);
        Duration timeout = Duration.ofMillis(f.integer("requestTimeout", requestTimeout, 1, Integer.MAX_VALUE));
        Duration connect = Duration.ofMillis(f.integer("connectTimeout", connectTimeout, 1, Integer.MAX_VALUE));

        ProgrammaticDriverConfigLoaderBuilder config = DriverConfigLoader.programmaticBuilder()
                .withString(DefaultDriverOption.SESSION_NAME, getVariableName())
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, timeout)
                .withString(DefaultDriverOption.REQUEST_CONSISTENCY,
                        f.choice("consistency", consistency, CONSISTENCY_LEVELS))
                .withString(DefaultDriverOption.REQUEST_SERIAL_CONSISTENCY,
                        f.choice("serialConsistency", serialConsistency, SERIAL_LEVELS))
                .withDuration(DefaultDriverOption.CONNECTION_CONNECT_TIMEOUT, connect)
                .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, connect)
                .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, connect)
                .withInt(DefaultDriverOption.CONNECTION_POOL_LOCAL_SIZE,
                        f.integer("poolLocalSize", poolLocalSize, 1, 1024))
                .withInt(DefaultDriverOption.CONNECTION_POOL_REMOTE_SIZE,
                        f.integer("poolRemoteSize", poolRemoteSize, 0, 1024))
                .withInt(DefaultDriverOption.CONNECTION_MAX_REQUESTS,
                        f.integer("maxRequestsPerConnection", maxRequestsPerConnection, 1, 32768))
                .withString(DefaultDriverOption.LOAD_BALANCING_POLICY_CLASS, policy(f, "loadBalancing", loadBalancing,
                        "default", "DefaultLoadBalancingPolicy", "dc-inferring", "DcInferringLoadBalancingPolicy"))
                .withString(DefaultDriverOption.RETRY_POLICY_CLASS, policy(f, "retryPolicy", retryPolicy,
                        "default", "DefaultRetryPolicy", "consistency-downgrading", "ConsistencyDowngradingRetryPolicy"))
                .withString(DefaultDriverOption.PROTOCOL_COMPRESSION, f.choice("compression", compression, "none", "lz4"))
                // The session fails at once when no contact point answers, instead of retrying in the background.
                .withBoolean(DefaultDriverOption.RECONNECT_ON_INIT, false)
                // Open connections are read by the generator's metrics (ConnectionCounting).
                .withStringList(DefaultDriverOption.METRICS_NODE_ENABLED, List.of("pool.open-connections"));
        CassandraDriverClose.promptly(config);

        String speculative = f.choice("speculativeExecution", speculativeExecution, "none", "constant");
        if (speculative.equals("constant")) {
            config.withString(DefaultDriverOption.SPECULATIVE_EXECUTION_POLICY_CLASS, "ConstantSpeculativeExecutionPolicy")
                    .withInt(DefaultDriverOption.SPECULATIVE_EXECUTION_MAX,
                            f.integer("speculativeMax", speculativeMax, 1, 100))
                    .withDuration(DefaultDriverOption.SPECULATIVE_EXECUTION_DELAY,
                            Duration.ofMillis(f.integer("speculativeDelay", speculativeDelay, 0, Integer.MAX_VALUE)));
        } else {
            config.withString(DefaultDriverOption.SPECULATIVE_EXECUTION_POLICY_CLASS, "NoSpeculativeExecutionPolicy");
        }
        String version = f.text("protocolVersion", protocolVersion);
        if (!version.isEmpty()) {
            config.withString(DefaultDriverOption.PROTOCOL_VERSION,
                    f.choice("protocolVersion", version, "V3", "V4", "V5", "V6"));
        }
        String user = f.text("username", username);
        String secret = Secrets.resolve(f, "password", password);
        if (!user.isEmpty()) {
            config.withString(DefaultDriverOption.AUTH_PROVIDER_CLASS, "PlainTextAuthProvider")
                    .withString(DefaultDriverOption.AUTH_PROVIDER_USER_NAME, user)
                    .withString(DefaultDriverOption.AUTH_PROVIDER_PASSWORD, secret);
        } else if (!secret.isEmpty()) {
            throw f.error("username", "must be given with a password");
        }
        if (f.flag("ssl", ssl)) {
            config.withString(DefaultDriverOption.SSL_ENGINE_FACTORY_CLASS, "DefaultSslEngineFactory")
                    .withBoolean(DefaultDriverOption.SSL_HOSTNAME_VALIDATION,
                            f.flag("sslHostnameValidation", sslHostnameValidation));
        }
        DriverOptions.apply(f, "driverOptions", driverOptions, config);

        List<InetSocketAddress> addresses = new ArrayList<>();
        for (HostPort point : points) {
            addresses.add(InetSocketAddress.createUnresolved(point.host(), point.port()));
        }
        String target = points.stream().map(HostPort::toString).collect(Collectors.joining(",")) + " (data centre " + dc + ")";
        boolean gauges = f.flag("recordGauges", recordGauges);
        RequestCounter counter = new RequestCounter(space);
        List<InetSocketAddress> contacts = resolved(f, addresses);
        CqlSessionBuilder builder = CqlSession.builder().withConfigLoader(config.build())
                .addContactPoints(contacts).withLocalDatacenter(dc).addRequestTracker(counter);
        if (!space.isEmpty()) {
            builder.withKeyspace(space);
        }
        CqlSession session;
        try {
            session = builder.build();
        } catch (InvalidKeyspaceException e) {
            throw f.error("keyspace", "names keyspace '" + space + "', which does not exist on " + target
                    + ": create it first, or leave Keyspace empty and qualify table names");
        } catch (RuntimeException e) {
            throw f.error("cannot connect to " + target + ": " + Errors.sentence(Errors.describe(CassandraErrors.telling(e)))
                    + ". " + CassandraErrors.startHint(e, !user.isEmpty()), e);
        }
        try {
            checkDatacenter(f, session, dc);
        } catch (RuntimeException e) {
            session.close();
            throw e;
        }
        CassandraClient client = new CassandraClient(session, target, timeout, counter);
        if (gauges) {
            client.recordGauges(CassandraGauges.start(f.element(), getVariableName(), config, contacts, dc, counter));
        }
        return client;
    }

    /**
     * A local data centre that no node is in leaves every query without a node to go to; say so
     * at start rather than with NoNodeAvailableException on every sample.
     */
    private static void checkDatacenter(Fields f, CqlSession session, String dc) {
        Set<String> seen = new TreeSet<>();
        for (Node node : session.getMetadata().getNodes().values()) {
            if (node.getDatacenter() != null) {
                seen.add(node.getDatacenter());
            }
        }
        if (!seen.isEmpty() && !seen.contains(dc)) {
            throw f.error("localDatacenter", "is '" + dc + "', but the cluster's nodes are in " + seen
                    + ": give one of those");
        }
    }

    private static List<InetSocketAddress> resolved(Fields f, List<InetSocketAddress> unresolved) {
        List<InetSocketAddress> result = new ArrayList<>();
        for (InetSocketAddress a : unresolved) {
            InetSocketAddress r = new InetSocketAddress(a.getHostString(), a.getPort());
            if (r.isUnresolved()) {
                throw f.error("contactPoints", "names host '" + a.getHostString() + "', which cannot be resolved");
            }
            result.add(r);
        }
        return result;
    }

    /** A short name for a built-in policy, or a class name as the driver takes it. */
    private static String policy(Fields f, String property, String raw, String... shortAndClass) {
        String value = f.required(property, raw);
        for (int i = 0; i < shortAndClass.length; i += 2) {
            if (shortAndClass[i].equalsIgnoreCase(value)) {
                return shortAndClass[i + 1];
            }
        }
        return value;
    }

    static DefaultConsistencyLevel level(String name) {
        return DefaultConsistencyLevel.valueOf(name);
    }

    public String getContactPoints() {
        return contactPoints;
    }

    public void setContactPoints(String contactPoints) {
        this.contactPoints = contactPoints;
    }

    public String getLocalDatacenter() {
        return localDatacenter;
    }

    public void setLocalDatacenter(String localDatacenter) {
        this.localDatacenter = localDatacenter;
    }

    public String getKeyspace() {
        return keyspace;
    }

    public void setKeyspace(String keyspace) {
        this.keyspace = keyspace;
    }

    public String getUsername() {
        return username;
    }

    public void setUsername(String username) {
        this.username = username;
    }

    public String getPassword() {
        return password;
    }

    public void setPassword(String password) {
        this.password = password;
    }

    public String getSsl() {
        return ssl;
    }

    public void setSsl(String ssl) {
        this.ssl = ssl;
    }

    public String getSslHostnameValidation() {
        return sslHostnameValidation;
    }

    public void setSslHostnameValidation(String sslHostnameValidation) {
        this.sslHostnameValidation = sslHostnameValidation;
    }

    public String getConsistency() {
        return consistency;
    }

    public void setConsistency(String consistency) {
        this.consistency = consistency;
    }

    public String getSerialConsistency() {
        return serialConsistency;
    }

    public void setSerialConsistency(String serialConsistency) {
        this.serialConsistency = serialConsistency;
    }

    public String getRequestTimeout() {
        return requestTimeout;
    }

    public void setRequestTimeout(String requestTimeout) {
        this.requestTimeout = requestTimeout;
    }

    public String getConnectTimeout() {
        return connectTimeout;
    }

    public void setConnectTimeout(String connectTimeout) {
        this.connectTimeout = connectTimeout;
    }

    public String getPoolLocalSize() {
        return poolLocalSize;
    }

    public void setPoolLocalSize(String poolLocalSize) {
        this.poolLocalSize = poolLocalSize;
    }

    public String getPoolRemoteSize() {
        return poolRemoteSize;
    }

    public void setPoolRemoteSize(String poolRemoteSize) {
        this.poolRemoteSize = poolRemoteSize;
    }

    public String getMaxRequestsPerConnection() {
        return maxRequestsPerConnection;
    }

    public void setMaxRequestsPerConnection(String maxRequestsPerConnection) {
        this.maxRequestsPerConnection = maxRequestsPerConnection;
    }

    public String getLoadBalancing() {
        return loadBalancing;
    }

    public void setLoadBalancing(String loadBalancing) {
        this.loadBalancing = loadBalancing;
    }

    public String getRetryPolicy() {
        return retryPolicy;
    }

    public void setRetryPolicy(String retryPolicy) {
        this.retryPolicy = retryPolicy;
    }

    public String getSpeculativeExecution() {
        return speculativeExecution;
    }

    public void setSpeculativeExecution(String speculativeExecution) {
        this.speculativeExecution = speculativeExecution;
    }

    public String getSpeculativeDelay() {
        return speculativeDelay;
    }

    public void setSpeculativeDelay(String speculativeDelay) {
        this.speculativeDelay = speculativeDelay;
    }

    public String getSpeculativeMax() {
        return speculativeMax;
    }

    public void setSpeculativeMax(String speculativeMax) {
        this.speculativeMax = speculativeMax;
    }

    public String getCompression() {
        return compression;
    }

    public void setCompression(String compression) {
        this.compression = compression;
    }

    public String getProtocolVersion() {
        return protocolVersion;
    }

    public void setProtocolVersion(String protocolVersion) {
        this.protocolVersion = protocolVersion;
    }

    public String getDriverOptions() {
        return driverOptions;
    }

    public void setDriverOptions(String driverOptions) {
        this.driverOptions = driverOptions;
    }

    public String getRecordGauges() {
        return recordGauges;
    }

    public void setRecordGauges(String recordGauges) {
        this.recordGauges = recordGauges;
    }
}
