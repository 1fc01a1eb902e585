package org.dsload.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * When the store stopped answering during a run: the spans in which requests failed and none
 * succeeded, from the end of the last second with a success to the start of the next one (or the
 * run's end). A span counts when it lasts at least {@link #MIN_MILLIS} and holds at least
 * {@link #MIN_FAILED} failed requests: one failure between two successes, or a second of errors
 * among successes, is not a store that stopped answering. Seconds without any request inside a
 * span belong to it: a frozen store answers nothing until the requests time out. A span that lasts
 * to the last request lasts to the run's end when that is known and later: an engine that backs off
 * from a dead store, or waits for it to reconnect, sends nothing for seconds before it gives up.
 */
public final class Outages {
    static final long MIN_MILLIS = 2000;
    static final long MIN_FAILED = 2;

    /**
     * One span without a successful request.
     *
     * @param toEnd  whether it lasted to the run's last request
     * @param failed requests that failed in it
     * @param codes  their response codes, most frequent first
     */
    public record Outage(long startMillis, long endMillis, boolean toEnd, long failed, Map<String, Long> codes) {
        public long millis() {
            return endMillis - startMillis;
        }
    }

    private Outages() {
    }

    public static List<Outage> of(RequestSeconds requests) {
        return of(requests, Long.MIN_VALUE);
    }

    /**
     * @param runEndMillis when the run ended, as its engines saw it (their last per-second reading),
     *                     or {@link Long#MIN_VALUE} when unknown: the end of a span that lasts to the end
     */
    public static List<Outage> of(RequestSeconds requests, long runEndMillis) {
        List<Outage> found = new ArrayList<>();
        if (requests.isEmpty()) {
            return found;
        }
        long aliveUntil = requests.firstMillis();
        long start = -1;
        long failed = 0;
        Map<String, Long> codes = new LinkedHashMap<>();
        for (Map.Entry<Long, RequestSeconds.Second> e : requests.seconds().entrySet()) {
            long second = e.getKey();
            RequestSeconds.Second s = e.getValue();
            if (s.succeeded() > 0) {
                if (start >= 0) {
                    keep(found, new Outage(start, second * 1000, false, failed, sorted(codes)));
                    start = -1;
                }
                aliveUntil = (second + 1) * 1000;
            } else if (s.failed() > 0) {
                if (start < 0) {
                    start = Math.min(aliveUntil, second * 1000);
                    start = Math.max(start, requests.firstMillis());
                    failed = 0;
                    codes.clear();
                }
                failed += s.failed();
                s.failedCodes().forEach((code, n) -> codes.merge(code, n, Long::sum));
            }
        }
        if (start >= 0) {
            long end = Math.max(requests.lastMillis(), runEndMillis);
            keep(found, new Outage(start, Math.max(start, end), true, failed, sorted(codes)));
        }
        return found;
    }

    private static void keep(List<Outage> found, Outage o) {
        if (o.millis() >= MIN_MILLIS && o.failed() >= MIN_FAILED) {
            found.add(o);
        }
    }

    private static Map<String, Long> sorted(Map<String, Long> codes) {
        Map<String, Long> out = new LinkedHashMap<>();
        codes.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }
}
