package org.dsload.kairosdb;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.jmeter.threads.JMeterContextService;
import org.dsload.core.CompiledFields;

/**
 * The batches one KairosDB Write clone (one JMeter thread) sends, and what the connection's
 * ledger learns of them: the series of a generated batch maker when it is made, a batch's points
 * and time range when KairosDB accepted it.
 */
final class ThreadBatches {
    /** The settings the batch maker was built from. */
    private WriteSettings.Compiled batchOf;
    private WriteBatch batch;
    private KairosDbClient ledgerOf;
    /** The template mode's body as a batch, counted again only when its text changes, for the ledger of {@code bodyLedgerOf}. */
    private CompiledFields<WriteBatch.Built> body;
    private KairosDbClient bodyLedgerOf;
    /** The body's series, noted in the ledger at its first success (a refused body wrote none). */
    private List<WriteLedger.Series> bodySeries = List.of();

    /** @param body the Body field, used in the template mode (no generated batch spec) */
    WriteBatch.Built next(WriteSettings.Compiled c, KairosDbClient client, String body) {
        return c.spec() != null ? generated(c, client.ledger(), client) : bodyBatch(body, client);
    }

    /** A batch KairosDB accepted: its points and time range into the ledger, and a template body's series at its first success. */
    void written(WriteCall call, String writer) {
        noteBodySeries(call.ledger());
        call.ledger().written(writer, call.points(), call.firstPoint(), call.lastPoint());
    }

    /**
     * A batch sent whose answer never came: its points may be in KairosDB all the same, so the
     * count back covers them, as points that may or may not be there.
     */
    void unanswered(WriteCall call) {
        noteBodySeries(call.ledger());
        call.ledger().unanswered(call.points(), call.firstPoint(), call.lastPoint());
    }

    private void noteBodySeries(WriteLedger ledger) {
        if (!bodySeries.isEmpty()) {
            bodySeries.forEach(series -> ledger.series(series.name(), series.tags()));
            bodySeries = List.of();
        }
    }

    /** The thread's next generated batch; its batch maker is built again when the settings or the connection change. */
    private WriteBatch.Built generated(WriteSettings.Compiled c, WriteLedger ledger, KairosDbClient client) {
        if (batch == null || batchOf != c || ledgerOf != client) {
            int thread = JMeterContextService.getContext().getThreadNum() + 1;
            batch = new WriteBatch(c.spec(), thread, EngineId.current());
            batch.series().forEach(s -> ledger.series(s.name(), s.tags()));
            batchOf = c;
            ledgerOf = client;
        }
        return batch.next(System.currentTimeMillis());
    }

    /**
     * The user's body as a batch. A body without per-sample functions is the same text every time:
     * it is parsed and counted only when it changes.
     */
    private WriteBatch.Built bodyBatch(String text, KairosDbClient client) {
        if (body == null || bodyLedgerOf != client) {
            body = new CompiledFields<>(); // another connection: its ledger learns the series anew
            bodyLedgerOf = client;
        }
        return body.get(new String[] {text}, () -> {
            TemplateBody.Counted counted = TemplateBody.count(text);
            bodySeries = counted.series();
            return new WriteBatch.Built(text.getBytes(StandardCharsets.UTF_8), counted.points(), counted.firstPoint(),
                    counted.lastPoint());
        });
    }
}
