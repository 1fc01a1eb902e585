package org.dsload.run;

import java.io.PrintStream;

import org.dsload.live.LiveLine;

/**
 * JMeter's console lines as the runner shows them: indented, apart from the live line, which on a
 * terminal is rewritten in place (carriage return, erase to the end of the line) and elsewhere
 * printed as it comes (JMeter then writes one every 10 s).
 */
final class LiveConsole {
    private static final String REWRITE = "\r\033[K";
    private final PrintStream console;
    private final boolean rewrite;
    /** A live line is on the terminal without its end of line. */
    private boolean open;

    LiveConsole(PrintStream console, boolean rewrite) {
        this.console = console;
        this.rewrite = rewrite;
    }

    synchronized void show(String line) {
        boolean live = line.startsWith(LiveLine.PREFIX);
        if (open) {
            console.print(REWRITE);
            open = false;
        }
        if (live && rewrite) {
            console.print(line);
            console.flush();
            open = true;
        } else {
            console.println(live ? line : "  | " + line);
        }
    }

    /** JMeter's output ended: the last live line keeps its place. */
    synchronized void end() {
        if (open) {
            console.println();
            open = false;
        }
    }
}
