package org.dsload.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.time.Duration;

import org.dsload.process.Deadline;
import org.dsload.process.ProcFs;
import org.dsload.testing.SharedKairosDb;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The launcher itself: a KairosDB on H2 that serves what is written, on its own port only, its
 * log under target/. That it stops with no process left is ServeIT's to show, on a server of its own.
 */
@ExtendWith(SharedKairosDb.class)
class EmbeddedKairosDbIT {

    @Test
    void servesOnH2OnItsOwnPortOnly() throws Exception {
        EmbeddedKairosDb kairos = SharedKairosDb.server();
        assertEquals("h2", kairos.datastore());
        assertTrue(kairos.call("GET", "/api/v1/version", null).body().contains("KairosDB"));
        long stamp = System.currentTimeMillis() - 60_000;
        String metric = "dsload.it.launcher." + Long.toString(System.nanoTime(), 36);
        String points = "[{\"name\":\"" + metric + "\",\"tags\":{\"host\":\"a\"},\"datapoints\":[[" + stamp
                + ",1],[" + (stamp + 1) + ",2],[" + (stamp + 2) + ",3]]}]";
        assertEquals(204, kairos.call("POST", "/api/v1/datapoints", points).statusCode());
        assertTrue(Deadline.await(() -> kairos.count(metric, stamp, stamp + 2) == 3, Duration.ofSeconds(10),
                Duration.ofMillis(200)), "the 3 points are read back");
        // Telnet (4242 by default) is off; the HTTP API listens on its free port.
        assertFalse(ProcFs.listensOn(kairos.pid(), 4242), "telnet listener left on");
        assertTrue(ProcFs.listensOn(kairos.pid(), kairos.port()));
        assertTrue(Files.isRegularFile(kairos.log()));
        assertTrue(kairos.log().startsWith(Checkout.target()));
    }
}
