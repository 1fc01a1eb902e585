package org.dsload.redis;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.dsload.core.Fields.HostPort;

import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Protocol;

/**
 * What a thread's own connections need from a Redis Connection element (samplers that keep
 * requests in flight open their own, non-blocking ones): where, how to log in, the timeouts.
 * The password stays in here: it is sent in the handshake and never shown ({@link #toString}).
 */
final class RedisEndpoint {
    private final boolean cluster;
    private final List<HostPort> hosts;
    private final String user;
    private final String password;
    private final int database;
    private final String clientName;
    private final int connectTimeoutMillis;
    private final int socketTimeoutMillis;
    private final boolean tls;
    private final int clusterMaxAttempts;
    /** Connections open right now across the threads' own connections, for the generator's figures. */
    private final AtomicInteger open = new AtomicInteger();

    RedisEndpoint(boolean cluster, List<HostPort> hosts, String user, String password, int database, String clientName,
            int connectTimeoutMillis, int socketTimeoutMillis, boolean tls, int clusterMaxAttempts) {
        this.cluster = cluster;
        this.hosts = List.copyOf(hosts);
        this.user = user;
        this.password = password;
        this.database = database;
        this.clientName = clientName;
        this.connectTimeoutMillis = connectTimeoutMillis;
        this.socketTimeoutMillis = socketTimeoutMillis;
        this.tls = tls;
        this.clusterMaxAttempts = clusterMaxAttempts;
    }

    boolean cluster() {
        return cluster;
    }

    List<HostPort> hosts() {
        return hosts;
    }

    int connectTimeoutMillis() {
        return connectTimeoutMillis;
    }

    int socketTimeoutMillis() {
        return socketTimeoutMillis;
    }

    boolean tls() {
        return tls;
    }

    int clusterMaxAttempts() {
        return clusterMaxAttempts;
    }

    AtomicInteger openConnections() {
        return open;
    }

    /** The commands every new connection sends first (AUTH, SELECT, CLIENT SETNAME), encoded. */
    List<byte[]> handshake() {
        List<byte[]> commands = new java.util.ArrayList<>();
        if (!password.isEmpty()) {
            CommandArguments auth = new CommandArguments(Protocol.Command.AUTH);
            if (!user.isEmpty()) {
                auth.add(user.getBytes(StandardCharsets.UTF_8));
            }
            commands.add(RespWriter.encode(auth.add(password.getBytes(StandardCharsets.UTF_8))));
        }
        if (database != 0 && !cluster) {
            commands.add(RespWriter.encode(new CommandArguments(Protocol.Command.SELECT).add(database)));
        }
        if (!clientName.isEmpty()) {
            commands.add(RespWriter.encode(new CommandArguments(Protocol.Command.CLIENT).add("SETNAME")
                    .add(clientName.getBytes(StandardCharsets.UTF_8))));
        }
        return commands;
    }

    @Override
    public String toString() {
        return (cluster ? "cluster " : "") + hosts + (user.isEmpty() ? "" : " as " + user)
                + (password.isEmpty() ? "" : " with a password");
    }
}
