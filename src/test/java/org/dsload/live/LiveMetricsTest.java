package org.dsload.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.HdrHistogram.Histogram;
import org.apache.jmeter.samplers.SampleResult;
import org.dsload.core.BatchResult;
import org.dsload.core.Completion;
import org.dsload.core.Outcome;
import org.dsload.core.RequestsResult;
import org.dsload.core.SampleTiming;
import org.apache.jmeter.threads.JMeterVariables;
import org.dsload.core.format.TimingValue;
import org.dsload.report.AggregateRowText;
import org.dsload.report.RecordingFormat;
import org.dsload.testing.JMeterRuntime;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;

/** The figures of the endpoint, fed as {@link LiveListener} feeds them: rows, histograms mode's aggregate rows, faults. */
class LiveMetricsTest {
    private static final long T0 = 1_700_000_000_000L;

    @BeforeAll
    static void jmeter() {
        JMeterRuntime.init();
    }

    /** The endpoint's text: what a scrape gets. */
    private static String text(LiveMetrics metrics) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, metrics.registry().scrape());
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The lines of one metric, sorted, without the help and type lines. */
    private static List<String> lines(String text, String metric) {
        return Arrays.stream(text.split("\n")).filter(l -> l.startsWith(metric + "{")).sorted().toList();
    }

    private static SampleResult row(String label, long millis, int count, boolean ok, String code) {
        SampleResult r = new SampleResult();
        r.setSampleLabel(label);
        r.setStampAndTime(T0, millis);
        r.setSampleCount(count);
        r.setSuccessful(ok);
        r.setResponseCode(code);
        return r;
    }

    /** One request as a rows-mode row and its timing value: under a schedule, {@code delayMicros} late, after {@code dropped}. */
    private static void request(LiveMetrics m, long micros, boolean ok, String code, long delayMicros, long dropped) {
        SampleResult r = row("GET", micros / 1000, 1, ok, code);
        LiveListener.count(m, "slave-a", "GET", r, TimingValue.format(T0, micros, delayMicros, dropped));
    }

    @Test
    void aBatchRowMadeInThisJvmCountsAsItsTimingTextWould() throws Exception {
        // replies that arrived together: one late, one after 2 skipped arrivals, all failed alike
        long t = 1_000_000_000L;
        List<Completion> completions = List.of(
                new Completion(t, t + 100_000, t + 450_000, 0, 1, Outcome.failed("TIMEOUT", "no reply", 10, 0)),
                new Completion(t + 200_000, t + 30_200_000, t + 30_900_000, 2, 1, Outcome.failed("TIMEOUT", "no reply", 10, 0)),
                new Completion(Completion.UNSCHEDULED, t + 300_000, t + 2_300_000, 0, 3, Outcome.failed("TIMEOUT", "x", 10, 0)));
        JMeterVariables variables = new JMeterVariables();
        RequestsResult row = BatchResult.of("GET", completions, variables);
        String timing = variables.get(SampleTiming.VARIABLE);

        LiveMetrics fromRequests = new LiveMetrics(null);
        LiveListener.count(fromRequests, "slave-a", "GET", row, timing);
        // the same row as it reaches a master from a slave: its text alone
        SampleResult wire = new SampleResult();
        wire.setSampleLabel("GET");
        wire.setStampAndTime(row.getTimeStamp(), row.getTime());
        wire.setSampleCount(row.getSampleCount());
        wire.setSuccessful(false);
        wire.setResponseCode("TIMEOUT");
        LiveMetrics fromText = new LiveMetrics(null);
        LiveListener.count(fromText, "slave-a", "GET", wire, timing);

        String a = text(fromRequests);
        String b = text(fromText);
        for (String metric : List.of(LiveMetrics.REQUESTS, LiveMetrics.ERRORS, LiveMetrics.LATE, LiveMetrics.DROPPED,
                LiveMetrics.LATENCY + "_bucket", LiveMetrics.LATENCY + "_count", LiveMetrics.LATENCY + "_sum")) {
            assertEquals(lines(b, metric), lines(a, metric), metric);
        }
        assertTrue(a.contains("dsload_requests_total{engine=\"slave-a\",label=\"GET\"} 5.0"), a);
        assertTrue(a.contains("dsload_arrivals_late_total{engine=\"slave-a\",label=\"GET\"} 1.0"), a);
        assertTrue(a.contains("dsload_arrivals_dropped_total{engine=\"slave-a\",label=\"GET\"} 2.0"), a);
    }

    @Test
    void anAggregateRowGivesTheSameLateDroppedAndPerCodeErrorsAsTheRowsOfItsRequests() throws Exception {
        // the same second of one engine, as rows and as histograms mode's aggregate row
        LiveMetrics rows = new LiveMetrics(null);
        Histogram h = new Histogram(3_600_000_000L, 3);
        Map<String, Long> failures = new LinkedHashMap<>();
        long late = 0;
        long dropped = 0;
        for (int i = 0; i < 40; i++) {
            long micros = 200 + 37L * i;
            boolean ok = i % 5 != 0;
            String code = ok ? "OK" : i % 10 == 0 ? "TIMEOUT" : "ERR";
            long delay = i % 4 == 0 ? 25_000 : 100; // 10 of them more than 10 ms after their time
            long skipped = i == 7 ? 3 : 0;
            request(rows, micros, ok, code, delay, skipped);
            h.recordValue(micros);
            if (!ok) {
                failures.merge(code, 1L, Long::sum);
            }
            late += delay > TimingValue.DEFAULT_LATE_MICROS ? 1 : 0;
            dropped += skipped;
        }
        assertEquals(10, late);
        assertEquals(Map.of("TIMEOUT", 4L, "ERR", 4L), failures);

        LiveMetrics histograms = new LiveMetrics(null);
        SampleResult aggregate = row("GET", 10, 40, false, "TIMEOUT");
        aggregate.setSamplerData(AggregateRowText.of("GET", 40, "slave-a", h, null,
                new AggregateRowText.Counts(late, dropped, failures)));
        LiveListener.count(histograms, "master", "GET", aggregate, RecordingFormat.aggregateTiming("slave-a", T0, T0 + 1000));

        String fromRows = text(rows);
        String fromHistograms = text(histograms);
        for (String metric : List.of(LiveMetrics.REQUESTS, LiveMetrics.ERRORS, LiveMetrics.LATE, LiveMetrics.DROPPED)) {
            assertEquals(lines(fromRows, metric), lines(fromHistograms, metric), metric);
        }
        assertEquals(List.of("dsload_errors_total{code=\"ERR\",engine=\"slave-a\",label=\"GET\"} 4.0",
                "dsload_errors_total{code=\"TIMEOUT\",engine=\"slave-a\",label=\"GET\"} 4.0"),
                lines(fromHistograms, LiveMetrics.ERRORS));
        assertEquals(List.of("dsload_arrivals_late_total{engine=\"slave-a\",label=\"GET\"} 10.0"),
                lines(fromHistograms, LiveMetrics.LATE));
        assertEquals(List.of("dsload_arrivals_dropped_total{engine=\"slave-a\",label=\"GET\"} 3.0"),
                lines(fromHistograms, LiveMetrics.DROPPED));
        // the latency buckets: each value of the histogram in the bucket of its own microseconds
        assertEquals(lines(fromRows, LiveMetrics.LATENCY + "_bucket"), lines(fromHistograms, LiveMetrics.LATENCY + "_bucket"));

        LiveLine.Figures f = histograms.take();
        assertEquals(40, f.requests());
        assertEquals(8, f.errors());
        assertEquals(10, f.late());
        assertEquals(3, f.totalDropped());
    }

    @Test
    void anAggregateRowWithoutCountsPutsItsFailuresUnderItsCode() throws Exception {
        LiveMetrics m = new LiveMetrics(null);
        Histogram h = new Histogram(3_600_000_000L, 3);
        h.recordValueWithCount(500, 6);
        SampleResult aggregate = new RequestsResult();
        aggregate.setSampleLabel("GET");
        aggregate.setStampAndTime(T0, 3);
        aggregate.setSampleCount(6);
        aggregate.setSuccessful(false);
        aggregate.setResponseCode("ERR");
        aggregate.setErrorCount(2);
        aggregate.setSamplerData(AggregateRowText.of("GET", 6, "slave-b", h, null));
        LiveListener.count(m, "master", "GET", aggregate, RecordingFormat.aggregateTiming("slave-b", T0, T0 + 1000));
        String text = text(m);
        assertEquals(List.of("dsload_errors_total{code=\"ERR\",engine=\"slave-b\",label=\"GET\"} 2.0"),
                lines(text, LiveMetrics.ERRORS));
        assertEquals(List.of("dsload_requests_total{engine=\"slave-b\",label=\"GET\"} 6.0"), lines(text, LiveMetrics.REQUESTS));
        assertEquals(List.of("dsload_arrivals_late_total{engine=\"slave-b\",label=\"GET\"} 0.0"), lines(text, LiveMetrics.LATE));
    }

    @Test
    void aLateRowOfAPipelineIsOneLateArrivalAsInTheSummary() throws Exception {
        LiveMetrics m = new LiveMetrics(null);
        SampleResult pipeline = row("PIPE", 1, 5, true, "OK");
        LiveListener.count(m, "master", "PIPE", pipeline, TimingValue.format(T0, 900, 50_000, 0));
        String text = text(m);
        assertEquals(List.of("dsload_requests_total{engine=\"master\",label=\"PIPE\"} 5.0"), lines(text, LiveMetrics.REQUESTS));
        assertEquals(List.of("dsload_arrivals_late_total{engine=\"master\",label=\"PIPE\"} 1.0"), lines(text, LiveMetrics.LATE));
    }

    private static void fault(LiveMetrics m, String label, String code) {
        SampleResult r = row(label, 5, 1, !code.endsWith("FAILED"), code);
        LiveListener.count(m, "slave-a", label, r, "");
    }

    private static Map<String, String> faults(LiveMetrics m, String metric) throws IOException {
        return lines(text(m), metric).stream().collect(Collectors.toMap(l -> l.substring(0, l.lastIndexOf(' ')),
                l -> l.substring(l.lastIndexOf(' ') + 1)));
    }

    @Test
    void aFaultIsActiveFromItsApplyToItsRevert() throws Exception {
        LiveMetrics m = new LiveMetrics(null);
        String active = "dsload_fault_active{fault=\"freeze\",target=\"cassandra-2\"}";
        String applied = "dsload_faults_applied_total{fault=\"freeze\",target=\"cassandra-2\"}";
        fault(m, "fault:freeze:cassandra-2", "APPLIED");
        assertEquals("1.0", faults(m, LiveMetrics.FAULT_ACTIVE).get(active));
        assertEquals("1.0", faults(m, LiveMetrics.FAULTS_APPLIED).get(applied));
        assertTrue(lines(text(m), LiveMetrics.REQUESTS).isEmpty(), "a fault's sample is no request");

        fault(m, "fault:freeze:cassandra-2", "REVERTED");
        assertEquals("0.0", faults(m, LiveMetrics.FAULT_ACTIVE).get(active));
        assertEquals("1.0", faults(m, LiveMetrics.FAULTS_APPLIED).get(applied));

        fault(m, "fault:freeze:cassandra-2", "APPLIED");
        assertEquals("1.0", faults(m, LiveMetrics.FAULT_ACTIVE).get(active));
        assertEquals("2.0", faults(m, LiveMetrics.FAULTS_APPLIED).get(applied));
        assertTrue(lines(text(m), LiveMetrics.ERRORS).isEmpty(), "a fault's sample is no failed request");
    }

    @Test
    void aRevertThatFailedLeavesTheFaultActiveAndAFailedApplyNeverWasActive() throws Exception {
        LiveMetrics m = new LiveMetrics(null);
        fault(m, "fault:pause:zookeeper-1", "APPLIED");
        fault(m, "fault:pause:zookeeper-1", "REVERT_FAILED");
        fault(m, "fault:delay:zookeeper-3", "APPLY_FAILED");
        fault(m, "fault:delay:zookeeper-3", "NOT_APPLIED");
        Map<String, String> active = faults(m, LiveMetrics.FAULT_ACTIVE);
        assertEquals("1.0", active.get("dsload_fault_active{fault=\"pause\",target=\"zookeeper-1\"}"));
        assertEquals("0.0", active.get("dsload_fault_active{fault=\"delay\",target=\"zookeeper-3\"}"));
        assertFalse(faults(m, LiveMetrics.FAULTS_APPLIED).containsKey(
                "dsload_faults_applied_total{fault=\"delay\",target=\"zookeeper-3\"}"), "a failed apply applied nothing");
        assertEquals(Map.of("dsload_fault_reverts_failed_total{fault=\"pause\",target=\"zookeeper-1\"}", "1.0"),
                faults(m, LiveMetrics.REVERTS_FAILED), "said how: its revert failed");
    }

    @Test
    void aFaultRevertedAtTheTestsEndIsNoLongerActive() throws Exception {
        // the revert at test end comes as the schedule's other reverts do, as a sample (ScheduleRunTest)
        LiveMetrics m = new LiveMetrics(null);
        fault(m, "fault:freeze:redis-1", "APPLIED");
        fault(m, "fault:freeze:redis-1", "REVERTED");
        assertEquals("0.0", faults(m, LiveMetrics.FAULT_ACTIVE).get("dsload_fault_active{fault=\"freeze\",target=\"redis-1\"}"));
        assertTrue(faults(m, LiveMetrics.REVERTS_FAILED).isEmpty(), "no revert failed");
    }

    @Test
    void aRestartIsCountedButOverOnceApplied() throws Exception {
        LiveMetrics m = new LiveMetrics(null);
        fault(m, "fault:restart:redis-1", "APPLIED");
        assertEquals("0.0", faults(m, LiveMetrics.FAULT_ACTIVE).get("dsload_fault_active{fault=\"restart\",target=\"redis-1\"}"));
        assertEquals("1.0", faults(m, LiveMetrics.FAULTS_APPLIED)
                .get("dsload_faults_applied_total{fault=\"restart\",target=\"redis-1\"}"));
    }
}
