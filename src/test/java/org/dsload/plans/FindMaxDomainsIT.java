package org.dsload.plans;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;

import org.dsload.cli.ExitCodes;
import org.dsload.targets.EmbeddedZooKeeper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The capacity of zk-scheduler-model.jmx in domains by find-max's search, against one embedded
 * ZooKeeper: each step a run of -Jdomains domains for -Jduration s. The limit that breaks is one the
 * server counts exactly: every executor holds one ephemeral node (3 per domain), so at most 15
 * ephemerals means at most 5 domains, whatever the machine's speed. From 3: 3 kept, 6 broken, 5 kept.
 */
@Timeout(240)
class FindMaxDomainsIT {
    private static EmbeddedZooKeeper zk;

    @BeforeAll
    static void start() {
        zk = EmbeddedZooKeeper.single();
    }

    @AfterAll
    static void stop() {
        if (zk != null) {
            zk.close();
        }
    }

    @Test
    void theCapacityInDomainsIsTheHighestCountWithinTheLimits() throws Exception {
        // the plan's own stop condition is left wide open: the search's limits judge the steps
        FindMaxIT.FindMax run = FindMaxIT.findMax("zk-scheduler-model.jmx", List.of("-Jhosts=" + zk.connectString(),
                "-Jmax_p99_ms=60000", "-Jmax_error_pct=100", "--rate-property=domains", "--unit=domains", "--start=3",
                "--step-seconds=4", "--settle-seconds=2", "--max-steps=4", "--max-error-rate=50%",
                "--max-gauge=zk_ephemerals_count=15"));
        JsonNode json = run.json();
        assertEquals(ExitCodes.OK, run.exit(), run.output());
        JsonNode answer = json.get("answer");
        assertEquals(5, answer.get("rate").asInt(), json.toString());
        assertEquals("domains", answer.get("unit").asText());
        assertTrue(answer.get("broke").asText().contains("zk_ephemerals_count"), answer.toString());
        FindMaxIT.assertSteps(json, 5);
        List<Integer> rates = new java.util.ArrayList<>();
        json.get("steps").forEach(s -> rates.add(s.get("rate").asInt()));
        assertEquals(List.of(3, 6, 5), rates, "doubled from 3, then bisected between 3 kept and 6 broken");
        for (JsonNode step : json.get("steps")) {
            // each step ran its own count of domains: 3 ephemeral executors each
            assertEquals(3 * step.get("rate").asInt(), step.get("gauges").get("zk_ephemerals_count").asInt(), step.toString());
        }
        String text = Files.readString(run.dir().resolve("find-max.txt"), StandardCharsets.UTF_8);
        assertTrue(text.contains("Answer: domains=5 (5 domains)"), text);
        System.out.println("dsload: find-max of zk-scheduler-model.jmx in domains:\n" + text);
    }
}
