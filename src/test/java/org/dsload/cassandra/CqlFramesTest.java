package org.dsload.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.DefaultProtocolVersion;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;

class CqlFramesTest {
    private static final String SELECT = "SELECT v FROM kv WHERE k = ?"; // 28 bytes

    @Test
    void aQueryCarriesItsTextValuesAndParameters() {
        SimpleStatement s = SimpleStatement.newInstance(SELECT, "key", 7);
        // header 9 + [long string] 4 + 28 + consistency 2 + flags (1 in v4, 4 in v5)
        // + values: count 2, "key" 4 + 3, int 4 + 4 + page size 4 + timestamp 8
        long v4 = 9 + 4 + 28 + 2 + 1 + 2 + 7 + 8 + 4 + 8;
        assertEquals(v4, CqlFrames.request(s, DefaultProtocolVersion.V4));
        assertEquals(v4 + 3, CqlFrames.request(s, DefaultProtocolVersion.V5));
    }

    @Test
    void aLaterPageAddsItsPagingStateAndANonDefaultSerialConsistencyCounts() {
        SimpleStatement s = SimpleStatement.newInstance("SELECT * FROM kv");
        long first = CqlFrames.request(s, DefaultProtocolVersion.V5);
        assertEquals(first + 4 + 10, CqlFrames.request(s, DefaultProtocolVersion.V5, ByteBuffer.allocate(10)));
        assertEquals(first, CqlFrames.request(s.setSerialConsistencyLevel(DefaultConsistencyLevel.SERIAL),
                DefaultProtocolVersion.V5), "SERIAL is the protocol's default and is not sent");
        assertEquals(first + 2, CqlFrames.request(s.setSerialConsistencyLevel(DefaultConsistencyLevel.LOCAL_SERIAL),
                DefaultProtocolVersion.V5));
    }

    @Test
    void aBatchCarriesEachStatementOnceAndItsParametersOnce() {
        BatchStatement batch = BatchStatement.newInstance(BatchType.UNLOGGED,
                SimpleStatement.newInstance(SELECT, "a"), SimpleStatement.newInstance(SELECT, "bb"));
        // header 9 + type 1 + count 2 + each: kind 1 + text 4 + 28 + values 2 + 4 + len
        // + consistency 2 + flags 4 (v5) + timestamp 8
        assertEquals(9 + 1 + 2 + (1 + 32 + 2 + 5) + (1 + 32 + 2 + 6) + 2 + 4 + 8,
                CqlFrames.request(batch, DefaultProtocolVersion.V5));
    }
}
