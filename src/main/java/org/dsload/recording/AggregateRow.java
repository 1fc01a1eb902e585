package org.dsload.recording;

import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.threads.ListenerNotifier;
import org.dsload.core.RequestsResult;
import org.dsload.core.format.JtlColumns;
import org.dsload.report.AggregateRowText;
import org.dsload.report.RecordingFormat;

/**
 * The results row that stands for one label's interval on one engine in histograms mode, handed to
 * the listeners the label's sampler has (results file, summariser, Backend Listener, visualizers,
 * and on a jmeter-server the master). JMeter's own convention for a row that stands for several
 * samples holds: SampleCount is the requests, ErrorCount the failed ones, elapsed and latency the
 * sums, so listeners that divide by the count (the summariser, the Aggregate Report, the Backend
 * Listener) show means and rates; percentiles come from the interval logs instead.
 */
final class AggregateRow {
    private static final ListenerNotifier NOTIFIER = new ListenerNotifier();

    private AggregateRow() {
    }

    static SampleResult of(String label, IntervalTally t, long start, String threadName, String engine) {
        long requests = t.requests.sum();
        long failures = t.failures.sum();
        // a result that keeps its error count: JMeter's own counts a failed row as 1 whatever its requests
        SampleResult r = new RequestsResult();
        r.setSampleLabel(label);
        long elapsed = t.elapsedMillis();
        r.setStampAndTime(start, elapsed);
        // a dsload sampler's latency is its elapsed time: its reply is read whole
        r.setLatency(elapsed);
        r.setSampleCount((int) Math.min(Integer.MAX_VALUE, requests));
        r.setErrorCount((int) Math.min(Integer.MAX_VALUE, failures));
        r.setSuccessful(failures == 0);
        String top = topCode(t.codes, failures > 0);
        r.setResponseCode(top);
        r.setResponseMessage(message(requests, failures, top, t.codes.get(top)));
        r.setBytes(t.bytesReceived.sum());
        r.setSentBytes(t.bytesSent.sum());
        r.setThreadName(threadName);
        r.setDataType(SampleResult.TEXT);
        r.setDataEncoding(StandardCharsets.UTF_8.name());
        // as the row's request text, which counts in no byte figure and which the Stripped sender modes keep
        r.setSamplerData(AggregateRowText.of(label, requests, engine, t.raw, t.corrected, counts(t)));
        int threads = JMeterContextService.getNumberOfThreads();
        r.setAllThreads(threads);
        r.setGroupThreads(threads);
        return r;
    }

    /** The interval's late and dropped arrivals and its failures by code, most first, for the live view. */
    static AggregateRowText.Counts counts(IntervalTally t) {
        Map<String, Long> failures = new java.util.LinkedHashMap<>();
        t.codes.entrySet().stream().map(e -> Map.entry(e.getKey(), failedOf(e.getValue()))).filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .forEach(e -> failures.put(e.getKey(), e.getValue()));
        return new AggregateRowText.Counts(t.late.sum(), t.dropped.sum(), failures);
    }

    /** The code with the most requests among the failures (or the successes when none failed). */
    private static String topCode(Map<String, IntervalTally.Code> codes, boolean failed) {
        return codes.entrySet().stream().max(Comparator.comparingLong(e -> failed ? failedOf(e.getValue())
                : e.getValue().succeeded.sum())).map(Map.Entry::getKey).orElse("");
    }

    private static long failedOf(IntervalTally.Code code) {
        return code.failed.values().stream().mapToLong(LongAdder::sum).sum();
    }

    private static String message(long requests, long failures, String top, IntervalTally.Code code) {
        if (failures == 0) {
            return requests + " requests (dsload histograms mode: one row per label and second)";
        }
        String topMessage = code == null ? "" : code.failed.entrySet().stream()
                .max(Comparator.comparingLong(e -> e.getValue().sum())).map(Map.Entry::getKey).orElse("");
        return requests + " requests, " + failures + " failed (dsload histograms mode: one row per label and second); "
                + "most often: " + top + (topMessage.isEmpty() ? "" : " " + topMessage);
    }

    /** Hands a row to a label's listeners, with the timing value that marks it as an aggregate. */
    static void deliver(SampleResult row, LabelRecording.Listeners to, String timing) {
        JMeterVariables variables = new JMeterVariables();
        variables.put(JtlColumns.TIMING, timing);
        NOTIFIER.notifyListeners(new SampleEvent(row, to.threadGroup(), variables), to.listeners());
    }

    static String timing(String engine, long start, long end) {
        return RecordingFormat.aggregateTiming(engine, start, end);
    }
}
