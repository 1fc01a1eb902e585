package org.dsload.zookeeper;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZKUtil;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.dsload.core.ConfigException;
import org.dsload.core.Fields;
import org.dsload.core.Secrets;

/**
 * Removes the znodes of a test: at the end of a test whose ZooKeeper Connection has a test root
 * and Clean up at test end on, or on its own for what a killed run left behind (a root whose data
 * carries the dsload marker; another root only when forced). Deletes go in transactions of
 * {@value #BATCH} (ZooKeeper's own {@link ZKUtil#deleteRecursive(ZooKeeper, String, int)}).
 */
public final class ZnodeCleanup {
    static final int BATCH = 1000;
    static final String USAGE = "dsload zk-cleanup <connect string> <root path> [--user <digest user> "
            + "--password <env:NAME|file:/path>] [--force]";

    /** What to remove of a root. */
    enum Scope { ROOT_AND_CHILDREN, CHILDREN, NOTHING }

    /** The znodes removed, how long it took, and what went wrong if something did. */
    record Result(long removed, long millis, String problem) {
        boolean ok() {
            return problem == null;
        }
    }

    private ZnodeCleanup() {
    }

    /**
     * The command that removes {@code fullPath} from the ensemble of {@code settings}, filled in:
     * its connect string (a chroot included), the root, and the digest user with the reference to
     * its password ({@code env:} or {@code file:} as the element had it; a password written into
     * the element itself is never repeated, a placeholder stands for it).
     */
    static String command(ClientSettings settings, String fullPath) {
        String command = "dsload zk-cleanup " + settings.connectString + " " + fullPath;
        if (!settings.authUser.isEmpty()) {
            command += " --user " + settings.authUser;
        }
        if (!settings.passwordReference.isEmpty()) {
            command += " --password " + settings.passwordReference;
        }
        return command;
    }

    /**
     * @param fullPath the root as the server sees it (namespace included; a chroot of the
     *                 session's connect string applies as usual)
     */
    static Result remove(ZooKeeper zk, String fullPath, Scope scope) throws InterruptedException {
        long started = System.nanoTime();
        if (scope == Scope.NOTHING) {
            return new Result(0, 0, null);
        }
        try {
            Stat stat = zk.exists(fullPath, false);
            if (stat == null) {
                return new Result(0, elapsed(started), null);
            }
            long count = zk.getAllChildrenNumber(fullPath) + (scope == Scope.ROOT_AND_CHILDREN ? 1 : 0);
            List<String> tops = new ArrayList<>();
            if (scope == Scope.ROOT_AND_CHILDREN) {
                tops.add(fullPath);
            } else {
                for (String child : zk.getChildren(fullPath, false)) {
                    tops.add((fullPath.equals("/") ? "" : fullPath) + "/" + child);
                }
            }
            for (String top : tops) {
                if (!ZKUtil.deleteRecursive(zk, top, BATCH)) {
                    return new Result(count - left(zk, fullPath, scope), elapsed(started), "some deletes under " + top
                            + " failed (a node changed meanwhile, or the connection was lost)");
                }
            }
            return new Result(count, elapsed(started), null);
        } catch (KeeperException e) {
            return new Result(0, elapsed(started), e.code().name() + " " + e.getMessage());
        } catch (IllegalArgumentException e) {
            return new Result(0, elapsed(started), e.getMessage());
        }
    }

    private static long left(ZooKeeper zk, String fullPath, Scope scope) throws InterruptedException {
        try {
            return zk.exists(fullPath, false) == null ? 0
                    : zk.getAllChildrenNumber(fullPath) + (scope == Scope.ROOT_AND_CHILDREN ? 1 : 0);
        } catch (KeeperException e) {
            return 0;
        }
    }

    private static long elapsed(long started) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    }

    /** {@code dsload zk-cleanup}: see {@link #USAGE}. */
    public static void main(String[] args) throws InterruptedException {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * The command line of {@link #USAGE}: see {@link #clean}.
     *
     * @return the exit code: 0 removed (or nothing there), 1 refused or failed, 2 bad arguments
     */
    public static int run(String[] args, PrintStream out, PrintStream err) throws InterruptedException {
        List<String> positional = new ArrayList<>();
        String user = "";
        String password = "";
        boolean force = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--force" -> force = true;
                case "--user", "--password" -> {
                    if (i + 1 >= args.length) {
                        err.println("dsload zk-cleanup: " + args[i] + " needs a value\nusage: " + USAGE);
                        return 2;
                    }
                    if (args[i].equals("--user")) {
                        user = args[++i];
                    } else {
                        password = args[++i];
                    }
                }
                default -> positional.add(args[i]);
            }
        }
        if (positional.size() != 2) {
            err.println("dsload zk-cleanup: give a connect string and a root path\nusage: " + USAGE);
            return 2;
        }
        return clean(positional.get(0), positional.get(1), user, password, force, out, err);
    }

    /**
     * Removes {@code root} and everything under it, refusing a root that dsload did not create
     * unless {@code force}.
     *
     * @param password the digest password, or {@code env:NAME} / {@code file:/path}; empty with no user
     * @return the exit code: 0 removed (or nothing there), 1 refused or failed, 2 a malformed setting
     */
    public static int clean(String connect, String root, String user, String password, boolean force, PrintStream out,
            PrintStream err) throws InterruptedException {
        if (!root.startsWith("/") || root.equals("/")) {
            err.println("dsload zk-cleanup: the root must be a znode path below /, got '" + root + "'");
            return 2;
        }
        ClientSettings settings;
        try {
            // No TestBean class here: this runs from the jar without JMeter on the class path.
            Fields f = Fields.ofCommand("dsload zk-cleanup");
            settings = new ClientSettings(connect, 30_000, 5_000, 10_000, ClientSettings.RETRY_NONE, 0, 0, "",
                    user, Secrets.resolve(f, "--password", password), password, ClientSettings.ACL_OPEN);
        } catch (ConfigException e) {
            err.println("dsload zk-cleanup: " + e.getMessage());
            return 2;
        }
        CuratorFramework session = settings.newClient("dsload-zk-cleanup");
        try {
            session.start();
            if (!session.blockUntilConnected(settings.connectionTimeoutMillis, TimeUnit.MILLISECONDS)) {
                err.println("dsload zk-cleanup: no server of " + connect + " answered within "
                        + settings.connectionTimeoutMillis + " ms");
                return 1;
            }
            ZooKeeper zk = session.getZookeeperClient().getZooKeeper();
            Stat stat = new Stat();
            byte[] data;
            try {
                data = zk.getData(root, false, stat);
            } catch (KeeperException.NoNodeException e) {
                out.println("dsload zk-cleanup: " + root + " does not exist; nothing to remove");
                return 0;
            }
            String owner = TestRoot.ownedBy(data);
            if (owner == null && !force) {
                err.println("dsload zk-cleanup: " + root + " was not created by a dsload test (its data carries no '"
                        + TestRoot.MARKER + "' marker) and holds " + zk.getAllChildrenNumber(root)
                        + " znodes; add --force to remove it anyway");
                return 1;
            }
            Result result = remove(zk, root, Scope.ROOT_AND_CHILDREN);
            if (!result.ok()) {
                err.println("dsload zk-cleanup: removed " + result.removed() + " znodes under " + root + ", then: "
                        + result.problem());
                return 1;
            }
            out.println("dsload zk-cleanup: removed " + root + " and the " + (result.removed() - 1)
                    + " znodes under it in " + result.millis() + " ms" + (owner != null ? " (" + owner + ")" : ""));
            return 0;
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            err.println("dsload zk-cleanup: " + ZooKeeperErrors.code(e) + " " + ZooKeeperErrors.message(e, settings));
            return 1;
        } finally {
            session.close();
        }
    }
}
