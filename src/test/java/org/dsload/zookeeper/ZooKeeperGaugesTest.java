package org.dsload.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;

import org.junit.jupiter.api.Test;

class ZooKeeperGaugesTest {
    /** A follower's reply to mntr, as ZooKeeper 3.9 lays it out: its own values, then its metrics. */
    private static final String FOLLOWER = """
            zk_version\t3.9.3-c26634f34490bb0ea7a09cc51e05ede3b4e320ee, built on 2024-10-17 23:21 UTC
            zk_server_state\tfollower
            zk_avg_latency\t0.6
            zk_max_latency\t77
            zk_min_latency\t0
            zk_packets_received\t3310
            zk_packets_sent\t3309
            zk_num_alive_connections\t2
            zk_outstanding_requests\t0
            zk_znode_count\t1609
            zk_watch_count\t1515
            zk_ephemerals_count\t0
            zk_approximate_data_size\t204930
            zk_open_file_descriptor_count\t61
            zk_max_file_descriptor_count\t1048576
            zk_cnt_zk-latencies_read_per_namespace\t1612
            zk_cnt_zk-latencies_write_per_namespace\t8044
            zk_avg_zk-latencies_write_per_namespace\t190.5
            zk_learner_commit_received_count\t8044
            zk_uptime\t41012
            """;

    @Test
    void aWholeReplyIsAReadingWithItsPerNamespaceCounters() {
        Map<String, String> values = ZooKeeperGauges.answer(FOLLOWER, ZooKeeperGauges.Whole.NONE);
        assertNotNull(values);
        assertEquals("follower", values.get("zk_server_state"));
        assertEquals("1609", values.get("zk_znode_count"));
        assertEquals("zk-latencies/read=1612 zk-latencies/write=8044", values.get(ZooKeeperGauges.PER_NAMESPACE));
    }

    /**
     * A server killed while it answered leaves a reply cut anywhere: every such reply is a poll it
     * did not answer, never a reading (whose counts would end early) nor a refusal of mntr (which
     * stops the polling of that server for the rest of the run).
     */
    @Test
    void aReplyCutShortAtAnyByteIsUnreachableNeverAReadingNorARefusal() {
        ZooKeeperGauges.Whole before = ZooKeeperGauges.Whole.of(ZooKeeperGauges.answer(FOLLOWER,
                ZooKeeperGauges.Whole.NONE));
        assertEquals("1609", ZooKeeperGauges.answer(FOLLOWER, before).get("zk_znode_count"),
                "the same whole reply again is a reading");
        for (int cut = 0; cut < FOLLOWER.length(); cut++) {
            Map<String, String> values = ZooKeeperGauges.answer(FOLLOWER.substring(0, cut), before);
            assertNotNull(values, "cut after " + cut + " bytes: taken for a refusal");
            assertEquals(ZooKeeperGauges.UNREACHABLE, values.get("zk_server_state"), "cut after " + cut + " bytes");
        }
        // the first reply of a server (nothing to compare with) cut before its state: unreachable too
        assertEquals(ZooKeeperGauges.UNREACHABLE, ZooKeeperGauges.answer("zk_version\t3.9.3\n",
                ZooKeeperGauges.Whole.NONE).get("zk_server_state"));
    }

    @Test
    void aServerInAnotherRoleMayAnswerWithFewerKeys() {
        String leader = FOLLOWER.replace("follower", "leader").replace("zk_learner_commit_received_count\t8044\n", "");
        Map<String, String> values = ZooKeeperGauges.answer(leader,
                ZooKeeperGauges.Whole.of(ZooKeeperGauges.answer(FOLLOWER, ZooKeeperGauges.Whole.NONE)));
        assertEquals("leader", values.get("zk_server_state"));
    }

    @Test
    void theWhitelistsRefusalIsARefusalAndAMemberWithoutQuorumServesNothing() {
        assertNull(ZooKeeperGauges.answer("mntr is not executed because it is not in the whitelist.\n",
                ZooKeeperGauges.Whole.NONE));
        assertEquals(ZooKeeperGauges.NOT_SERVING, ZooKeeperGauges.answer(
                "This ZooKeeper instance is not currently serving requests\n", ZooKeeperGauges.Whole.NONE)
                .get("zk_server_state"));
    }
}
