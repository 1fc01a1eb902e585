package org.dsload.chaos.proxy;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import org.dsload.chaos.Quantities;

/**
 * The faults in force on one route of the proxy. Each kind is on or off; several kinds can be on
 * together (a delay and a bandwidth limit, say). The pumps read this state for every chunk they
 * forward, so a change takes effect on the next chunk.
 */
final class RouteFaults {
    /** Added to the time a chunk waits before it is forwarded upstream (client to server). */
    volatile long upDelayNanos;
    /** Added to the time a chunk waits before it is forwarded downstream (server to client). */
    volatile long downDelayNanos;
    /** Bytes per second in each direction, 0 for no limit. */
    volatile long bytesPerSecond;
    /** Nothing is forwarded while frozen; the data waits and is delivered after. */
    volatile boolean frozen;
    /** Connections are cut with a reset, and new ones refused the same way. */
    volatile boolean resetting;
    /** The share of connections whose data is silently dropped (blackholed). */
    volatile double loss;

    private final Map<String, String> described = new LinkedHashMap<>();

    /**
     * Turns on a fault kind.
     *
     * @return what is now in force, for the control answer
     */
    synchronized String apply(String kind, Map<String, String> params) {
        switch (kind) {
            case "delay" -> {
                long nanos = Quantities.millis(need(params, "delay", "200ms")) * 1_000_000L;
                String direction = params.getOrDefault("direction", "up").toLowerCase(Locale.ROOT);
                long jitterless = nanos;
                switch (direction) {
                    case "up" -> upDelayNanos = jitterless;
                    case "down" -> downDelayNanos = jitterless;
                    case "both" -> {
                        upDelayNanos = jitterless / 2;
                        downDelayNanos = jitterless - jitterless / 2;
                    }
                    default -> throw new IllegalArgumentException("direction must be up, down or both, got '" + direction + "'");
                }
            }
            case "bandwidth" -> bytesPerSecond = Quantities.bytesPerSecond(need(params, "rate", "1mbit"));
            case "freeze" -> frozen = true;
            case "reset" -> resetting = true;
            case "loss" -> loss = Quantities.share(need(params, "loss", "100%"));
            default -> throw new IllegalArgumentException("the proxy has no fault '" + kind
                    + "' (it has delay, bandwidth, freeze, reset, loss)");
        }
        described.put(kind, params.toString());
        return describe();
    }

    synchronized String revert(String kind) {
        switch (kind) {
            case "delay" -> {
                upDelayNanos = 0;
                downDelayNanos = 0;
            }
            case "bandwidth" -> bytesPerSecond = 0;
            case "freeze" -> frozen = false;
            case "reset" -> resetting = false;
            case "loss" -> loss = 0;
            case "all" -> {
                upDelayNanos = 0;
                downDelayNanos = 0;
                bytesPerSecond = 0;
                frozen = false;
                resetting = false;
                loss = 0;
                described.clear();
            }
            default -> throw new IllegalArgumentException("the proxy has no fault '" + kind + "'");
        }
        described.remove(kind);
        return describe();
    }

    /** Whether a new or existing connection falls into the share that loses its data. */
    boolean drawLoss() {
        double share = loss;
        return share > 0 && (share >= 1 || ThreadLocalRandom.current().nextDouble() < share);
    }

    synchronized String describe() {
        return described.isEmpty() ? "none" : described.toString();
    }

    synchronized boolean any() {
        return !described.isEmpty();
    }

    private static String need(Map<String, String> params, String key, String example) {
        String value = params.get(key);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("needs " + key + "=... (for example " + key + "=" + example + ")");
        }
        return value;
    }
}
