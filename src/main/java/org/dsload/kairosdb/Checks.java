package org.dsload.kairosdb;

import java.io.IOException;
import java.net.URI;

/** The check at test start: every node answers {@code /api/v1/version} as KairosDB. */
final class Checks {
    private Checks() {
    }

    static void versions(KairosClient client) throws IOException {
        for (URI node : client.nodes()) {
            KairosClient.Exchange<Replies.Text> reply = client.get(node, KairosPaths.VERSION, Replies.text(4096));
            String body = reply.body().text();
            if (reply.status() != 200) {
                throw new IOException(node + " answered HTTP " + reply.status() + " " + reply.reason() + ": "
                        + Replies.errors(body));
            }
            if (!body.contains("KairosDB")) {
                throw new IOException(node + " answered, but not as KairosDB: " + Replies.errors(body));
            }
        }
    }
}
