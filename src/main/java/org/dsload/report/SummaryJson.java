package org.dsload.report;

import java.util.Map;

/** The summary as JSON, for threshold checks and other tools. Times are in milliseconds. */
public final class SummaryJson {
    private SummaryJson() {
    }

    private static double ms(double micros) {
        return micros / 1000.0;
    }

    public static String render(Summary summary) {
        Json json = new Json().begin();
        json.field("source", summary.source().toString());
        json.field("percentiles", SummaryText.method(summary.total()));
        json.field("recording", summary.histograms() ? "histograms" : "rows");
        json.field("malformedRows", summary.malformedRows());
        json.field("sampleCountColumn", summary.hasSampleCount());
        json.name("labels").beginArray();
        for (LabelStats stats : summary.labels()) {
            stats(json, stats);
        }
        json.endArray();
        json.name("total");
        stats(json, summary.total());
        if (summary.hasWarmUp()) {
            // what the schedule warning and the verdicts judge: the total without the warm-up's labels
            json.name("measured");
            stats(json, summary.measured());
        }
        return json.end().toString();
    }

    private static void stats(Json json, LabelStats s) {
        Latencies h = s.latencies();
        json.begin()
                .field("label", s.label())
                .field("samples", s.samples())
                .field("requests", s.requests())
                .field("rate", s.rate())
                .field("throughput", s.throughput())
                .field("successRatio", s.successRatio())
                .field("startMs", s.samples() == 0 ? 0 : s.firstStart())
                .field("endMs", s.samples() == 0 ? 0 : s.lastEnd());
        json.name("durationMs").begin()
                .field("total", s.totalMillis()).field("attack", s.attackMillis()).field("wait", s.waitMillis())
                .end();
        json.name("latencyMs").begin().field("min", ms(h.min())).field("mean", ms(h.mean()));
        for (double p : SummaryText.PERCENTILES) {
            json.field("p" + (long) p, ms(h.percentile(p)));
        }
        json.field("p99.9", ms(h.percentile(99.9))).field("max", ms(h.max())).end();
        json.field("microsecondSamples", s.microTimedSamples());
        if (s.scheduledSamples() > 0) {
            Latencies c = s.corrected();
            json.name("schedule").begin()
                    .field("scheduledSamples", s.scheduledSamples())
                    .field("targetRate", s.targetRate())
                    .field("achievedRate", s.achievedRate())
                    .field("achievedRatio", s.achievedRatio())
                    .field("arrivals", s.arrivals())
                    .field("late", s.lateArrivals())
                    .field("lateThresholdMs", ms(s.lateMicros()))
                    .field("dropped", s.droppedArrivals());
            json.name("correctedLatencyMs").begin().field("min", ms(c.min())).field("mean", ms(c.mean()));
            for (double p : SummaryText.PERCENTILES) {
                json.field("p" + (long) p, ms(c.percentile(p)));
            }
            json.field("p99.9", ms(c.percentile(99.9))).field("max", ms(c.max())).end();
            json.end();
        }
        json.name("bytesIn").begin().field("total", s.bytesIn()).field("mean", s.meanBytesIn()).end();
        json.name("bytesOut").begin().field("total", s.bytesOut()).field("mean", s.meanBytesOut()).end();
        json.name("statusCodes").begin();
        for (Map.Entry<String, Long> code : s.statusCodes().entrySet()) {
            json.field(code.getKey(), code.getValue());
        }
        json.end();
        json.name("errors").beginArray();
        for (Map.Entry<String, Long> error : s.errors().entrySet()) {
            json.begin().field("message", error.getKey()).field("count", error.getValue()).end();
        }
        json.endArray();
        json.end();
    }
}
