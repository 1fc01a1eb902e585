package org.dsload.run;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;

import org.junit.jupiter.api.Test;

class DistributedRunTest {

    private static PlanRun run() {
        return new PlanRun(Path.of("home"), Path.of("plan.jmx")).remoteHosts(List.of("127.0.0.2:1099"));
    }

    @Test
    void aLiteralPasswordIsRefusedBecauseSlavesLogEveryPropertyTheyAreSent() {
        IOException e = assertThrows(IOException.class,
                () -> DistributedRun.checkNoLiteralSecrets(run().property("redis_password", "hunter2")));
        assertTrue(e.getMessage().contains("'redis_password'") && e.getMessage().contains("env:NAME"), e.getMessage());
        assertFalse(e.getMessage().contains("hunter2"));
        assertThrows(IOException.class, () -> DistributedRun.checkNoLiteralSecrets(run().globalProperty("api_token", "t")));
        assertDoesNotThrow(() -> DistributedRun.checkNoLiteralSecrets(run().property("redis_password", "env:REDIS_PW")
                .property("zk_secret", "file:/etc/zk").property("redis_password2", "").property("keys", "1:x")));
    }

    @Test
    void aPinnedCallbackPortIsRefusedWithSslBecauseJMeterBindsItOncePerListener() {
        String refusal = DistributedRun.pinnedCallbackPortRefusal(Map.of("client.rmi.localport", "4000")).orElseThrow();
        assertTrue(refusal.contains("client.rmi.localport=4000") && refusal.contains("4001 and 4002")
                && refusal.contains("server.rmi.ssl.disable=true"), refusal);
        assertTrue(DistributedRun.pinnedCallbackPortRefusal(Map.of("client.rmi.localport", "x")).orElseThrow()
                .contains("not a port number"));
        assertEquals(Optional.empty(), DistributedRun.pinnedCallbackPortRefusal(Map.of("client.rmi.localport", "4000",
                "server.rmi.ssl.disable", "true")), "without SSL the two ports can be pinned");
        assertEquals(Optional.empty(), DistributedRun.pinnedCallbackPortRefusal(Map.of("client.rmi.localport", "0")));
        assertEquals(Optional.empty(), DistributedRun.pinnedCallbackPortRefusal(Map.of()));
    }

    @Test
    void masterLogLinesOfFinishedSlavesAreRecognised() {
        Matcher m = SlaveWatch.FINISHED.matcher(
                "2026-11-22 17:12:30,947 INFO o.a.j.JMeter: Finished remote host: 127.0.0.2:41002 (1795367550947)");
        assertTrue(m.find());
        assertEquals("127.0.0.2:41002", m.group(1));
        assertEquals("1795367550947", m.group(2));
    }

    @Test
    void theDefaultSenderIsDsloadsQueuedSenderNamedAsJMeterLoadsIt() {
        assertEquals(org.dsload.recording.QueuedSampleSender.class.getName(), DistributedRun.DEFAULT_SENDER_MODE);
        assertFalse(DistributedRun.samplerThreadsSend(DistributedRun.DEFAULT_SENDER_MODE));
        for (String waits : List.of("StrippedBatch", "Batch", "Standard", "stripped")) {
            assertTrue(DistributedRun.samplerThreadsSend(waits), waits);
        }
        assertFalse(DistributedRun.samplerThreadsSend("StrippedAsynch"));
    }

    @Test
    void aRunInRowsModeOverLongLinksIsToldWhatTheyCostAndHowToAvoidIt() {
        Map<String, StartSignal.Offset> offsets = new java.util.LinkedHashMap<>();
        offsets.put("10.213.1.3:1099", new StartSignal.Offset(0, 6));
        offsets.put("10.213.1.4:1099", new StartSignal.Offset(0, 53));
        String said = DistributedRun.farInRowsMode(offsets, false);
        assertTrue(said != null && said.startsWith("dsload: slave 10.213.1.4:1099 is far from this machine (a round trip of "
                + "up to 106 ms)") && said.contains("--record histograms"), said);
        assertEquals(null, DistributedRun.farInRowsMode(offsets, true), "histograms mode does not wait on the links");
        assertEquals(null, DistributedRun.farInRowsMode(Map.of("10.213.1.3:1099", new StartSignal.Offset(0, 6)), false),
                "a round trip of 12 ms is a near slave");
    }
}
