package org.dsload.http;

import java.io.IOException;

import org.dsload.core.Errors;
import org.dsload.core.Fields;

/**
 * The check an HTTP connection element makes of its servers at test start (Check on start): a
 * request to a client just built. A failure closes the client and refuses the run with the
 * server's answer and what to look at, rather than letting every sample fail the same way.
 */
public final class StartCheck {
    private StartCheck() {
    }

    /** A request whose failure says the servers cannot be used. */
    @FunctionalInterface
    public interface Probe {
        void run() throws IOException;
    }

    /**
     * @param store       the store's name in the message ("KairosDB")
     * @param whatToCheck the advice that ends the message ("Check URLs and that KairosDB is up")
     */
    public static void reach(Fields f, AutoCloseable client, String store, String whatToCheck, Probe probe) {
        try {
            probe.run();
        } catch (IOException | RuntimeException e) {
            try {
                client.close();
            } catch (Exception closing) {
                // the check's failure is the message that matters
            }
            throw f.error("cannot reach " + store + ": " + Errors.sentence(e.getMessage()) + ". " + whatToCheck, e);
        }
    }
}
