package org.dsload.recording;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.apache.jmeter.assertions.AssertionResult;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.samplers.SampleSaveConfiguration;
import org.apache.jmeter.save.CSVSaveService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.util.JMeterUtils;
import org.dsload.testing.JMeterRuntime;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A results row is the very line JMeter's CSVSaveService makes, for any sample and save settings. */
class CsvRowTest {

    @BeforeAll
    static void sampleVariables() {
        JMeterRuntime.init();
        JMeterUtils.setProperty(SampleEvent.SAMPLE_VARIABLES, "dsload_timing,other");
        SampleEvent.initSampleVariables();
    }

    @AfterAll
    static void noSampleVariables() {
        JMeterUtils.getJMeterProperties().remove(SampleEvent.SAMPLE_VARIABLES);
        SampleEvent.initSampleVariables();
    }

    private static List<SampleEvent> events() throws Exception {
        List<SampleEvent> events = new ArrayList<>();
        String[] texts = {"OK", "", null, "a,b", "say \"hi\"", "line\nbreak", "cr\rhere", "tab\there", "semi;colon",
            "ünïcødé €", "\"", ",", "end,\"mixed\"\r\n"};
        for (int i = 0; i < texts.length; i++) {
            SampleResult r = new SampleResult(1_700_000_000_000L + i, 17L * i);
            r.setSampleLabel(texts[(i + 3) % texts.length]);
            r.setResponseCode(texts[i]);
            r.setResponseMessage(texts[(i + 5) % texts.length]);
            r.setThreadName(i % 2 == 0 ? "group 1-" + i : texts[(i + 1) % texts.length]);
            r.setDataType(i % 3 == 0 ? SampleResult.TEXT : "");
            r.setSuccessful(i % 4 != 0);
            r.setBytes(100L * i);
            r.setSentBytes(3L * i);
            r.setGroupThreads(i);
            r.setAllThreads(2 * i);
            r.setLatency(5L * i);
            r.setIdleTime(i);
            r.setConnectTime(7L * i);
            r.setSampleCount(1 + i % 3);
            r.setErrorCount(i % 2);
            if (i % 3 == 1) {
                r.setURL(new URL("http://127.0.0.1:8080/a?b=" + i + "&c=d,e"));
            }
            if (i % 4 == 2) {
                r.setResultFileName(texts[i]);
                r.setDataEncoding("ISO-8859-1");
            }
            if (i % 5 == 3) {
                AssertionResult failed = new AssertionResult("check");
                failed.setFailure(true);
                failed.setFailureMessage(texts[(i + 7) % texts.length]);
                r.addAssertionResult(failed);
            }
            JMeterVariables variables = new JMeterVariables();
            if (i % 2 == 0) {
                variables.put("dsload_timing", r.getStartTime() + ":" + (1000 + i));
            }
            variables.put("other", texts[(i + 2) % texts.length] == null ? "x" : texts[(i + 2) % texts.length]);
            events.add(new SampleEvent(r, "group", variables));
        }
        return events;
    }

    private static void assertSameAsJMeter(SampleSaveConfiguration config) throws Exception {
        for (SampleEvent event : events()) {
            event.getResult().setSaveConfig(config);
            StringBuilder row = new StringBuilder("before|");
            CsvRow.append(row, event, config);
            assertEquals("before|" + CSVSaveService.resultToDelimitedString(event), row.toString());
        }
    }

    private static SampleSaveConfiguration config(Consumer<SampleSaveConfiguration> settings) {
        SampleSaveConfiguration config = new SampleSaveConfiguration();
        settings.accept(config);
        return config;
    }

    @Test
    void jmetersDefaultSettings() throws Exception {
        assertSameAsJMeter(new SampleSaveConfiguration());
    }

    @Test
    void theSettingsTheDsloadRunnerSaves() throws Exception {
        assertSameAsJMeter(config(c -> {
            c.setSampleCount(true);
            c.setHostname(true);
            c.setThreadCounts(true);
            c.setBytes(true);
            c.setSentBytes(true);
            c.setLatency(true);
            c.setConnectTime(true);
            c.setIdleTime(true);
        }));
    }

    @Test
    void everyColumnJMeterCanSave() throws Exception {
        assertSameAsJMeter(config(c -> {
            c.setAssertionResultsFailureMessage(true);
            c.setUrl(true);
            c.setFileName(true);
            c.setEncoding(true);
            c.setSampleCount(true);
            c.setHostname(true);
            c.setThreadCounts(true);
            c.setIdleTime(true);
            c.setConnectTime(true);
        }));
    }

    @Test
    void fewColumnsAndOtherDelimiters() throws Exception {
        assertSameAsJMeter(config(c -> {
            c.setTimestamp(false);
            c.setLabel(false);
            c.setThreadName(false);
            c.setDelimiter(";");
        }));
        assertSameAsJMeter(config(c -> c.setDelimiter("\t")));
    }

    @Test
    void timeStampsInADateFormat() throws Exception {
        assertSameAsJMeter(config(c -> c.setDateFormat("yyyy/MM/dd HH:mm:ss.SSS")));
    }
}
