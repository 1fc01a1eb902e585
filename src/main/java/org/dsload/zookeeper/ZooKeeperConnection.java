package org.dsload.zookeeper;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.jmeter.gui.TestElementMetadata;
import org.apache.jmeter.util.JMeterUtils;
import org.dsload.core.ClientConfigElement;
import org.dsload.core.Fields;
import org.dsload.core.Secrets;
import org.dsload.core.format.RunProperties;
import org.dsload.gauges.GaugeRecording;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ZooKeeper Connection: Curator clients built at test start with one set of settings, either
 * one session shared by every thread or one session per thread, closed at test end. While the
 * test runs it records the servers' {@code mntr} gauges into the run folder.
 */
@TestElementMetadata(labelResource = "displayName")
public class ZooKeeperConnection extends ClientConfigElement<ZooKeeperClient> {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(ZooKeeperConnection.class);
    static final String PER_TEST = "per-test";
    static final String PER_THREAD = "per-thread";

    private String connectString = "127.0.0.1:2181";
    private String sessionTimeout = "30000";
    private String connectionTimeout = "5000";
    private String requestTimeout = "10000";
    private String retryPolicy = ClientSettings.RETRY_EXPONENTIAL;
    private String retries = "3";
    private String retrySleep = "100";
    private String namespace = "";
    private String authUser = "";
    private String authPassword = "";
    private String acl = ClientSettings.ACL_OPEN;
    private String sessions = PER_TEST;
    private String maxSessions = "2000";
    private String checkOnStart = "true";
    private String recordGauges = "true";
    private String testRoot = "";
    private String allowUsedRoot = "false";
    private String cleanUp = "false";

    @Override
    protected ZooKeeperClient open(Fields f) throws Exception {
        String connect = f.required("connectString", connectString);
        List<String> servers = servers(f, connect);
        int session = f.integer("sessionTimeout", sessionTimeout, 1, Integer.MAX_VALUE);
        int connection = f.integer("connectionTimeout", connectionTimeout, 1, Integer.MAX_VALUE);
        int request = f.integer("requestTimeout", requestTimeout, 0, Integer.MAX_VALUE);
        String retry = f.choice("retryPolicy", retryPolicy, ClientSettings.RETRY_NONE, ClientSettings.RETRY_N_TIMES,
                ClientSettings.RETRY_EXPONENTIAL);
        int tries = f.integer("retries", retries, 0, 29);
        int sleep = f.integer("retrySleep", retrySleep, 0, Integer.MAX_VALUE);
        String ns = f.text("namespace", namespace);
        while (ns.startsWith("/")) {
            ns = ns.substring(1);
        }
        if (ns.endsWith("/")) {
            throw f.error("namespace", "must not end with '/', got '" + ns + "'");
        }
        String user = f.text("authUser", authUser);
        String password = Secrets.resolve(f, "authPassword", authPassword);
        if (user.contains(":")) {
            throw f.error("authUser", "must not contain ':' (digest credentials are user:password)");
        }
        if (user.isEmpty() && !password.isEmpty()) {
            throw f.error("authUser", "is empty but a password is set: give the digest user too");
        }
        String aclChoice = f.choice("acl", acl, ClientSettings.ACL_OPEN, ClientSettings.ACL_CREATOR,
                ClientSettings.ACL_CREATOR_WORLD_READ);
        if (!aclChoice.equals(ClientSettings.ACL_OPEN) && user.isEmpty()) {
            throw f.error("acl", "'" + aclChoice + "' gives rights to the authenticated creator only: "
                    + "set a digest user and password, or choose open");
        }
        boolean perThread = f.choice("sessions", sessions, PER_TEST, PER_THREAD).equals(PER_THREAD);
        int limit = f.integer("maxSessions", maxSessions, 1, 1_000_000);
        boolean check = f.flag("checkOnStart", checkOnStart);
        boolean gauges = f.flag("recordGauges", recordGauges);
        String rootPath = rootPath(f);
        boolean allowUsed = f.flag("allowUsedRoot", allowUsedRoot);
        boolean removeAtEnd = f.flag("cleanUp", cleanUp);

        ClientSettings settings = new ClientSettings(connect, session, connection, request, retry, tries, sleep, ns,
                user, password, f.text("authPassword", authPassword), aclChoice);
        // The gauges take their first reading before the test root is claimed, so that the servers count
        // the claim's requests as the tally does.
        NamespaceTally tally = new NamespaceTally(connect);
        AutoCloseable lease = gauges ? gauges(servers, tally) : null;
        CuratorFramework shared = null;
        TestRoot root = null;
        if (!perThread || check || rootPath != null) {
            CuratorFramework probe = settings.newClient("dsload-zk");
            probe.start();
            try {
                if ((check || rootPath != null) && !probe.blockUntilConnected(connection, TimeUnit.MILLISECONDS)) {
                    throw f.error("cannot connect to ZooKeeper at " + settings.describe() + " within the connection "
                            + "timeout of " + connection + " ms. Check Connect string and that the servers are up",
                            (Throwable) null);
                }
                if (rootPath != null) {
                    root = TestRoot.claim(probe, settings, f, rootPath, allowUsed,
                            JMeterUtils.getPropDefault(RunProperties.ENGINE, RunProperties.MASTER), tally);
                }
            } catch (Exception e) {
                probe.close();
                closeQuietly(lease);
                throw e;
            }
            if (perThread) {
                probe.close();
            } else {
                shared = probe;
            }
        }
        return new ZooKeeperClient(settings, f.element(), perThread, limit, shared, lease, tally, root, removeAtEnd);
    }

    private static void closeQuietly(AutoCloseable lease) {
        if (lease != null) {
            try {
                lease.close();
            } catch (Exception e) {
                log.debug("closing the gauges of a refused connection", e);
            }
        }
    }

    /** The test root field: empty for none, else an absolute znode path. */
    private String rootPath(Fields f) {
        String path = f.text("testRoot", testRoot);
        if (path.isEmpty()) {
            return null;
        }
        if (!path.startsWith("/") || path.length() > 1 && path.endsWith("/") || path.equals("/")) {
            throw f.error("testRoot", "must be a znode path below / such as /dsload-test, got '" + path + "'");
        }
        return path;
    }

    private static AutoCloseable gauges(List<String> servers, NamespaceTally tally) {
        Optional<Path> dir = GaugeRecording.runFolder("ZooKeeper");
        if (dir.isEmpty()) {
            return null;
        }
        try {
            return ZooKeeperGauges.lease(dir.get(), servers, tally::snapshot);
        } catch (Exception e) {
            log.warn("dsload: cannot record ZooKeeper gauges into {}: {}", dir, e.toString());
            return null;
        }
    }

    /** host:port of every server in a connect string ({@code h1:2181,h2:2181/chroot}). */
    static List<String> servers(Fields f, String connect) {
        int slash = connect.indexOf('/');
        String hosts = slash >= 0 ? connect.substring(0, slash) : connect;
        List<String> servers = new ArrayList<>();
        for (Fields.HostPort host : f.hostPorts("connectString", hosts, 2181)) {
            servers.add(host.toString());
        }
        return servers;
    }

    public String getTestRoot() {
        return testRoot;
    }

    public void setTestRoot(String testRoot) {
        this.testRoot = testRoot;
    }

    public String getAllowUsedRoot() {
        return allowUsedRoot;
    }

    public void setAllowUsedRoot(String allowUsedRoot) {
        this.allowUsedRoot = allowUsedRoot;
    }

    public String getCleanUp() {
        return cleanUp;
    }

    public void setCleanUp(String cleanUp) {
        this.cleanUp = cleanUp;
    }

    public String getConnectString() {
        return connectString;
    }

    public void setConnectString(String connectString) {
        this.connectString = connectString;
    }

    public String getSessionTimeout() {
        return sessionTimeout;
    }

    public void setSessionTimeout(String sessionTimeout) {
        this.sessionTimeout = sessionTimeout;
    }

    public String getConnectionTimeout() {
        return connectionTimeout;
    }

    public void setConnectionTimeout(String connectionTimeout) {
        this.connectionTimeout = connectionTimeout;
    }

    public String getRequestTimeout() {
        return requestTimeout;
    }

    public void setRequestTimeout(String requestTimeout) {
        this.requestTimeout = requestTimeout;
    }

    public String getRetryPolicy() {
        return retryPolicy;
    }

    public void setRetryPolicy(String retryPolicy) {
        this.retryPolicy = retryPolicy;
    }

    public String getRetries() {
        return retries;
    }

    public void setRetries(String retries) {
        this.retries = retries;
    }

    public String getRetrySleep() {
        return retrySleep;
    }

    public void setRetrySleep(String retrySleep) {
        this.retrySleep = retrySleep;
    }

    public String getNamespace() {
        return namespace;
    }

    public void setNamespace(String namespace) {
        this.namespace = namespace;
    }

    public String getAuthUser() {
        return authUser;
    }

    public void setAuthUser(String authUser) {
        this.authUser = authUser;
    }

    public String getAuthPassword() {
        return authPassword;
    }

    public void setAuthPassword(String authPassword) {
        this.authPassword = authPassword;
    }

    public String getAcl() {
        return acl;
    }

    public void setAcl(String acl) {
        this.acl = acl;
    }

    public String getSessions() {
        return sessions;
    }

    public void setSessions(String sessions) {
        this.sessions = sessions;
    }

    public String getMaxSessions() {
        return maxSessions;
    }

    public void setMaxSessions(String maxSessions) {
        this.maxSessions = maxSessions;
    }

    public String getCheckOnStart() {
        return checkOnStart;
    }

    public void setCheckOnStart(String checkOnStart) {
        this.checkOnStart = checkOnStart;
    }

    public String getRecordGauges() {
        return recordGauges;
    }

    public void setRecordGauges(String recordGauges) {
        this.recordGauges = recordGauges;
    }
}
