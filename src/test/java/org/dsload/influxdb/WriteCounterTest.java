package org.dsload.influxdb;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.util.List;
import java.util.Map;

import org.dsload.core.Completion;
import org.dsload.core.Outcome;
import org.dsload.core.RequestsResult;
import org.dsload.http.HttpEnd;
import org.dsload.http.HttpPlace;
import org.dsload.testing.JMeterRuntime;
import org.junit.jupiter.api.Test;

/** The gauges' count of writes, for rows of dsload InfluxDB Write that stand for several requests. */
class WriteCounterTest {
    private static final InfluxDbClient.Target TARGET = InfluxDbClient.Target.of(URI.create("http://127.0.0.1:8086/"),
            "write?db=test");

    private static Completion request(Outcome outcome, int points) {
        InfluxDbWriteSampler.Written written = new InfluxDbWriteSampler.Written(TARGET, points, new byte[0]);
        return new Completion(Completion.UNSCHEDULED, 0, 1000, 0, 1, outcome,
                new HttpEnd(new HttpPlace.Sent(TARGET.write(), written, 0), null));
    }

    private static RequestsResult row(List<Completion> requests) {
        JMeterRuntime.init(); // before JMeter's SampleResult reads its settings
        RequestsResult row = new RequestsResult();
        row.requests(requests);
        row.setSampleCount(requests.size());
        row.setURL(TARGET.url());
        return row;
    }

    @Test
    void aRowCountsEachOfItsRequestsThePointsOfThoseAcceptedAndOfThoseThatTimedOut() {
        WriteCounter counter = new WriteCounter();
        Outcome ok = Outcome.ok("204", "written", 0, 0);
        counter.add(row(List.of(request(ok, 1), request(ok, 2), request(ok, 1))));
        Outcome refused = Outcome.failed("500", "cache full", 0, 0);
        counter.add(row(List.of(request(refused, 1), request(refused, 2))));
        Outcome cancelled = Outcome.failed("CANCELLED", "cancelled", 0, 0);
        counter.add(row(List.of(new Completion(Completion.UNSCHEDULED, 0, 10, 0, 1, cancelled))));
        Outcome timedOut = InfluxDbErrors.timedOut("http://127.0.0.1:8086/", 1000);
        counter.add(row(List.of(request(timedOut, 3), request(ok, 1))));
        assertEquals(Map.of(WriteCounter.REQUESTS, 8L, WriteCounter.POINTS, 5L, WriteCounter.UNANSWERED_POINTS, 3L),
                counter.snapshot(), "8 requests sent, refused, cancelled and timed-out ones too; the 5 points of the 4 "
                + "accepted; the 3 of the one that timed out, which InfluxDB may have stored");
    }
}
