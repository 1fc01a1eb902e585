package org.dsload.kairosdb;

import java.time.Duration;
import java.util.function.LongSupplier;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.process.Deadline;
import org.dsload.testing.JMeterRuntime;

/** Builds KairosDB elements the way a plan would; samplers run in the calling thread. */
final class KairosDbFixture {
    private KairosDbFixture() {
    }

    static KairosDbConnection connection(String urls) {
        JMeterRuntime.init();
        KairosDbConnection c = new KairosDbConnection();
        c.setName("kairosdb");
        c.setVariableName("kairosdb");
        c.setUrls(urls);
        c.setCrossCheckWait("20");
        return c;
    }

    /** A generated batch writer of {@code metrics} metrics per request named {@code prefix.#{m}}. */
    static KairosDbWriteSampler writer(String prefix, int metricsPerRequest, int metricsPerResource, int points) {
        JMeterRuntime.init();
        KairosDbWriteSampler w = new KairosDbWriteSampler();
        w.setName("write " + prefix);
        w.setMetricName(prefix + ".#{m}");
        w.setTags("host=res-#{thread}, dc=dc1");
        w.setMetricsPerRequest(Integer.toString(metricsPerRequest));
        w.setMetricsPerResource(Integer.toString(metricsPerResource));
        w.setPointsPerMetric(Integer.toString(points));
        return w;
    }

    static KairosDbWriteSampler template(String body) {
        JMeterRuntime.init();
        KairosDbWriteSampler w = new KairosDbWriteSampler();
        w.setName("write template");
        w.setMode(KairosDbWriteSampler.TEMPLATE);
        w.setBody(body);
        return w;
    }

    static KairosDbQuerySampler query(String metrics, int perQuery) {
        JMeterRuntime.init();
        KairosDbQuerySampler q = new KairosDbQuerySampler();
        q.setName("query");
        q.setMetrics(metrics);
        q.setMetricsPerQuery(Integer.toString(perQuery));
        q.setStart("1 days");
        q.setAggregator("none");
        q.setResponseDataLimit("100000");
        return q;
    }

    static String text(SampleResult r) {
        return r.getResponseDataAsString();
    }

    static String describe(SampleResult r) {
        return r.getResponseCode() + " " + r.getResponseMessage();
    }

    /** Polls until the value equals {@code expected} or 20 s passed (KairosDB stores acknowledged points from a queue). */
    static long eventually(long expected, LongSupplier value) throws InterruptedException {
        long[] seen = {value.getAsLong()};
        Deadline.await(() -> (seen[0] = value.getAsLong()) == expected, Duration.ofSeconds(20), Duration.ofMillis(250));
        return seen[0];
    }
}
