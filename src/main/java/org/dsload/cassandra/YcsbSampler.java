package org.dsload.cassandra;

import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.jmeter.gui.TestElementMetadata;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContext;
import org.apache.jmeter.threads.JMeterContextService;
import org.dsload.ycsb.Operation;
import org.dsload.ycsb.Workload;
import org.dsload.core.ClientSampler;
import org.dsload.core.ConfigException;
import org.dsload.core.Fields;
import org.dsload.core.Results;
import org.dsload.core.SampleTiming;
import org.dsload.core.SharedClients;

import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.cql.Statement;

/**
 * YCSB Operation sampler. In the load phase each sample inserts the next record of the workload
 * (the first sample creates the keyspace and table, as a sample labelled {@value #SCHEMA});
 * in the run phase each sample is one operation drawn from the workload's mix, labelled with the
 * operation's name (READ, UPDATE, INSERT, SCAN, READ-MODIFY-WRITE) so results group by
 * operation. A thread ends when the load is complete or the operation count is reached.
 */
@TestElementMetadata(labelResource = "displayName")
public class YcsbSampler extends ClientSampler {
    private static final long serialVersionUID = 1L;
    static final String LOAD = "LOAD";
    static final String RUN = "run";
    static final String SCHEMA = "SCHEMA";
    static final String NOT_FOUND = "NOT_FOUND";
    private static final long SCHEMA_WAIT_SECONDS = 120;
    private static final Duration SCHEMA_TIMEOUT = Duration.ofSeconds(60);

    private String session = "cassandra";
    private String workload = "ycsb";
    private String phase = RUN;

    /** The thread's own random generator, seeded from the workload's seed and the thread. */
    private transient SplittableRandom random;
    /** The Phase field as last checked, so that it is parsed once rather than per sample. */
    private transient String checkedPhase;
    private transient boolean loadPhase;

    @Override
    public SampleResult sample(Entry entry) {
        CqlClient client;
        YcsbRun run;
        boolean load;
        try {
            if (!phase.equals(checkedPhase)) {
                Fields f = new Fields(YcsbSampler.class, getName());
                loadPhase = f.choice("phase", phase, "load", RUN).equals("load");
                f.required("workload", workload);
                f.required("session", session);
                checkedPhase = phase;
            }
            load = loadPhase;
            run = SharedClients.lookup(workload, YcsbRun.class, "dsload YCSB Workload");
            client = SharedClients.lookup(session, CqlClient.class, "dsload Cassandra Session");
        } catch (ConfigException e) {
            return Results.refused(getName(), "YCSB " + phase, e);
        }
        if (random == null) {
            random = new SplittableRandom(seed(run.workload().spec().seed(), load));
        }
        long started = System.currentTimeMillis();
        try {
            return load ? load(client, run) : operation(client, run);
        } catch (RuntimeException e) {
            // a driver call outside a timed execution (a preparation) failed: its time is the sample's
            SampleResult result = Results.create(getName());
            result.setStampAndTime(started, System.currentTimeMillis() - started);
            Results.fail(result, CqlErrors.code(e), CqlErrors.message(e, client));
            return result;
        }
    }

    /** Each thread its own stream: the seed mixed with the thread group, the thread number and the phase. */
    private static long seed(long seed, boolean load) {
        JMeterContext context = JMeterContextService.getContext();
        String group = context.getThreadGroup() == null ? "" : context.getThreadGroup().getName();
        long mixed = seed * 0x9E3779B97F4A7C15L + group.hashCode();
        mixed = mixed * 31 + context.getThreadNum();
        return mixed * 31 + (load ? 1 : 2);
    }

    private SampleResult load(CqlClient client, YcsbRun run) {
        if (run.claimSchema()) {
            return createSchema(client, run);
        }
        String problem = awaitSchema(run);
        if (problem != null) {
            SampleResult result = Results.create(LOAD);
            result.sampleStart();
            result.sampleEnd();
            Results.fail(result, SCHEMA, "the keyspace and table are not in place: " + problem);
            result.setStopThread(true);
            return result;
        }
        Workload w = run.workload();
        long record = w.nextLoadRecord();
        if (record < 0) {
            return finished();
        }
        String key = w.key(record);
        SampleResult result = Results.create(LOAD);
        result.setSamplerData("INSERT " + key);
        execute(result, client, insert(client, run, key), false);
        return result;
    }

    private SampleResult createSchema(CqlClient client, YcsbRun run) {
        SampleResult result = Results.create(SCHEMA);
        UsertableCql cql = run.cql();
        String keyspace = cql.createKeyspace(run.replication());
        String table = cql.createTable();
        result.setSamplerData(keyspace + ";\n" + table);
        SampleTiming timing = new SampleTiming();
        timing.start(result);
        CqlExecution created = CqlExecution.run(client, schemaStatement(keyspace, client), true, null);
        CqlExecution tabled = created.ok() ? CqlExecution.run(client, schemaStatement(table, client), true, null) : null;
        timing.end(result);
        CqlExecution failed = !created.ok() ? created : !tabled.ok() ? tabled : null;
        Results.bytes(result, created.sent + (tabled == null ? 0 : tabled.sent),
                created.received + (tabled == null ? 0 : tabled.received));
        if (failed != null) {
            String message = CqlErrors.message(failed.error, client);
            Results.fail(result, CqlErrors.code(failed.error), message);
            run.schemaDone(message);
        } else {
            Results.succeed(result, CqlSampler.OK, "keyspace and table in place");
            run.schemaDone(null);
        }
        return result;
    }

    /**
     * Schema changes wait for every node to agree and may flush tables: on a busy node they take
     * seconds, longer than the request timeout meant for reads and writes.
     */
    private static SimpleStatement schemaStatement(String cql, CqlClient client) {
        Duration timeout = client.requestTimeout();
        return SimpleStatement.newInstance(cql).setTimeout(timeout.compareTo(SCHEMA_TIMEOUT) > 0 ? timeout : SCHEMA_TIMEOUT);
    }

    private static String awaitSchema(YcsbRun run) {
        try {
            return run.schema().get(SCHEMA_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            return "not created within " + SCHEMA_WAIT_SECONDS + " s";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted while waiting for it";
        } catch (java.util.concurrent.ExecutionException e) {
            return e.getCause().toString();
        }
    }

    /** No sample, and the thread ends: the phase has done all it had to. */
    private static SampleResult finished() {
        SampleResult result = new SampleResult();
        result.setIgnore();
        result.setStopThread(true);
        return result;
    }

    private SampleResult operation(CqlClient client, YcsbRun run) {
        Workload w = run.workload();
        if (!w.claimOperation()) {
            return finished();
        }
        Operation op = w.nextOperation(random);
        SampleResult result = Results.create(op.label());
        switch (op) {
            case READ -> read(result, client, run);
            case UPDATE -> update(result, client, run);
            case INSERT -> insertDuringRun(result, client, run);
            case SCAN -> scan(result, client, run);
            default -> readModifyWrite(result, client, run);
        }
        return result;
    }

    private int readField(Workload w) {
        return w.spec().readAllFields() ? -1 : w.nextField(random);
    }

    private void read(SampleResult result, CqlClient client, YcsbRun run) {
        Workload w = run.workload();
        String key = w.key(w.nextRecord(random));
        int field = readField(w);
        result.setSamplerData("READ " + key + (field < 0 ? "" : " " + UsertableCql.field(field)));
        CqlExecution read = execute(result, client, readStatement(client, run, key, field), true);
        notFound(result, read);
    }

    private static void notFound(SampleResult result, CqlExecution read) {
        if (read.ok() && read.rows == 0) {
            // The key is in the sampler data; one message for all keeps the summary's error set readable.
            Results.fail(result, NOT_FOUND, "no such record: the load phase did not insert it, or failed to");
        }
    }

    private void update(SampleResult result, CqlClient client, YcsbRun run) {
        Workload w = run.workload();
        String key = w.key(w.nextRecord(random));
        int field = w.spec().writeAllFields() ? -1 : w.nextField(random);
        result.setSamplerData("UPDATE " + key + (field < 0 ? "" : " " + UsertableCql.field(field)));
        execute(result, client, updateStatement(client, run, key, field), false);
    }

    private void insertDuringRun(SampleResult result, CqlClient client, YcsbRun run) {
        Workload w = run.workload();
        long record = w.nextInsertRecord();
        try {
            String key = w.key(record);
            result.setSamplerData("INSERT " + key);
            execute(result, client, insert(client, run, key), false);
        } finally {
            w.acknowledgeInsert(record);
        }
    }

    private void scan(SampleResult result, CqlClient client, YcsbRun run) {
        Workload w = run.workload();
        String key = w.key(w.nextRecord(random));
        int length = w.nextScanLength(random);
        int field = readField(w);
        result.setSamplerData("SCAN " + key + " " + length + (field < 0 ? "" : " " + UsertableCql.field(field)));
        BoundStatement scan = client.prepare(run.cql().scan(field)).bind(key, length)
                .setConsistencyLevel(run.readConsistency());
        execute(result, client, scan, true);
    }

    /** The read and the update of one key, timed together, as YCSB measures READ-MODIFY-WRITE. */
    private void readModifyWrite(SampleResult result, CqlClient client, YcsbRun run) {
        Workload w = run.workload();
        String key = w.key(w.nextRecord(random));
        int readField = readField(w);
        int writeField = w.spec().writeAllFields() ? -1 : w.nextField(random);
        result.setSamplerData("READ-MODIFY-WRITE " + key);
        Statement<?> read = readStatement(client, run, key, readField);
        Statement<?> write = updateStatement(client, run, key, writeField);
        SampleTiming timing = new SampleTiming();
        timing.start(result);
        CqlExecution first = CqlExecution.run(client, read, true, null);
        CqlExecution second = first.ok() ? CqlExecution.run(client, write, true, null) : null;
        timing.end(result);
        Results.bytes(result, first.sent + (second == null ? 0 : second.sent),
                first.received + (second == null ? 0 : second.received));
        if (!first.ok()) {
            Results.fail(result, CqlErrors.code(first.error), "read: " + CqlErrors.message(first.error, client));
        } else if (!second.ok()) {
            Results.fail(result, CqlErrors.code(second.error), "write: " + CqlErrors.message(second.error, client));
        } else {
            Results.succeed(result, CqlSampler.OK, first.rows + " read, updated");
            notFound(result, first);
        }
    }

    private static CqlExecution execute(SampleResult result, CqlClient client, Statement<?> statement, boolean rows) {
        SampleTiming timing = new SampleTiming();
        timing.start(result);
        CqlExecution run = CqlExecution.run(client, statement, true, null);
        timing.end(result);
        Results.bytes(result, run.sent, run.received);
        if (run.ok()) {
            Results.succeed(result, CqlSampler.OK, rows ? run.rows + (run.rows == 1 ? " row" : " rows") : CqlSampler.OK);
        } else {
            Results.fail(result, CqlErrors.code(run.error), CqlErrors.message(run.error, client));
        }
        return run;
    }

    private static Statement<?> readStatement(CqlClient client, YcsbRun run, String key, int field) {
        return client.prepare(run.cql().read(field)).bind(key).setConsistencyLevel(run.readConsistency());
    }

    private Statement<?> updateStatement(CqlClient client, YcsbRun run, String key, int field) {
        Workload w = run.workload();
        int values = field < 0 ? w.spec().fieldCount() : 1;
        Object[] bound = new Object[values + 1];
        for (int i = 0; i < values; i++) {
            bound[i] = w.nextValue(random);
        }
        bound[values] = key;
        return client.prepare(run.cql().update(field)).bind(bound).setConsistencyLevel(run.writeConsistency());
    }

    private Statement<?> insert(CqlClient client, YcsbRun run, String key) {
        Workload w = run.workload();
        Object[] bound = new Object[w.spec().fieldCount() + 1];
        bound[0] = key;
        for (int i = 1; i < bound.length; i++) {
            bound[i] = w.nextValue(random);
        }
        return client.prepare(run.cql().insert()).bind(bound).setConsistencyLevel(run.writeConsistency());
    }

    public String getSession() {
        return session;
    }

    public void setSession(String session) {
        this.session = session;
    }

    public String getWorkload() {
        return workload;
    }

    public void setWorkload(String workload) {
        this.workload = workload;
    }

    public String getPhase() {
        return phase;
    }

    public void setPhase(String phase) {
        this.phase = phase;
    }
}
