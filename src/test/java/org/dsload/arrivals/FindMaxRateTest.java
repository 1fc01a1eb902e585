package org.dsload.arrivals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.apache.jmeter.util.JMeterUtils;
import org.dsload.core.format.RunProperties;
import org.dsload.testing.JMeterRuntime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What Find Max Rate refuses before its search starts: the engines of a distributed test, a bad gauge limit. */
class FindMaxRateTest {
    @TempDir
    Path run;

    @BeforeEach
    void runFolder() {
        JMeterRuntime.init();
        JMeterUtils.setProperty(RunProperties.RUN_DIR, run.toString());
        JMeterUtils.getJMeterProperties().remove("rate_of_this_test");
    }

    @AfterEach
    void noRunFolder() {
        JMeterUtils.getJMeterProperties().remove(RunProperties.RUN_DIR);
    }

    private FindMaxRate element() {
        FindMaxRate element = new FindMaxRate();
        element.setName("search");
        element.setRateProperty("rate_of_this_test");
        element.setMaxLatencyMillis("5");
        return element;
    }

    private String verdicts() throws IOException {
        StringBuilder all = new StringBuilder();
        try (Stream<Path> files = Files.list(run)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                all.append(Files.readString(file, StandardCharsets.UTF_8));
            }
        }
        return all.toString();
    }

    @Test
    void onAnEngineOfADistributedTestItRefusesAndNamesFindMaxWithSlaves() throws Exception {
        FindMaxRate element = element();
        element.testStarted("127.0.0.1:1099");
        element.testEnded("127.0.0.1:1099");
        assertNull(JMeterUtils.getProperty("rate_of_this_test"), "no step was set");
        String verdicts = verdicts();
        assertTrue(verdicts.contains("refused"), verdicts);
        assertTrue(verdicts.contains("dsload Find Max Rate 'search' runs in a test on one engine only"), verdicts);
        assertTrue(verdicts.contains("dsload find-max --slaves N"), verdicts);
        assertTrue(verdicts.contains(RunProperties.engine("127.0.0.1:1099")), verdicts);
    }

    @Test
    void aGaugeLimitItCannotReadIsRefusedWithItsField() throws Exception {
        FindMaxRate element = element();
        element.setMaxGauges("zk_outstanding_requests=100, clients>5");
        element.testStarted();
        element.testEnded();
        String verdicts = verdicts();
        assertTrue(verdicts.contains("field 'Max server gauges' 'clients>5' is not <gauge>=<number>"), verdicts);
        assertEquals(List.of(), List.of(run.toFile().list()).stream().filter(n -> n.startsWith("find-max")).toList(),
                "no search, no find-max files");
    }
}
