package org.dsload.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class LiveConsoleTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final PrintStream console = new PrintStream(out, true, StandardCharsets.UTF_8);

    private String shown() {
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void onATerminalTheLiveLineIsRewrittenInPlaceAndStaysBelowOtherLines() {
        LiveConsole lines = new LiveConsole(console, true);
        lines.show("dsload live: 0:01 | 10 requests");
        lines.show("dsload live: 0:02 | 20 requests");
        lines.show("Tidying up ...");
        lines.show("dsload live: 0:03 | 30 requests");
        lines.show("... end of run");
        lines.end();
        assertEquals("dsload live: 0:01 | 10 requests\r\033[Kdsload live: 0:02 | 20 requests\r\033[K  | Tidying up ...\n"
                + "dsload live: 0:02 | 20 requests\r\033[Kdsload live: 0:03 | 30 requests\r\033[K  | ... end of run\n"
                + "dsload live: 0:03 | 30 requests\n", shown().replace(System.lineSeparator(), "\n"));
    }

    @Test
    void offATerminalEachLiveLineIsALineOfItsOwn() {
        LiveConsole lines = new LiveConsole(console, false);
        lines.show("dsload live: 0:10 | 100 requests");
        lines.show("summary = 100 in 00:00:10");
        lines.show("dsload live: 0:20 | 200 requests");
        lines.end();
        assertEquals("dsload live: 0:10 | 100 requests\n  | summary = 100 in 00:00:10\ndsload live: 0:20 | 200 requests\n",
                shown().replace(System.lineSeparator(), "\n"));
    }
}
