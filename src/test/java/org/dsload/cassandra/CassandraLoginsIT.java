package org.dsload.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.plans.PlanRuns;
import org.dsload.report.JtlSample;
import org.dsload.targets.EmbeddedCassandra;
import org.dsload.testing.JMeterRuntime;
import org.dsload.ycsb.YcsbSampler;
import org.dsload.ycsb.YcsbWorkload;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import com.datastax.oss.driver.api.core.CqlSession;

/**
 * The Cassandra elements and the YCSB plan against a node that requires a login and checks
 * permissions, with roles as production clusters give them: granted on their own keyspace only,
 * or lacking the permission a statement needs.
 */
@Timeout(600)
class CassandraLoginsIT {
    private static final String PASSWORD = "it-secret-1";
    private static EmbeddedCassandra cassandra;
    private CassandraConnection connection;
    private YcsbWorkload workload;
    private CassandraYcsbSettings ycsbCassandra;

    @BeforeAll
    static void node() {
        cassandra = EmbeddedCassandra.startWithLogins();
        try (CqlSession s = cassandra.session(null)) {
            for (String keyspace : List.of("owned", "locked")) {
                s.execute("CREATE KEYSPACE " + keyspace + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            }
            s.execute("CREATE TABLE locked.usertable (y_id varchar PRIMARY KEY, field0 varchar)");
            // the usual production grant: everything on its own keyspace, nothing beyond it
            s.execute("CREATE ROLE app WITH LOGIN = true AND PASSWORD = '" + PASSWORD + "'");
            s.execute("GRANT ALL PERMISSIONS ON KEYSPACE owned TO app");
            // may log in, may not read or write the table
            s.execute("CREATE ROLE outsider WITH LOGIN = true AND PASSWORD = '" + PASSWORD + "'");
        }
    }

    @AfterAll
    static void stop() {
        if (cassandra != null) {
            cassandra.close();
        }
    }

    @AfterEach
    void disconnect() {
        if (ycsbCassandra != null) {
            ycsbCassandra.testEnded();
        }
        if (workload != null) {
            workload.testEnded();
        }
        if (connection != null) {
            connection.testEnded();
        }
    }

    private void connect(String user, String password) {
        JMeterRuntime.freshVariables();
        connection = CassandraFixture.session(cassandra.address());
        connection.setUsername(user);
        connection.setPassword(password);
        connection.testStarted();
    }

    @Test
    void aRefusedPasswordIsReportedAsARefusedLoginNotAsANodeThatIsDown() {
        connect("app", "wrong-password");
        SampleResult r = CassandraFixture.run("SELECT release_version FROM system.local", "");
        assertEquals("CONFIG", r.getResponseCode());
        assertTrue(r.getResponseMessage().contains("The node refused the login: check User name and Password"),
                r.getResponseMessage());
        assertTrue(r.getResponseMessage().contains("AuthenticationException"), r.getResponseMessage());
        assertFalse(r.getResponseMessage().contains("Check Contact points"), r.getResponseMessage());
        assertFalse(r.getResponseMessage().contains("wrong-password"), "the password never shows");
    }

    @Test
    void noLoginAtAllIsToldThatTheClusterRequiresOne() {
        connect("", "");
        SampleResult r = CassandraFixture.run("SELECT release_version FROM system.local", "");
        assertEquals("CONFIG", r.getResponseCode());
        assertTrue(r.getResponseMessage().contains("The cluster requires a login: fill in User name and Password"),
                r.getResponseMessage());
    }

    @Test
    void aMissingPermissionStopsTheTestAtItsFirstSampleUnlessTheFieldSaysRunOn() {
        connect("outsider", PASSWORD);
        CassandraSampler select = CassandraFixture.sampler("SELECT * FROM locked.usertable WHERE y_id = ?", "text user1");
        SampleResult first = select.sample(null);
        assertFalse(first.isSuccessful());
        assertEquals("UnauthorizedException", first.getResponseCode());
        assertTrue(first.getResponseMessage().contains("has no SELECT permission on <table locked.usertable>"),
                first.getResponseMessage());
        assertTrue(first.isStopTest(), "no retry can cure a missing permission: the test stops");

        select.setStopOnUnrecoverable("false");
        SampleResult runOn = select.sample(null);
        assertEquals("UnauthorizedException", runOn.getResponseCode());
        assertFalse(runOn.isStopTest(), "with the field off the failure is a sample like any other");

        SampleResult missingTable = CassandraFixture.run("SELECT * FROM owned.nosuchtable", "");
        assertEquals("InvalidQueryException", missingTable.getResponseCode());
        assertTrue(missingTable.isStopTest(), "a table that does not exist is not cured by retrying either: "
                + missingTable.getResponseMessage());
    }

    @Test
    void ycsbOperationsOfARoleWithoutSelectOrModifyStopTheTestAndKeepTheirOperationLabel() {
        connect("outsider", PASSWORD);
        workload = new YcsbWorkload();
        workload.setName("ycsb");
        workload.setVariableName("ycsb");
        workload.setFieldCount("1");
        workload.setRecordCount("10");
        workload.setWorkload("a");
        workload.testStarted();
        ycsbCassandra = CassandraFixture.ycsbSettings("locked", "QUORUM", true);
        YcsbSampler sampler = new YcsbSampler();
        sampler.setName("YCSB run");
        sampler.setBindingSettings("ycsb_cassandra");
        SampleResult r = sampler.sample(null);
        assertTrue(List.of("READ", "UPDATE").contains(r.getSampleLabel()), "labelled by its operation: " + r.getSampleLabel());
        assertEquals("UnauthorizedException", r.getResponseCode(), r.getResponseMessage());
        assertTrue(r.isStopTest());
    }

    @Test
    void aRoleGrantedOnlyOnItsKeyspaceRunsTheYcsbPlanWithTheDefaultCreateSchema() throws Exception {
        PlanRuns.Result result = PlanRuns.run("cassandra-ycsb.jmx", Map.of("hosts", cassandra.address(),
                "cassandra_user", "app", "cassandra_password", PASSWORD, "keyspace", "owned", "recordcount", "200",
                "operations", "600", "threads", "4", "load_threads", "2", "in_flight", "1"), Duration.ofMinutes(4), false);
        assertTrue(result.outcome().ok(), result.outcome().problem() + "\n" + result.console());
        List<JtlSample> samples = PlanRuns.samples(result.outcome().jtl());
        Map<String, Long> labels = samples.stream().collect(Collectors.groupingBy(JtlSample::label, Collectors.counting()));
        assertTrue(samples.stream().allMatch(JtlSample::success), samples.stream().filter(s -> !s.success())
                .findFirst().map(s -> s.label() + " " + s.responseCode() + " " + s.responseMessage()).orElse(""));
        assertEquals(1L, labels.get("SCHEMA"));
        assertEquals(200L, labels.get("LOAD"));
        assertEquals(600L, labels.getOrDefault("READ", 0L) + labels.getOrDefault("UPDATE", 0L), labels.toString());
        JtlSample schema = samples.stream().filter(s -> s.label().equals("SCHEMA")).findFirst().orElseThrow();
        assertTrue(schema.responseMessage().startsWith("table created (owned.usertable)"), schema.responseMessage());
        assertFalse(result.console().contains(PASSWORD), "the password never reaches the console");
    }

    @Test
    void aSchemaTheRoleMayNotCreateStopsThePlanBeforeItsLoadAndRunPhasesAndTheRunEndsWithoutSuccess() throws Exception {
        // the keyspace does not exist and the role may create none: the schema step is refused
        PlanRuns.Result result = PlanRuns.run("cassandra-ycsb.jmx", Map.of("hosts", cassandra.address(),
                "cassandra_user", "app", "cassandra_password", PASSWORD, "keyspace", "absent", "recordcount", "200",
                "threads", "4", "load_threads", "2", "in_flight", "1", "duration", "60"), Duration.ofMinutes(3), false);
        List<JtlSample> samples = PlanRuns.samples(result.outcome().jtl());
        Map<String, Long> labels = samples.stream().collect(Collectors.groupingBy(JtlSample::label, Collectors.counting()));
        assertEquals(1L, labels.get("SCHEMA"), labels.toString());
        assertFalse(labels.keySet().stream().anyMatch(l -> List.of("READ", "UPDATE").contains(l)),
                "no run-phase sample: " + labels);
        JtlSample schema = samples.stream().filter(s -> s.label().equals("SCHEMA")).findFirst().orElseThrow();
        assertEquals("UnauthorizedException", schema.responseCode(), schema.responseMessage());
        assertEquals(org.dsload.run.Ending.NO_SUCCESS, result.outcome().ending(), result.outcome().problem());
        assertTrue(result.console().contains("setting up the store failed: UnauthorizedException"), result.console());
    }

    @Test
    void aRoleWithoutPermissionsStopsThePlanAtItsFirstFailureWithTheServersSentenceOnTheConsole() throws Exception {
        PlanRuns.Result result = PlanRuns.run("cassandra-ycsb.jmx", Map.of("hosts", cassandra.address(),
                "cassandra_user", "outsider", "cassandra_password", PASSWORD, "keyspace", "locked", "fieldcount", "1",
                "create_schema", "false", "load_threads", "0", "threads", "8", "in_flight", "1", "duration", "60"),
                Duration.ofMinutes(3), false);
        List<JtlSample> samples = PlanRuns.samples(result.outcome().jtl());
        assertFalse(samples.isEmpty(), result.console());
        assertTrue(samples.size() < 100, "the test stops at the first failure, not after 60 s at full speed: "
                + samples.size() + " samples");
        assertTrue(samples.stream().allMatch(s -> s.responseCode().equals("UnauthorizedException")), samples.get(0).responseCode());
        assertTrue(result.console().contains("UnauthorizedException: User outsider has no "), result.console());
        assertTrue(result.console().contains("No retry can cure this error, so the test stops"), result.console());
    }
}
