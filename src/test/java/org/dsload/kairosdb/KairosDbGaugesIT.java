package org.dsload.kairosdb;

import static org.dsload.kairosdb.KairosDbFixture.connection;
import static org.dsload.kairosdb.KairosDbFixture.describe;
import static org.dsload.kairosdb.KairosDbFixture.writer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.core.format.GaugeTable;
import org.dsload.gauges.GaugeFile;
import org.dsload.gauges.GaugeRows;
import org.dsload.gauges.TestRunFolder;
import org.dsload.kairosdb.report.KairosDbServerSection;
import org.dsload.targets.EmbeddedKairosDb;
import org.dsload.testing.JMeterRuntime;
import org.dsload.testing.SharedKairosDb;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** KairosDB's own metrics (its reporter on, every second) recorded while a KairosDB Connection's writers run. */
@Timeout(300)
@ExtendWith(SharedKairosDb.class)
class KairosDbGaugesIT {

    @Test
    void kairosDbsRequestsAndIngestedPointsAreRecordedPerSecondAndHost() throws IOException {
        try (EmbeddedKairosDb kairos = EmbeddedKairosDb.start(); TestRunFolder run = TestRunFolder.create("kairosdb-gauges")) {
            JMeterRuntime.freshVariables();
            KairosDbConnection c = connection(kairos.url());
            c.testStarted();
            long points = 0;
            try {
                KairosDbWriteSampler write = writer("gauges", 25, 25, 1);
                long end = System.nanoTime() + 4_000_000_000L;
                while (System.nanoTime() < end) {
                    SampleResult r = write.sample(null);
                    assertTrue(r.isSuccessful(), describe(r));
                    points += r.getSampleCount();
                    Thread.sleep(20);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                c.testEnded();
            }
            List<GaugeTable.Row> rows = GaugeRows.read(run.dir(), KairosDbServerSection.FILE);
            List<GaugeTable.Row> answered = rows.stream().filter(r -> r.ok() && !r.values().isEmpty()).toList();
            assertTrue(answered.size() >= 2, "readings for several seconds: " + Files.readAllLines(run.dir()
                    .resolve(KairosDbServerSection.NAME)));
            assertTrue(answered.stream().anyMatch(r -> r.number("ingested") > 0), "points ingested: " + answered);
            assertTrue(answered.stream().anyMatch(r -> r.number("requests") > 0), "requests served: " + answered);
            double counted = answered.stream().mapToDouble(r -> r.number(KairosDbServerSection.POINTS_COUNTED))
                    .filter(v -> !Double.isNaN(v)).sum();
            // the embedded server's readiness check wrote one point of its own just before
            assertTrue(counted > 0 && counted <= points + 1, "points KairosDB counted in, of the " + points
                    + " written: " + counted);
            assertTrue(rows.stream().noneMatch(r -> GaugeFile.REFUSED.equals(r.state())), rows.toString());

            String section = run.section(new KairosDbServerSection());
            assertTrue(section.startsWith("== KairosDB server gauges"), section);
            assertTrue(!section.contains("reported none of its own metrics"), section);
        }
    }

    @Test
    void withGaugesOffNothingIsRecorded() {
        // nothing of the server is read: the test JVM's shared server does
        try (TestRunFolder run = TestRunFolder.create("kairosdb-no-gauges")) {
            EmbeddedKairosDb kairos = SharedKairosDb.server();
            JMeterRuntime.freshVariables();
            KairosDbConnection c = connection(kairos.url());
            c.setRecordGauges("false");
            c.testStarted();
            try {
                SampleResult r = writer("off", 5, 5, 1).sample(null);
                assertTrue(r.isSuccessful(), describe(r));
            } finally {
                c.testEnded();
            }
            assertFalse(Files.exists(run.dir().resolve(KairosDbServerSection.NAME)));
            assertEquals("", run.section(new KairosDbServerSection()));
        }
    }
}
