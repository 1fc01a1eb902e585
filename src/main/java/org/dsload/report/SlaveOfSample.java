package org.dsload.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which slave produced a sample. In a distributed run JMeter names every thread of a slave
 * {@code <host:port>-<thread group> <g>-<n>}, where {@code host:port} is the slave's address as the
 * master's {@code -R} list spelled it, for every sampler (dsload's or not). The Hostname column
 * cannot tell slaves apart: it holds the machine's name, the same for all slaves of one machine.
 */
public final class SlaveOfSample {
    /** A {@code host:port-} prefix: host without spaces or colons (or a bracketed IPv6 address). */
    static final Pattern PREFIX = Pattern.compile("^((?:\\[[^\\]]+\\]|[^\\s:\\[\\]]+):\\d{1,5})-");

    private final List<String> known;

    /** @param known the run's slave addresses; empty to recognise any {@code host:port-} prefix */
    public SlaveOfSample(List<String> known) {
        List<String> sorted = new ArrayList<>(known);
        // the longest first, so 10.0.0.1:10990 is not taken for 10.0.0.1:1099
        sorted.sort(Comparator.comparingInt(String::length).reversed());
        this.known = sorted;
    }

    /** The slave's address, or null for a thread name that carries none. */
    public String of(String threadName) {
        if (known.isEmpty()) {
            Matcher m = PREFIX.matcher(threadName);
            return m.find() ? m.group(1) : null;
        }
        for (String address : known) {
            if (threadName.startsWith(address) && threadName.length() > address.length()
                    && threadName.charAt(address.length()) == '-') {
                return address;
            }
        }
        return null;
    }
}
