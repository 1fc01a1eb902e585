package org.dsload.plans;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.dsload.cli.ExitCodes;
import org.dsload.targets.EmbeddedKairosDb;
import org.dsload.testing.SharedKairosDb;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * kairosdb-write.jmx's capacity in hosts by find-max's search, against the shared KairosDB on H2: each
 * step a run of -Jthreads hosts (all from the start, -Jramp_step=0), each reporting 25 metrics every
 * second in one batch. Limits this small load keeps: the steps double up to --max-steps, and the answer
 * is said in hosts.
 */
@Timeout(240)
@ExtendWith(SharedKairosDb.class)
class FindMaxHostsIT {
    private static EmbeddedKairosDb kairos;

    @BeforeAll
    static void shared() {
        kairos = SharedKairosDb.server();
    }

    @Test
    void theSearchCountsHostsAndEachStepRunsItsHosts() throws Exception {
        FindMaxIT.FindMax run = FindMaxIT.findMax("kairosdb-write.jmx", List.of("-Jurls=" + kairos.url(),
                "-Jramp_step=0", "-Jinterval=1", "-Jmetrics=25", "-Jrepeats=100000", "-Jcross_check=false",
                "-Jmetric_name=find.max.#{m}", "--rate-property=threads", "--unit=hosts", "--start=1", "--max-steps=3",
                "--step-seconds=4", "--settle-seconds=2", "--max-p99=10s", "--max-error-rate=1%"));
        JsonNode json = run.json();
        assertEquals(ExitCodes.OK, run.exit(), run.output());
        List<Integer> hosts = new ArrayList<>();
        for (JsonNode step : json.get("steps")) {
            hosts.add(step.get("rate").asInt());
            // a host sends one batch of 25 points a second, and a point counts as a request: a step's points per
            // second are 25 per host (measured from the window's first batch to its last answer: roughly)
            double perHost = step.get("achievedRate").asDouble() / step.get("rate").asInt();
            assertTrue(perHost > 25 * 0.5 && perHost < 25 * 2, perHost + " points/s per host in " + step);
        }
        assertEquals(List.of(1, 2, 4), hosts, "doubled while kept, up to --max-steps");
        JsonNode answer = json.get("answer");
        assertEquals(4, answer.get("rate").asInt(), json.toString());
        assertEquals("hosts", answer.get("unit").asText());
        String text = Files.readString(run.dir().resolve("find-max.txt"), StandardCharsets.UTF_8);
        assertTrue(text.contains("Answer: threads=4 (4 hosts) kept every limit"), text);
        // a step's summary: the plan's capacity line says how to get the search's answer
        Path step = Path.of(json.get("steps").get(0).get("run").asText());
        String summary = Files.readString(step.resolve("summary.txt"), StandardCharsets.UTF_8);
        assertTrue(summary.contains("dsload find-max test-plans/kairosdb-write.jmx --rate-property=threads --unit=hosts"),
                summary);
        System.out.println("dsload: find-max of kairosdb-write.jmx in hosts:\n" + text);
    }
}
