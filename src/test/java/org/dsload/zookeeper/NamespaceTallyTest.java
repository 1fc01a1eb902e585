package org.dsload.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

class NamespaceTallyTest {

    @Test
    void countsByTheTopZnodeOfThePathTheServerSees() {
        NamespaceTally tally = new NamespaceTally("h1:2181,h2:2181");
        tally.read("/zk-latencies/master/c1/7");
        tally.read("/zk-latencies/master/c1/8");
        tally.written("/jobs");
        tally.retried();
        assertEquals(Map.of("reads zk-latencies", 2L, "writes jobs", 1L, "retried", 1L), tally.snapshot());
    }

    @Test
    void aChrootOfTheConnectStringIsTheNamespaceOfEveryPath() {
        NamespaceTally tally = new NamespaceTally("h1:2181/tenant/a");
        tally.written("/zk-latencies/x");
        assertEquals(Map.of("writes tenant", 1L), tally.snapshot());
    }

    @Test
    void mntrsPerNamespaceCountersBecomeOneColumn() {
        Map<String, String> mntr = new LinkedHashMap<>();
        mntr.put("zk_cnt_zk-latencies_read_per_namespace", "12");
        mntr.put("zk_cnt_zk-latencies_write_per_namespace", "30");
        mntr.put("zk_avg_zk-latencies_write_per_namespace", "110.5");
        mntr.put("zk_cnt_my_app_read_per_namespace", "3");
        mntr.put("zk_packets_received", "99");
        assertEquals("zk-latencies/read=12 zk-latencies/write=30 my_app/read=3", ZooKeeperGauges.perNamespace(mntr));
    }
}
