package org.dsload.redis;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.apache.jmeter.gui.TestElementMetadata;
import org.dsload.core.ClientConfigElement;
import org.dsload.core.Errors;
import org.dsload.core.Fields;
import org.dsload.core.Fields.HostPort;
import org.dsload.core.Secrets;

import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * Redis Connection: one Jedis client (a pooled standalone client or a cluster client) built at
 * test start, shared by every thread, closed at test end.
 *
 * <p>The client speaks RESP2 without the HELLO and CLIENT SETINFO handshakes, so that it works
 * unchanged against Redis-protocol stores that implement only the classic command set.
 */
@TestElementMetadata(labelResource = "displayName")
public class RedisConnection extends ClientConfigElement<RedisClient> {
    private static final long serialVersionUID = 1L;
    static final String STANDALONE = "standalone";
    static final String CLUSTER = "cluster";

    private String mode = STANDALONE;
    private String hosts = "127.0.0.1:6379";
    private String user = "";
    private String password = "";
    private String database = "0";
    private String connectTimeout = "2000";
    private String socketTimeout = "2000";
    private String ssl = "false";
    private String clientName = "dsload";
    private String checkOnStart = "true";
    private String minIdle = "0";
    private String maxIdle = "200";
    private String maxTotal = "200";
    private String blockWhenExhausted = "true";
    private String maxWait = "3000";
    private String testOnBorrow = "false";
    private String testOnReturn = "false";
    private String testWhileIdle = "false";
    private String evictionInterval = "30000";
    private String clusterMaxAttempts = "5";
    private String recordGauges = "true";

    @Override
    protected RedisClient open(Fields f) {
        boolean cluster = f.choice("mode", mode, STANDALONE, CLUSTER).equals(CLUSTER);
        List<HostPort> nodes = f.hostPorts("hosts", hosts, Protocol.DEFAULT_PORT);
        if (!cluster && nodes.size() > 1) {
            throw f.error("hosts", "lists " + nodes.size() + " servers but Mode is standalone: "
                    + "give one host:port, or choose cluster");
        }
        int db = f.integer("database", database, 0, 65535);
        if (cluster && db != 0) {
            throw f.error("database", "must be 0 in cluster mode (Redis Cluster has only database 0)");
        }
        int socketMillis = f.integer("socketTimeout", socketTimeout, 1, Integer.MAX_VALUE);
        int connectMillis = f.integer("connectTimeout", connectTimeout, 1, Integer.MAX_VALUE);
        boolean tls = f.flag("ssl", ssl);
        String name = f.text("clientName", clientName);
        String userName = f.text("user", user);
        String secret = Secrets.resolve(f, "password", password);

        DefaultJedisClientConfig.Builder client = DefaultJedisClientConfig.builder()
                .serverDefaultProtocol()
                .clientSetInfoConfig(ClientSetInfoConfig.DISABLED)
                .connectionTimeoutMillis(connectMillis)
                .socketTimeoutMillis(socketMillis)
                .database(db)
                .ssl(tls);
        if (!name.isEmpty()) {
            client.clientName(name);
        }
        if (!userName.isEmpty()) {
            client.user(userName);
        }
        if (!secret.isEmpty()) {
            client.password(secret);
        }

        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        int total = f.integer("maxTotal", maxTotal, 1, Integer.MAX_VALUE);
        int idleMax = f.integer("maxIdle", maxIdle, 0, Integer.MAX_VALUE);
        int idleMin = f.integer("minIdle", minIdle, 0, Integer.MAX_VALUE);
        if (idleMin > idleMax) {
            throw f.error("minIdle", "(" + idleMin + ") must not exceed " + f.fieldLabel("maxIdle") + " (" + idleMax + ")");
        }
        boolean block = f.flag("blockWhenExhausted", blockWhenExhausted);
        long waitMillis = f.longValue("maxWait", maxWait, 0, Long.MAX_VALUE);
        pool.setMaxTotal(total);
        pool.setMaxIdle(idleMax);
        pool.setMinIdle(idleMin);
        pool.setBlockWhenExhausted(block);
        pool.setMaxWait(Duration.ofMillis(waitMillis));
        pool.setTestOnBorrow(f.flag("testOnBorrow", testOnBorrow));
        pool.setTestOnReturn(f.flag("testOnReturn", testOnReturn));
        pool.setTestWhileIdle(f.flag("testWhileIdle", testWhileIdle));
        long eviction = f.longValue("evictionInterval", evictionInterval, -1, Long.MAX_VALUE);
        pool.setTimeBetweenEvictionRuns(Duration.ofMillis(eviction));
        pool.setJmxEnabled(false);
        int attempts = f.integer("clusterMaxAttempts", clusterMaxAttempts, 1, 100);
        boolean check = f.flag("checkOnStart", checkOnStart);
        boolean gauges = f.flag("recordGauges", recordGauges);

        String target = (cluster ? "cluster " : "") + nodes.stream().map(HostPort::toString).collect(Collectors.joining(","));
        String poolSummary = "Max total " + total + ", Block when exhausted " + block + ", Max wait " + waitMillis + " ms";
        UnifiedJedis jedis;
        try {
            if (cluster) {
                Set<HostAndPort> seeds = new LinkedHashSet<>();
                nodes.forEach(n -> seeds.add(new HostAndPort(n.host(), n.port())));
                jedis = RedisClusterClient.builder().nodes(seeds).clientConfig(client.build())
                        .poolConfig(pool).maxAttempts(attempts).build();
            } else {
                HostPort node = nodes.get(0);
                // Jedis's standalone client, spelled out: this package's RedisClient is what we publish.
                jedis = redis.clients.jedis.RedisClient.builder()
                        .hostAndPort(new HostAndPort(node.host(), node.port())).clientConfig(client.build()).poolConfig(pool).build();
            }
        } catch (RuntimeException e) {
            throw f.error("cannot connect to " + target + ": " + Errors.sentence(Errors.describe(e))
                    + ". Check Hosts, Mode and that the server is up", e);
        }
        RedisEndpoint endpoint = new RedisEndpoint(cluster, nodes, userName, secret, db, name, connectMillis, socketMillis,
                tls, attempts);
        RedisClient handle = new RedisClient(jedis, target, socketMillis, poolSummary, endpoint);
        try {
            if (check) {
                jedis.executeCommand(new CommandArguments(Protocol.Command.PING));
            }
            if (idleMin > 0 && jedis instanceof redis.clients.jedis.RedisClient standalone) {
                // Open the minimum of idle connections now, so connecting is not measured as load.
                standalone.getPool().preparePool();
            }
        } catch (Exception e) {
            handle.close();
            throw f.error("cannot reach " + target + ": " + Errors.sentence(Errors.describe(e))
                    + ". Check Hosts, credentials and that the server is up", e);
        }
        if (gauges) {
            // After the check, so that its PING is not among the commands the cross-check compares.
            HostPort first = nodes.get(0);
            handle.recordGauges(RedisGauges.start(f.element(), jedis, new HostAndPort(first.host(), first.port()),
                    client.build(), handle.sent()));
        }
        return handle;
    }

    public String getMode() {
        return mode;
    }

    public void setMode(String mode) {
        this.mode = mode;
    }

    public String getHosts() {
        return hosts;
    }

    public void setHosts(String hosts) {
        this.hosts = hosts;
    }

    public String getUser() {
        return user;
    }

    public void setUser(String user) {
        this.user = user;
    }

    public String getPassword() {
        return password;
    }

    public void setPassword(String password) {
        this.password = password;
    }

    public String getDatabase() {
        return database;
    }

    public void setDatabase(String database) {
        this.database = database;
    }

    public String getConnectTimeout() {
        return connectTimeout;
    }

    public void setConnectTimeout(String connectTimeout) {
        this.connectTimeout = connectTimeout;
    }

    public String getSocketTimeout() {
        return socketTimeout;
    }

    public void setSocketTimeout(String socketTimeout) {
        this.socketTimeout = socketTimeout;
    }

    public String getSsl() {
        return ssl;
    }

    public void setSsl(String ssl) {
        this.ssl = ssl;
    }

    public String getClientName() {
        return clientName;
    }

    public void setClientName(String clientName) {
        this.clientName = clientName;
    }

    public String getCheckOnStart() {
        return checkOnStart;
    }

    public void setCheckOnStart(String checkOnStart) {
        this.checkOnStart = checkOnStart;
    }

    public String getMinIdle() {
        return minIdle;
    }

    public void setMinIdle(String minIdle) {
        this.minIdle = minIdle;
    }

    public String getMaxIdle() {
        return maxIdle;
    }

    public void setMaxIdle(String maxIdle) {
        this.maxIdle = maxIdle;
    }

    public String getMaxTotal() {
        return maxTotal;
    }

    public void setMaxTotal(String maxTotal) {
        this.maxTotal = maxTotal;
    }

    public String getBlockWhenExhausted() {
        return blockWhenExhausted;
    }

    public void setBlockWhenExhausted(String blockWhenExhausted) {
        this.blockWhenExhausted = blockWhenExhausted;
    }

    public String getMaxWait() {
        return maxWait;
    }

    public void setMaxWait(String maxWait) {
        this.maxWait = maxWait;
    }

    public String getTestOnBorrow() {
        return testOnBorrow;
    }

    public void setTestOnBorrow(String testOnBorrow) {
        this.testOnBorrow = testOnBorrow;
    }

    public String getTestOnReturn() {
        return testOnReturn;
    }

    public void setTestOnReturn(String testOnReturn) {
        this.testOnReturn = testOnReturn;
    }

    public String getTestWhileIdle() {
        return testWhileIdle;
    }

    public void setTestWhileIdle(String testWhileIdle) {
        this.testWhileIdle = testWhileIdle;
    }

    public String getEvictionInterval() {
        return evictionInterval;
    }

    public void setEvictionInterval(String evictionInterval) {
        this.evictionInterval = evictionInterval;
    }

    public String getClusterMaxAttempts() {
        return clusterMaxAttempts;
    }

    public void setClusterMaxAttempts(String clusterMaxAttempts) {
        this.clusterMaxAttempts = clusterMaxAttempts;
    }

    public String getRecordGauges() {
        return recordGauges;
    }

    public void setRecordGauges(String recordGauges) {
        this.recordGauges = recordGauges;
    }
}
