package org.dsload.kairosdb;

import java.util.ArrayList;
import java.util.List;

/**
 * A metric name or tag value with placeholders that a batch fills per metric:
 * {@code #{m}} the metric's number within its resource (0 to metrics per resource - 1),
 * {@code #{thread}} the JMeter thread number (from 1: one thread is one resource) and
 * {@code #{engine}} the engine ({@link EngineId}). JMeter's own {@code ${...}} is expanded
 * before the template sees the text.
 */
final class SeriesTemplate {
    private enum Kind { LITERAL, METRIC, THREAD, ENGINE }

    private record Part(Kind kind, String text) {
    }

    private final Part[] parts;

    private SeriesTemplate(Part[] parts) {
        this.parts = parts;
    }

    /** @throws IllegalArgumentException naming an unknown or unclosed placeholder */
    static SeriesTemplate compile(String text) {
        List<Part> parts = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            int open = text.indexOf("#{", i);
            if (open < 0) {
                parts.add(new Part(Kind.LITERAL, text.substring(i)));
                break;
            }
            int close = text.indexOf('}', open);
            if (close < 0) {
                throw new IllegalArgumentException("has '#{' without a closing '}' in '" + text + "'");
            }
            if (open > i) {
                parts.add(new Part(Kind.LITERAL, text.substring(i, open)));
            }
            String name = text.substring(open + 2, close).trim();
            parts.add(new Part(switch (name) {
                case "m" -> Kind.METRIC;
                case "thread" -> Kind.THREAD;
                case "engine" -> Kind.ENGINE;
                default -> throw new IllegalArgumentException("has an unknown placeholder #{" + name
                        + "} (known: #{m}, #{thread}, #{engine})");
            }, null));
            i = close + 1;
        }
        return new SeriesTemplate(parts.toArray(new Part[0]));
    }

    boolean usesMetricNumber() {
        for (Part part : parts) {
            if (part.kind == Kind.METRIC) {
                return true;
            }
        }
        return false;
    }

    String expand(int metric, int thread, String engine) {
        StringBuilder out = new StringBuilder();
        for (Part part : parts) {
            switch (part.kind) {
                case LITERAL -> out.append(part.text);
                case METRIC -> out.append(metric);
                case THREAD -> out.append(thread);
                default -> out.append(engine);
            }
        }
        return out.toString();
    }
}
