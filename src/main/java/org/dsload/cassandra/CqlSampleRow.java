package org.dsload.cassandra;

import java.util.ArrayList;
import java.util.List;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.core.Outcome;
import org.dsload.core.Results;

/**
 * Fills a sample's results row from the replies of its requests: one request, or the concurrent
 * ones of the sample, counted as N with the first failure's code and message. The response
 * headers name the coordinator, speculative executions, the nodes tried before and the server's
 * warnings.
 */
final class CqlSampleRow {
    private CqlSampleRow() {
    }

    /** @return the first failed request's outcome, or null when every request succeeded */
    static Outcome fill(SampleResult result, CqlReply[] replies, CassandraClient client, boolean headers, RowsText text) {
        long sent = 0;
        long received = 0;
        long rows = 0;
        int pages = 0;
        int failed = 0;
        CqlReply firstFailure = null;
        boolean allApplied = true;
        boolean conditional = false;
        List<String> warnings = new ArrayList<>();
        for (CqlReply reply : replies) {
            sent += reply.sent;
            received += reply.received;
            rows += reply.rows;
            pages += reply.pages;
            conditional |= reply.conditional;
            allApplied &= reply.applied;
            warnings.addAll(reply.warnings);
            if (!reply.ok()) {
                failed++;
                if (firstFailure == null) {
                    firstFailure = reply;
                }
            }
        }
        Results.bytes(result, sent, received);
        result.setSampleCount(replies.length);
        result.setErrorCount(failed);
        if (headers || failed > 0) {
            result.setResponseHeaders(headers(firstFailure != null ? firstFailure : replies[0], warnings));
        }
        if (firstFailure != null) {
            Outcome first = firstFailure.outcome(client);
            String message = first.message();
            if (replies.length > 1) {
                message = failed + " of " + replies.length + " requests failed; first: " + message;
            }
            Results.fail(result, first.code(), message);
            return first;
        }
        if (text != null) {
            Results.text(result, text.toString());
        }
        String message = rows + (rows == 1 ? " row" : " rows") + (pages > replies.length ? " in " + pages + " pages" : "");
        if (replies.length > 1) {
            message = replies.length + " requests, " + message;
        }
        if (conditional) {
            message += allApplied ? ", applied" : ", not applied";
        }
        if (!warnings.isEmpty()) {
            message += "; server warnings: " + String.join(" / ", warnings);
        }
        Results.succeed(result, allApplied ? CqlReply.OK : CqlReply.NOT_APPLIED, message);
        return null;
    }

    /** The response headers of a row: the coordinator, speculative executions, the nodes tried before, the server's warnings. */
    static String headers(CqlReply reply, List<String> warnings) {
        StringBuilder h = new StringBuilder();
        h.append("coordinator: ").append(reply.coordinator()).append('\n');
        if (reply.info != null) {
            if (reply.info.getSpeculativeExecutionCount() > 0) {
                h.append("speculative-executions: ").append(reply.info.getSpeculativeExecutionCount()).append('\n');
            }
            for (var tried : reply.info.getErrors()) {
                h.append("retried-after: ").append(CassandraErrors.address(tried.getKey())).append(' ')
                        .append(tried.getValue().getClass().getSimpleName()).append('\n');
            }
        }
        for (String warning : warnings) {
            h.append("warning: ").append(warning).append('\n');
        }
        return h.toString();
    }
}
