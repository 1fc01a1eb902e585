package org.dsload.chaos;

import java.util.Locale;

/**
 * When a fault of a schedule starts: an offset from the schedule's start ({@code 30s}), a gap after
 * an earlier fault of the schedule ended ({@code after 2 + 20s}: the recovery gap of a sequence),
 * or a gap after a dsload Fault Trigger fired ({@code on run-phase + 5s}: a trigger fires when the
 * sampler it is attached to first starts).
 */
public record StartSpec(Kind kind, long offsetMillis, int afterFault, String trigger) {

    public enum Kind { OFFSET, AFTER, TRIGGER }

    public static StartSpec parse(String text) {
        String t = text == null ? "" : text.trim();
        if (t.isEmpty()) {
            return new StartSpec(Kind.OFFSET, 0, 0, null);
        }
        String lower = t.toLowerCase(Locale.ROOT);
        if (lower.startsWith("after ") || lower.startsWith("on ")) {
            boolean after = lower.startsWith("after ");
            String rest = t.substring(after ? 6 : 3).trim();
            long gap = 0;
            int plus = rest.indexOf('+');
            if (plus >= 0) {
                gap = Quantities.millis(rest.substring(plus + 1));
                rest = rest.substring(0, plus).trim();
            }
            if (rest.isEmpty()) {
                throw new IllegalArgumentException("'" + t + "' names no " + (after ? "fault number" : "trigger"));
            }
            if (after) {
                try {
                    return new StartSpec(Kind.AFTER, gap, Integer.parseInt(rest), null);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("'" + t + "': after takes the number of an earlier fault (its row, "
                            + "from 1), e.g. 'after 2 + 20s'");
                }
            }
            return new StartSpec(Kind.TRIGGER, gap, 0, rest);
        }
        return new StartSpec(Kind.OFFSET, Quantities.millis(t.startsWith("+") ? t.substring(1) : t), 0, null);
    }

    @Override
    public String toString() {
        return switch (kind) {
            case OFFSET -> "at +" + Quantities.format(offsetMillis);
            case AFTER -> "after fault " + afterFault + (offsetMillis > 0 ? " + " + Quantities.format(offsetMillis) : "");
            case TRIGGER -> "on trigger " + trigger + (offsetMillis > 0 ? " + " + Quantities.format(offsetMillis) : "");
        };
    }
}
