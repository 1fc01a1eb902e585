package org.dsload.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;

import org.dsload.cassandra.CqlRequestKind.Kind;
import org.dsload.cassandra.CqlRequestKind.Parsed;
import org.junit.jupiter.api.Test;

/** What a statement counts as on Cassandra's coordinator, as measured on Cassandra 5.0. */
class CqlRequestKindTest {

    private static void is(Kind kind, Set<String> tables, String cql) {
        assertEquals(new Parsed(kind, tables), CqlRequestKind.parse(cql), cql);
    }

    @Test
    void selectsAreReadsOfTheTableAfterFrom() {
        is(Kind.READ, Set.of("ks.t"), "SELECT v FROM ks.t WHERE id = ?");
        is(Kind.READ, Set.of("t"), "  select * from T where id in (1, 2)");
        is(Kind.READ, Set.of("Ks.My Table"), "SELECT * FROM \"Ks\".\"My Table\"");
        is(Kind.READ, Set.of("system.local"), "SELECT release_version FROM system.local");
    }

    @Test
    void insertsUpdatesAndDeletesAreWrites() {
        is(Kind.WRITE, Set.of("ks.t"), "INSERT INTO ks.t (id, v) VALUES (?, 'update me')");
        is(Kind.WRITE, Set.of("t"), "UPDATE t USING TTL 10 SET v = 'from x' WHERE id = 1");
        is(Kind.WRITE, Set.of("ks.t"), "DELETE v FROM ks.t WHERE id = 1");
    }

    @Test
    void aConditionIsAConditionalWriteButNotInsideAString() {
        is(Kind.CONDITIONAL, Set.of("t"), "INSERT INTO t (id, v) VALUES (1, 'x') IF NOT EXISTS");
        is(Kind.CONDITIONAL, Set.of("t"), "UPDATE t SET v = 'y' WHERE id = 1 IF v = 'x'");
        is(Kind.WRITE, Set.of("t"), "INSERT INTO t (id, v) VALUES (1, 'what IF it rains')");
    }

    @Test
    void aBatchNamesEveryTableItChanges() {
        is(Kind.WRITE, Set.of("a", "ks.b"), "BEGIN BATCH INSERT INTO a (k) VALUES (1); UPDATE ks.b SET v = 1 WHERE k = 1; "
                + "INSERT INTO a (k) VALUES (2); APPLY BATCH");
    }

    @Test
    void otherStatementsCountAsNothing() {
        is(Kind.NONE, Set.of(), "CREATE TABLE IF NOT EXISTS ks.t (id int PRIMARY KEY)");
        is(Kind.NONE, Set.of(), "USE ks");
        is(Kind.NONE, Set.of(), "TRUNCATE ks.t");
    }
}
