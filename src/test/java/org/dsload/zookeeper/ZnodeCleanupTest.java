package org.dsload.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ZnodeCleanupTest {

    private static ClientSettings settings(String user, String password, String written) {
        return new ClientSettings("127.0.0.1:2181,127.0.0.2:2181/apps", 30_000, 5_000, 10_000,
                ClientSettings.RETRY_NONE, 0, 0, "", user, password, written, ClientSettings.ACL_OPEN);
    }

    @Test
    void theCommandToRemoveARootIsFilledInWithTheEnsembleAndTheRoot() {
        assertEquals("dsload zk-cleanup 127.0.0.1:2181,127.0.0.2:2181/apps /zk-latencies/master",
                ZnodeCleanup.command(settings("", "", ""), "/zk-latencies/master"));
    }

    @Test
    void aDigestUsersPasswordAppearsAsItsReferenceNeverItself() {
        assertEquals("dsload zk-cleanup 127.0.0.1:2181,127.0.0.2:2181/apps /r --user bench --password env:ZK_PASSWORD",
                ZnodeCleanup.command(settings("bench", "s3cret", "env:ZK_PASSWORD"), "/r"));
        assertEquals("dsload zk-cleanup 127.0.0.1:2181,127.0.0.2:2181/apps /r --user bench "
                + "--password <env:NAME|file:/path>", ZnodeCleanup.command(settings("bench", "s3cret", "s3cret"), "/r"));
    }
}
