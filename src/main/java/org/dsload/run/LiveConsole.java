package org.dsload.run;

import java.io.PrintStream;

import org.dsload.live.LiveLine;

/**
 * JMeter's console lines as the runner shows them: indented, apart from the live line, which on a
 * terminal is rewritten in place (carriage return, erase to the end of the line), and shown again
 * below any other line, so that the last one stays on the terminal; elsewhere it is printed as it
 * comes (JMeter then writes one every 10 s).
 */
final class LiveConsole {
    private static final String REWRITE = "\r\033[K";
    private final PrintStream console;
    private final boolean rewrite;
    /** A live line is on the terminal without its end of line. */
    private boolean open;
    /** The live line last shown, shown again below a line of JMeter's that came after it. */
    private String lastLive;

    LiveConsole(PrintStream console, boolean rewrite) {
        this.console = console;
        this.rewrite = rewrite;
    }

    synchronized void show(String line) {
        boolean live = line.startsWith(LiveLine.PREFIX);
        String reshow = null;
        if (open) {
            console.print(REWRITE);
            open = false;
            // another line goes above it; the live line stays the last on the terminal
            reshow = live ? null : lastLive;
        }
        if (live && rewrite) {
            console.print(line);
            console.flush();
            open = true;
            lastLive = line;
            return;
        }
        console.println(live ? line : "  | " + line);
        if (reshow != null) {
            console.print(reshow);
            console.flush();
            open = true;
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
