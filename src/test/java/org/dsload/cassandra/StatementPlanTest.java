package org.dsload.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.datastax.oss.driver.api.core.type.DataTypes;

class StatementPlanTest {

    @Test
    void markersInLiteralsAndCommentsDoNotCount() {
        assertEquals(2, StatementPlan.markers("SELECT * FROM t WHERE a = ? AND b = '?' AND c = ? -- ?"));
        assertEquals(1, StatementPlan.markers("UPDATE t /* ? */ SET v = 'it''s ?' WHERE k = ?"));
    }

    @Test
    void statementsSplitOnSemicolonsOutsideQuotes() {
        assertEquals(List.of("INSERT INTO t (k, v) VALUES (?, 'a;b')", "DELETE FROM t WHERE k = ?"),
                StatementPlan.split("INSERT INTO t (k, v) VALUES (?, 'a;b'); DELETE FROM t WHERE k = ?;\n"));
    }

    @Test
    void bindValuesMustMatchTheMarkers() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StatementPlan.compile(
                "SELECT * FROM t WHERE k = ? AND c = ?", "int 1", StatementPlan.Mode.SINGLE, 1, true));
        assertEquals("bindValues:has 1 values but the statement has 2 ? markers: give one line per marker, in order",
                e.getMessage());
    }

    @Test
    void severalStatementsNeedABatchMode() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StatementPlan.compile(
                "SELECT 1 FROM a; SELECT 1 FROM b", "", StatementPlan.Mode.SINGLE, 1, true));
        assertTrue(e.getMessage().startsWith("statement:holds 2 statements"), e.getMessage());
    }

    @Test
    void typesParseAsCqlWritesThem() {
        assertEquals(DataTypes.mapOf(DataTypes.TEXT, DataTypes.listOf(DataTypes.INT)), CqlTypes.parse("map<text, list<int>>"));
        assertEquals(DataTypes.frozenSetOf(DataTypes.UUID), CqlTypes.parse("frozen<set<uuid>>"));
        assertEquals(DataTypes.TEXT, CqlTypes.parse("VARCHAR"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CqlTypes.parse("integer")).getMessage()
                .startsWith("unknown CQL type 'integer'"));
    }

    @Test
    void valuesBecomeWhatTheCodecOfTheirTypeTakes() {
        assertEquals(42, BindValue.compile("int 42").value(0, 0, 1));
        assertEquals("user:7 of 3", BindValue.compile("text user:#{seq} of #{thread}").value(7, 0, 3));
        assertEquals(Instant.parse("2024-01-01T00:00:00Z"), BindValue.compile("timestamp 2024-01-01T00:00:00Z").value(0, 0, 1));
        assertEquals(Instant.ofEpochMilli(1000), BindValue.compile("timestamp 1000").value(0, 0, 1));
        assertEquals(Map.of("a", List.of(1, 2)), BindValue.compile("map<text, list<int>> {'a': [1, 2]}").value(0, 0, 1));
        assertEquals(ByteBuffer.wrap(new byte[] {1, 2}), BindValue.compile("blob 0x0102").value(0, 0, 1));
        assertNull(BindValue.compile("int #{null}").value(0, 0, 1));
        assertEquals(64, ((String) BindValue.compile("text #{value:64}").value(0, 0, 1)).length());
    }

    @Test
    void aValueThatIsNotOfItsTypeSaysSo() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BindValue.compile("bigint #{seq}x").value(5, 0, 1));
        assertTrue(e.getMessage().startsWith("'5x' is not a bigint value (bind value 'bigint #{seq}x')"), e.getMessage());
    }
}
