package org.dsload.kairosdb;

import java.io.IOException;
import java.net.URI;
import java.util.List;

import org.dsload.bench.PlainLoop;

/**
 * The reference of the KairosDB benchmark, run in a JVM of its own like JMeter: N threads, each
 * one resource, loop {@code POST /api/v1/datapoints} of the same generated batches
 * ({@link WriteBatch}, the defaults of test-plans/kairosdb-write.jmx) over the same client
 * ({@link KairosDbClient}, pool 200, keep-alive, no gzip). Prints
 * {@code ops=<points> seconds=<s> p99us=<µs> errors=<batches>} for the window after the warm-up
 * (a failed batch counts as one, not as its points).
 *
 * <p>Arguments: url threads warmupSeconds seconds
 */
public final class PlainKairosDbLoop {
    private PlainKairosDbLoop() {
    }

    public static void main(String[] args) throws Exception {
        URI url = URI.create(args[0].endsWith("/") ? args[0] : args[0] + "/");
        int threads = Integer.parseInt(args[1]);
        PlainLoop.Window window = PlainLoop.Window.ofSeconds(args[2], args[3]);
        BatchSpec spec = new BatchSpec(SeriesTemplate.compile("dsload.metric.#{m}"),
                List.of(new BatchSpec.Tag(SeriesTemplate.compile("host"), SeriesTemplate.compile("plain-#{thread}"))),
                25, 100, 1, false, 15_000, 0, ValueSpec.parse("random:0-100"), 0);
        KairosDbClient.ClientSettings settings = new KairosDbClient.ClientSettings(200, true, false, 2000, 30_000, 10_000);
        try (KairosDbClient client = new KairosDbClient(List.of(url), settings, "", "")) {
            PlainLoop.Result result = PlainLoop.threads(threads, thread -> {
                WriteBatch batch = new WriteBatch(spec, thread + 1, "master");
                return i -> {
                    WriteBatch.Built built = batch.next(System.currentTimeMillis());
                    int status = client.post(KairosDbPaths.DATAPOINTS, built.json(), true, KairosDbReplies.text(0)).status();
                    if (status != 204) {
                        throw new IOException("status " + status);
                    }
                    return built.points();
                };
            }, window);
            System.out.println(result.line());
        }
    }
}
