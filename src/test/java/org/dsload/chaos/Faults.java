package org.dsload.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import redis.clients.jedis.Jedis;

/** What the fault tests share: a fault spec from a few words, and latency measured with a plain client. */
final class Faults {
    private Faults() {
    }

    static FaultSpec spec(FaultKind kind, Target target, Map<String, String> params, FaultSpec.Settings settings) {
        return new FaultSpec(ScheduleRunIds.next(), kind, target, params, 30_000, settings);
    }

    static FaultSpec.Settings proxySettings(String control) {
        return new FaultSpec.Settings(control, "", Map.of(), 30_000, 60_000);
    }

    /** Median of n PINGs in microseconds, each on the same connection. */
    static long medianPingMicros(Jedis jedis, int n) {
        List<Long> times = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long t = System.nanoTime();
            jedis.ping();
            times.add((System.nanoTime() - t) / 1000);
        }
        times.sort(null);
        return times.get(n / 2);
    }

    /** Ids unique within the test JVM, named as the schedule names them. */
    static final class ScheduleRunIds {
        private ScheduleRunIds() {
        }

        static String next() {
            return ScheduleRun.newId();
        }
    }
}
