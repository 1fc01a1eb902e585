package org.dsload.zookeeper;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.curator.RetryPolicy;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;

/**
 * Everything needed to open one more ZooKeeper session with the settings of a ZooKeeper
 * Connection element. The digest credentials live here and nowhere else: {@link #toString()}
 * and {@link #describe()} leave them out.
 */
final class ClientSettings {
    static final String RETRY_NONE = "none";
    static final String RETRY_N_TIMES = "n-times";
    static final String RETRY_EXPONENTIAL = "exponential";
    static final String ACL_OPEN = "open";
    static final String ACL_CREATOR = "creator";
    static final String ACL_CREATOR_WORLD_READ = "creator-world-read";

    private static final AtomicInteger CLIENTS = new AtomicInteger();

    final String connectString;
    final int sessionTimeoutMillis;
    final int connectionTimeoutMillis;
    final int requestTimeoutMillis;
    final String retry;
    final int retries;
    final int retrySleepMillis;
    final String namespace;
    final String authUser;
    private final String authPassword;
    /** Where the password comes from as the user wrote it ({@code env:NAME}, {@code file:/path}), a placeholder, or "". */
    final String passwordReference;
    final String acl;

    /**
     * @param authPassword      the digest password itself
     * @param passwordReference the field as written: kept when it is an {@code env:} or {@code file:}
     *                          reference, for commands printed to the user; never the password
     */
    ClientSettings(String connectString, int sessionTimeoutMillis, int connectionTimeoutMillis, int requestTimeoutMillis,
            String retry, int retries, int retrySleepMillis, String namespace, String authUser, String authPassword,
            String passwordReference, String acl) {
        this.connectString = connectString;
        this.sessionTimeoutMillis = sessionTimeoutMillis;
        this.connectionTimeoutMillis = connectionTimeoutMillis;
        this.requestTimeoutMillis = requestTimeoutMillis;
        this.retry = retry;
        this.retries = retries;
        this.retrySleepMillis = retrySleepMillis;
        this.namespace = namespace;
        this.authUser = authUser;
        this.authPassword = authPassword;
        this.passwordReference = passwordReference.isEmpty() || passwordReference.startsWith("env:")
                || passwordReference.startsWith("file:") ? passwordReference : "<env:NAME|file:/path>";
        this.acl = acl;
    }

    /** A new, not yet started client. */
    CuratorFramework newClient(String threadPrefix) {
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
                .connectString(connectString)
                .sessionTimeoutMs(sessionTimeoutMillis)
                .connectionTimeoutMs(connectionTimeoutMillis)
                .retryPolicy(new CountedRetries(retryPolicy()))
                .threadFactory(daemons(threadPrefix + "-" + CLIENTS.incrementAndGet()))
                .zkClientConfig(zkConfig())
                .aclProvider(aclProvider());
        if (!namespace.isEmpty()) {
            builder.namespace(namespace);
        }
        if (!authUser.isEmpty()) {
            builder.authorization("digest", (authUser + ":" + authPassword).getBytes(StandardCharsets.UTF_8));
        }
        return builder.build();
    }

    private ZKClientConfig zkConfig() {
        ZKClientConfig config = new ZKClientConfig();
        if (requestTimeoutMillis > 0) {
            // Bounds the wait for any one reply, even on a connection that stays open but answers nothing.
            config.setProperty(ZKClientConfig.ZOOKEEPER_REQUEST_TIMEOUT, Integer.toString(requestTimeoutMillis));
        }
        return config;
    }

    RetryPolicy retryPolicy() {
        switch (retry) {
            case RETRY_NONE:
                return new RetryNTimes(0, 0);
            case RETRY_N_TIMES:
                return new RetryNTimes(retries, retrySleepMillis);
            default:
                return new ExponentialBackoffRetry(retrySleepMillis, retries);
        }
    }

    private ACLProvider aclProvider() {
        List<ACL> acls = new ArrayList<>();
        switch (acl) {
            case ACL_CREATOR:
                acls.addAll(ZooDefs.Ids.CREATOR_ALL_ACL);
                break;
            case ACL_CREATOR_WORLD_READ:
                acls.addAll(ZooDefs.Ids.CREATOR_ALL_ACL);
                acls.addAll(ZooDefs.Ids.READ_ACL_UNSAFE);
                break;
            default:
                acls.addAll(ZooDefs.Ids.OPEN_ACL_UNSAFE);
                break;
        }
        // Not List.copyOf: ZooKeeper asks the list whether it contains null, which immutable lists refuse.
        List<ACL> fixed = Collections.unmodifiableList(acls);
        return new ACLProvider() {
            @Override
            public List<ACL> getDefaultAcl() {
                return fixed;
            }

            @Override
            public List<ACL> getAclForPath(String path) {
                return fixed;
            }
        };
    }

    private static ThreadFactory daemons(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, prefix + "-" + n.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /** The longest a sample may wait before it fails, for messages: every try waits for a connection, then a reply. */
    long worstCaseMillis() {
        long perTry = (long) connectionTimeoutMillis + (requestTimeoutMillis > 0 ? requestTimeoutMillis
                : sessionTimeoutMillis * 2L / 3);
        if (retry.equals(RETRY_NONE)) {
            return perTry;
        }
        long sleeps = retry.equals(RETRY_EXPONENTIAL)
                ? (long) retrySleepMillis * ((1L << Math.min(retries + 1, 30)) - 2)
                : (long) retrySleepMillis * retries;
        return perTry * (retries + 1) + sleeps;
    }

    /** Where the client goes and how, without credentials. */
    String describe() {
        return connectString + (namespace.isEmpty() ? "" : " namespace /" + namespace)
                + (authUser.isEmpty() ? "" : " as digest user " + authUser);
    }

    @Override
    public String toString() {
        return describe();
    }
}
