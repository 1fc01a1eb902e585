package org.dsload.cassandra;

import java.util.Iterator;

import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.Statement;

/**
 * One statement run on the sampler's thread, blocking until its reply (and, with every page, the
 * further pages) is in. The caller times it; an error is kept in the reply, never thrown.
 */
final class CqlCall {
    private CqlCall() {
    }

    static CqlReply execute(CassandraClient client, Statement<?> statement, boolean allPages, CqlReply.RowSink sink) {
        ProtocolVersion version = client.protocolVersion();
        CqlReply reply = CqlReply.sending(statement, version);
        ResultSet rs = null;
        try {
            rs = client.session().execute(statement);
            if (reply.columns(rs.getColumnDefinitions(), sink)) {
                reply.applied = rs.wasApplied();
            }
            Iterator<Row> it = rs.iterator();
            if (allPages) {
                while (it.hasNext()) {
                    reply.row(it.next(), sink);
                }
            } else {
                for (int n = rs.getAvailableWithoutFetching(); n > 0; n--) {
                    reply.row(it.next(), sink);
                }
            }
            reply.pages(rs.getExecutionInfos(), statement, version);
        } catch (RuntimeException failure) {
            reply.fail(failure);
        }
        reply.ended();
        // a page that failed ends the reply with the error, but the pages before it were answered
        client.replied(reply.ok() || rs == null ? reply.pages : rs.getExecutionInfos().size());
        return reply;
    }
}
