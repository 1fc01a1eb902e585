package org.dsload.cassandra;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.cql.Statement;
import com.datastax.oss.driver.api.core.type.codec.registry.CodecRegistry;

/**
 * Sizes of the request frames the driver sends, computed from the statement as the native
 * protocol encodes it: a 9-byte frame header and a QUERY, EXECUTE or BATCH body (the statement
 * text or prepared id, the bound values, consistency, flags, page size, paging state, serial
 * consistency and timestamp). Not counted: protocol v5's segment framing (10 bytes per segment of
 * up to 128 KiB, which several small frames share), compression, TLS and TCP.
 *
 * <p>The driver reports the size of each response frame itself
 * ({@code ExecutionInfo.getResponseSizeInBytes()}), so bytes received need no estimate.
 */
final class CqlFrames {
    static final int HEADER = 9;
    private static final int CONSISTENCY = 2;
    private static final int TIMESTAMP = 8;
    private static final int PAGE_SIZE = 4;

    private CqlFrames() {
    }

    /** The request frame of the first page of a statement. */
    static long request(Statement<?> statement, ProtocolVersion version) {
        return request(statement, version, null);
    }

    /** The request frame for one page; {@code pagingState} is null for the first. */
    static long request(Statement<?> statement, ProtocolVersion version, ByteBuffer pagingState) {
        long body;
        if (statement instanceof BatchStatement batch) {
            body = 1 + 2; // type, statement count
            for (BatchableStatement<?> child : batch) {
                body += 1 + target(child, version, true) + values(child, version);
            }
            body += CONSISTENCY + flags(version) + serialConsistency(statement) + TIMESTAMP;
        } else {
            body = target(statement, version, false) + queryParameters(statement, version, pagingState);
        }
        return HEADER + body;
    }

    /**
     * The statement text ([long string]) or the prepared id ([short bytes]) and, for a top-level
     * EXECUTE in v5, the result metadata id.
     */
    private static long target(Statement<?> statement, ProtocolVersion version, boolean inBatch) {
        if (statement instanceof BoundStatement bound) {
            long size = 2 + bound.getPreparedStatement().getId().remaining();
            if (version.getCode() >= 5 && !inBatch) {
                ByteBuffer metadataId = bound.getPreparedStatement().getResultMetadataId();
                size += 2 + (metadataId == null ? 0 : metadataId.remaining());
            }
            return size;
        }
        if (statement instanceof SimpleStatement simple) {
            return 4 + simple.getQuery().getBytes(StandardCharsets.UTF_8).length;
        }
        return 0;
    }

    private static long queryParameters(Statement<?> statement, ProtocolVersion version, ByteBuffer pagingState) {
        long size = CONSISTENCY + flags(version);
        long values = values(statement, version);
        if (values > 2) {
            size += values;
        }
        size += PAGE_SIZE;
        if (pagingState != null) {
            size += 4 + pagingState.remaining();
        }
        return size + serialConsistency(statement) + TIMESTAMP;
    }

    /** Sent only when it is not SERIAL, the protocol's default. */
    private static long serialConsistency(Statement<?> statement) {
        var level = statement.getSerialConsistencyLevel();
        return level == null || level.getProtocolCode() == 8 ? 0 : CONSISTENCY;
    }

    private static int flags(ProtocolVersion version) {
        return version.getCode() >= 5 ? 4 : 1;
    }

    /** [short] count and each value as [bytes] (a 4-byte length, -1 for null, then the bytes). */
    static long values(Statement<?> statement, ProtocolVersion version) {
        long size = 2;
        if (statement instanceof BoundStatement bound) {
            for (ByteBuffer value : bound.getValues()) {
                size += 4 + (value == null ? 0 : value.remaining());
            }
        } else if (statement instanceof SimpleStatement simple) {
            for (Object value : simple.getPositionalValues()) {
                size += 4 + encodedSize(value, version);
            }
            for (var named : simple.getNamedValues().entrySet()) {
                size += 2 + named.getKey().asInternal().length() + 4 + encodedSize(named.getValue(), version);
            }
        }
        return size;
    }

    private static long encodedSize(Object value, ProtocolVersion version) {
        if (value == null) {
            return 0;
        }
        ByteBuffer encoded = CodecRegistry.DEFAULT.codecFor(value).encode(value, version);
        return encoded == null ? 0 : encoded.remaining();
    }
}
