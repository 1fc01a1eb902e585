package org.dsload.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JVM {@link Orphans} starts beside an owner: reads {@code +<pid> <start>} (watch) and
 * {@code -<pid>} (forget) lines from its standard input; at the end of that input, which comes
 * when the owner has ended however it ended, it stops every process still watched (SIGTERM to
 * its tree, SIGKILL after 10 s), all at once, and exits. Its one argument, the owner's PID, only
 * names it in a process list.
 */
public final class OrphanReaper {
    static final String WATCH = "+";
    static final String FORGET = "-";
    static final Duration GRACE = Duration.ofSeconds(10);

    private OrphanReaper() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        Map<Long, String> watched = new LinkedHashMap<>();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            try {
                if (line.startsWith(WATCH)) {
                    String[] f = line.substring(1).split(" ", 2);
                    watched.put(Long.parseLong(f[0]), f.length > 1 && !f[1].equals("null") ? f[1] : null);
                } else if (line.startsWith(FORGET)) {
                    watched.remove(Long.parseLong(line.substring(1).trim()));
                }
            } catch (NumberFormatException e) {
                // not a line of the owner's
            }
        }
        List<Thread> stoppers = new ArrayList<>();
        watched.forEach((pid, start) -> ProcessTree.same(pid, start).ifPresent(p -> {
            Thread t = new Thread(() -> ProcessTree.stop(p, GRACE), "stop-" + pid);
            t.start();
            stoppers.add(t);
        }));
        for (Thread t : stoppers) {
            t.join();
        }
    }
}
