package org.dsload.kairosdb;

import java.io.IOException;
import java.net.URI;

/** The check at test start: every node answers {@code /api/v1/version} as KairosDB. */
final class Checks {
    private Checks() {
    }

    static void versions(KairosDbClient client) throws IOException {
        for (URI node : client.nodes()) {
            KairosDbClient.Exchange<KairosDbReplies.Text> reply = client.get(node, KairosDbPaths.VERSION, KairosDbReplies.text(4096));
            String body = reply.body().text();
            if (reply.status() != 200) {
                throw new IOException(node + " answered HTTP " + reply.status() + " " + reply.reason() + ": "
                        + KairosDbReplies.errors(body));
            }
            if (!body.contains("KairosDB")) {
                throw new IOException(node + " answered, but not as KairosDB: " + KairosDbReplies.errors(body));
            }
        }
    }
}
