package org.dsload.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterVariables;
import org.dsload.targets.EmbeddedCassandra;
import org.dsload.testing.JMeterRuntime;
import org.dsload.testing.SharedCassandra;
import org.dsload.ycsb.YcsbSampler;
import org.dsload.ycsb.YcsbWorkload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import com.datastax.oss.driver.api.core.CqlSession;

/** The YCSB workload element and operation sampler, load then run, against a real Cassandra node. */
@Timeout(240)
@ExtendWith(SharedCassandra.class)
class YcsbWorkloadIT {
    private static final int THREADS = 4;

    @Test
    void loadThenRunObservesTheProportionsAndAZipfianKeyPopularity() throws Exception {
        EmbeddedCassandra cassandra = SharedCassandra.node();
        JMeterVariables variables = JMeterRuntime.freshVariables();
        CassandraConnection session = CassandraFixture.session(cassandra.address());
        session.testStarted();
        YcsbWorkload workload = new YcsbWorkload();
        workload.setName("ycsb");
        workload.setVariableName("ycsb");
        workload.setRecordCount("1000");
        workload.setOperationCount("10000");
        workload.setFieldLength("20");
        workload.setReadProportion("0.4");
        workload.setUpdateProportion("0.3");
        workload.setInsertProportion("0.1");
        workload.setScanProportion("0.1");
        workload.setReadModifyWriteProportion("0.1");
        workload.setMaxScanLength("10");
        workload.setRequestDistribution("zipfian");
        workload.testStarted();
        CassandraYcsbSettings cql = CassandraFixture.ycsbSettings("ycsb_it", "ONE", true);
        try {
            List<SampleResult> load = runPhase(variables, "load");
            Map<String, Long> loaded = countByLabel(load);
            assertEquals(Map.of("SCHEMA", 1L, "LOAD", 1000L), loaded, "one schema sample, then every record once");
            assertTrue(load.stream().allMatch(SampleResult::isSuccessful), firstFailure(load));
            try (CqlSession s = cassandra.session("ycsb_it")) {
                assertEquals(1000, s.execute("SELECT count(*) FROM usertable").one().getLong(0));
                assertEquals(20, s.execute("SELECT field3 FROM usertable WHERE y_id = 'user6284781860667377211'")
                        .one().getString(0).length(), "record 0 has YCSB's key and 20-character fields");
            }

            List<SampleResult> run = runPhase(variables, "run");
            assertEquals(10_000, run.size(), "the operation count is shared by the threads");
            assertTrue(run.stream().allMatch(SampleResult::isSuccessful), firstFailure(run));
            Map<String, Long> ops = countByLabel(run);
            Map<String, Double> expected = Map.of("READ", 0.4, "UPDATE", 0.3, "INSERT", 0.1, "SCAN", 0.1,
                    "READ-MODIFY-WRITE", 0.1);
            assertEquals(expected.keySet(), ops.keySet());
            expected.forEach((label, share) -> assertEquals(share, ops.get(label) / 10_000.0, 0.02, label + ": " + ops));
            try (CqlSession s = cassandra.session("ycsb_it")) {
                assertEquals(1000 + ops.get("INSERT"), s.execute("SELECT count(*) FROM usertable").one().getLong(0),
                        "every run-phase insert added a record");
            }

            // Which keys the reads went to: a few records take a large share, as zipfian popularity does.
            Map<String, Long> readsPerKey = run.stream().filter(r -> r.getSampleLabel().equals("READ"))
                    .map(r -> r.getSamplerData().substring("READ ".length()))
                    .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
            long reads = ops.get("READ");
            List<Long> popularity = readsPerKey.values().stream().sorted(Comparator.reverseOrder()).toList();
            double hottest = popularity.get(0) / (double) reads;
            double top10 = popularity.stream().limit(10).mapToLong(Long::longValue).sum() / (double) reads;
            // Uniform reads would give each record 0.1 %. Zipfian ranks land on record numbers up to 3000 (room
            // for the run's inserts), and a draw of a record not yet written is drawn again, so which ranks
            // survive varies; the hottest surviving ones still get many times their uniform share.
            assertTrue(hottest > 0.01 && hottest < 0.08, "the hottest record gets several % of reads: " + hottest);
            assertTrue(top10 > 0.06, "the 10 hottest records get over 6 % of reads: " + top10);
            assertTrue(readsPerKey.size() > 400, "the tail is read too: " + readsPerKey.size() + " distinct records");
        } finally {
            cql.testEnded();
            workload.testEnded();
            session.testEnded();
        }
    }

    @Test
    void everyOperationKeepsItsLabelWhenItFailsEntirely() {
        EmbeddedCassandra cassandra = SharedCassandra.node();
        JMeterRuntime.freshVariables();
        CassandraConnection session = CassandraFixture.session(cassandra.address());
        session.testStarted();
        YcsbWorkload workload = new YcsbWorkload();
        workload.setName("ycsb");
        workload.setVariableName("ycsb");
        workload.setWorkload("a");
        workload.testStarted();
        CassandraYcsbSettings cql = CassandraFixture.ycsbSettings("system_traces", "QUORUM", false); // exists; has no usertable
        try {
            YcsbSampler sampler = new YcsbSampler();
            sampler.setName("ycsb run");
            sampler.setBindingSettings("ycsb_cassandra");
            sampler.setStopOnUnrecoverable("false");
            Map<String, Long> labels = new ConcurrentHashMap<>();
            for (int i = 0; i < 40; i++) {
                SampleResult r = sampler.sample(null);
                assertEquals("InvalidQueryException", r.getResponseCode(), r.getResponseMessage());
                assertTrue(r.getResponseMessage().contains("usertable does not exist"), r.getResponseMessage());
                assertFalse(r.isStopTest(), "stopping is off");
                labels.merge(r.getSampleLabel(), 1L, Long::sum);
            }
            assertEquals(java.util.Set.of("READ", "UPDATE"), labels.keySet(), "labelled by operation, not by sampler");
        } finally {
            cql.testEnded();
            workload.testEnded();
            session.testEnded();
        }
    }

    /** Runs the phase on THREADS threads until each is told to stop; returns the samples that count. */
    private static List<SampleResult> runPhase(JMeterVariables variables, String phase) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        List<SampleResult> all = new ArrayList<>();
        try {
            List<Future<List<SampleResult>>> done = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    JMeterRuntime.adopt(variables, thread);
                    YcsbSampler sampler = new YcsbSampler();
                    sampler.setName("ycsb " + phase);
                    sampler.setPhase(phase);
                    sampler.setBindingSettings("ycsb_cassandra");
                    List<SampleResult> mine = new ArrayList<>();
                    for (int i = 0; i < 20_000; i++) {
                        SampleResult r = sampler.sample(null);
                        if (!r.isIgnore()) {
                            mine.add(r);
                        }
                        if (r.isStopThread()) {
                            return mine;
                        }
                    }
                    throw new AssertionError("thread " + thread + " was never told to stop");
                }));
            }
            for (Future<List<SampleResult>> f : done) {
                all.addAll(f.get(180, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
        return all;
    }

    private static Map<String, Long> countByLabel(List<SampleResult> samples) {
        Map<String, Long> counts = new ConcurrentHashMap<>();
        samples.forEach(s -> counts.merge(s.getSampleLabel(), 1L, Long::sum));
        return counts;
    }

    private static String firstFailure(List<SampleResult> samples) {
        return samples.stream().filter(s -> !s.isSuccessful()).findFirst()
                .map(s -> s.getSampleLabel() + " " + s.getResponseCode() + " " + s.getResponseMessage()).orElse("");
    }
}
