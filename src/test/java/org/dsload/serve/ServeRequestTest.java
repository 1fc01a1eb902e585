package org.dsload.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The targets of a serve command line: each with the options that follow it, in order. */
class ServeRequestTest {

    @Test
    void eachTargetTakesTheOptionsThatFollowItAndDataMayStandAnywhere() {
        ServeRequest r = ServeRequest.parse(List.of("cassandra", "--nodes", "3", "kairosdb", "--datastore", "cassandra",
                "--data", "/tmp/kept", "zookeeper", "--nodes", "5", "redis"), null);
        assertEquals(List.of(ServedTargets.Kind.CASSANDRA, ServedTargets.Kind.KAIROSDB, ServedTargets.Kind.ZOOKEEPER,
                ServedTargets.Kind.REDIS), r.targets().stream().map(ServeRequest.Target::kind).toList());
        assertEquals(Map.of("nodes", "3"), r.targets().get(0).options());
        assertEquals("cassandra", r.targets().get(1).option("datastore"));
        assertEquals(Map.of(), r.targets().get(3).options());
        assertEquals(Path.of("/tmp/kept"), r.data());
    }

    @Test
    void anOptionLeftOutIsItsDefaultAndTheLabelNamesOnlyWhatDiffers() {
        ServeRequest r = ServeRequest.parse(List.of("cassandra", "zookeeper", "--nodes", "1", "kairosdb", "--datastore",
                "cassandra", "redis-cluster"), Path.of("given"));
        assertEquals("1", r.targets().get(0).option("nodes"));
        assertEquals(List.of("cassandra", "zookeeper", "kairosdb-datastore-cassandra", "redis-cluster"),
                r.targets().stream().map(ServeRequest.Target::label).toList());
        assertEquals(Path.of("given"), r.data());
        assertNull(ServeRequest.parse(List.of("influxdb"), null).data());
    }

    @Test
    void loginsStandAloneAndKeepGoingAnywhere() {
        ServeRequest r = ServeRequest.parse(List.of("redis", "--logins", "kairosdb", "--logins", "--datastore",
                "cassandra", "--keep-going", "zookeeper", "--nodes", "3"), null);
        assertEquals(List.of("redis-logins", "kairosdb-datastore-cassandra-logins", "zookeeper-nodes-3"),
                r.targets().stream().map(ServeRequest.Target::label).toList());
        assertEquals("true", r.targets().get(0).option("logins"));
        assertEquals("false", r.targets().get(1).kind().defaultOf("logins"), "off unless named");
        assertTrue(r.keepGoing());
        assertFalse(ServeRequest.parse(List.of("redis"), null).keepGoing());
        assertTrue(ServeRequest.parse(List.of("redis"), null, true).keepGoing(), "given apart from the targets");
        assertEquals("zookeeper takes --nodes, not --logins", message("zookeeper", "--logins"));
    }

    @Test
    void wrongTargetsAndOptionsAreRefusedSayingWhatIsExpected() {
        assertEquals("unknown target 'mongo'; known: redis [--logins], redis-cluster, cassandra [--nodes 1|3] [--logins],"
                + " zookeeper [--nodes 1|3|5], kairosdb [--datastore h2|cassandra] [--logins], influxdb", message("mongo"));
        assertEquals("zookeeper --nodes takes 1 or 3 or 5, not '2'", message("zookeeper", "--nodes", "2"));
        assertEquals("kairosdb takes --datastore, --logins, not --nodes", message("kairosdb", "--nodes", "3"));
        assertEquals("influxdb takes no options, not --datastore", message("influxdb", "--datastore", "h2"));
        assertEquals("--nodes needs a value", message("cassandra", "--nodes"));
        assertEquals("--data needs a value", message("redis", "--data"));
        assertEquals("cassandra is named twice; one serve runs one of each target", message("cassandra", "redis",
                "cassandra", "--nodes", "3"));
        assertEquals("serve needs at least one target: redis [--logins], redis-cluster, cassandra [--nodes 1|3] [--logins],"
                + " zookeeper [--nodes 1|3|5], kairosdb [--datastore h2|cassandra] [--logins], influxdb",
                message("--data", "x"));
        assertEquals("cassandra --logins starts one node: leave out --nodes 3", message("cassandra", "--logins",
                "--nodes", "3"));
    }

    @Test
    void aMisspeltDataOptionGetsASuggestionWhereverItStands() {
        assertEquals("Unknown option: '--dat'. Possible solutions: --data", message("redis", "--dat", "kept"));
        assertEquals("Unknown option: '--dta'. Possible solutions: --data", message("--dta", "kept", "redis"));
        assertEquals("kairosdb takes --datastore, --logins, not --datastor", message("kairosdb", "--datastor", "h2"));
        assertEquals("cassandra takes --nodes, --logins, not --node", message("cassandra", "--node", "3"));
    }

    private static String message(String... args) {
        return assertThrows(IllegalArgumentException.class, () -> ServeRequest.parse(List.of(args), null)).getMessage();
    }
}
