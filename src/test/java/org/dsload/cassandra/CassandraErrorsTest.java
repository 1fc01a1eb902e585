package org.dsload.cassandra;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dsload.core.Outcome;
import org.junit.jupiter.api.Test;

/** Which failed CQL requests no retry can cure, judged from their outcome as a sample shows it. */
class CassandraErrorsTest {

    private static Outcome failed(String code, String message) {
        return Outcome.failed(code, message, 0, 0);
    }

    @Test
    void aMissingPermissionARefusedLoginAndAMissingTableOrKeyspaceAreUnrecoverable() {
        assertTrue(CassandraErrors.unrecoverable(failed("UnauthorizedException",
                "User ycsb_reader has no SELECT permission on <table ycsb.usertable> or any of its parents")));
        assertTrue(CassandraErrors.unrecoverable(failed("AuthenticationException",
                "Provided username ycsb and/or password are incorrect")));
        assertTrue(CassandraErrors.unrecoverable(failed("InvalidQueryException",
                "preparing the statement failed: table usertable does not exist [coordinator 127.0.0.1:9042]")));
        assertTrue(CassandraErrors.unrecoverable(failed("InvalidQueryException", "Keyspace 'ycsb' does not exist")));
        assertTrue(CassandraErrors.unrecoverable(failed("InvalidQueryException", "unconfigured table usertable")));
        // a CREATE TABLE in a keyspace its coordinator does not know (yet: another engine created it)
        assertTrue(CassandraErrors.missingSchema(failed("InvalidQueryException",
                "Keyspace 'ycsb' doesn't exist [coordinator 127.0.0.2:38031]")));
        assertTrue(CassandraErrors.missingSchema(failed("InvalidQueryException", "table usertable does not exist")));
        assertFalse(CassandraErrors.missingSchema(failed("InvalidQueryException", "Invalid STRING constant (x)")));
    }

    @Test
    void timeoutsUnavailableReplicasAndOtherInvalidQueriesMayPass() {
        assertFalse(CassandraErrors.unrecoverable(failed("ReadTimeoutException", "Cassandra timeout during read query")));
        assertFalse(CassandraErrors.unrecoverable(failed("UnavailableException", "Not enough replicas available")));
        assertFalse(CassandraErrors.unrecoverable(failed("InvalidQueryException", "Invalid STRING constant (x) for \"v\" of type int")));
        assertFalse(CassandraErrors.unrecoverable(Outcome.ok("OK", "1 row", 0, 0)));
    }
}
