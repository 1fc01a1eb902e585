package org.dsload.chaos.proxy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** Sends one command to a fault proxy's control port and returns the answer after OK. */
public final class ProxyControl {
    private static final int TIMEOUT_MS = 10_000;

    private ProxyControl() {
    }

    /**
     * @param control host:port of the control port
     * @throws IOException when the proxy cannot be reached or answers ERR (the message says why)
     */
    public static String send(String control, String command) throws IOException {
        var address = FaultProxy.address(control);
        try (Socket s = new Socket()) {
            s.connect(address, TIMEOUT_MS);
            s.setSoTimeout(TIMEOUT_MS);
            Writer out = new OutputStreamWriter(s.getOutputStream(), StandardCharsets.UTF_8);
            out.write(command + "\n");
            out.flush();
            String answer = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8)).readLine();
            if (answer == null) {
                throw new IOException("the fault proxy at " + control + " closed the connection without an answer");
            }
            if (answer.startsWith("OK")) {
                return answer.substring(2).trim();
            }
            throw new IOException("the fault proxy at " + control + " refused '" + command + "': "
                    + answer.replaceFirst("^ERR\\s*", ""));
        } catch (java.net.ConnectException e) {
            throw new IOException("no fault proxy answers at " + control + " (" + e.getMessage()
                    + "): start one with 'dsload proxy' and give its control address", e);
        }
    }
}
