package org.dsload.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The error set of a label, grouped by the shape of the messages: a message whose numbers and
 * ids ({@code 0x1f3a}, long hex runs such as session or request ids) differ from another's only
 * in those parts belongs to the same line, shown with the parts that varied as {@code *}
 * ({@code NodeExists for /ne/master/c*} for the paths c1, c2 ...). JMeter groups errors by response code; this keeps
 * the message, so that an outage that failed a request on each of thousands of paths is a few
 * lines, not thousands. Parts that are the same in every message of a line stay as they are.
 */
final class ErrorShapes {
    /** Variable parts: hex with 0x, hex runs of 8 or more holding a digit, and digit runs. */
    private static final Pattern VARIABLE = Pattern.compile(
            "0x[0-9a-fA-F]+|(?<![0-9A-Za-z])(?=[0-9a-fA-F]*[0-9])[0-9a-fA-F]{8,}(?![0-9A-Za-z])|[0-9]+");

    /** One line of the error set: the text around the variable parts, their first values, which varied. */
    private static final class Shape {
        final List<String> fixed;
        final String[] values;
        final boolean[] varied;
        long count;

        Shape(List<String> fixed, String[] values) {
            this.fixed = fixed;
            this.values = values;
            this.varied = new boolean[values.length];
        }

        void add(String[] other, boolean[] otherVaried, long n) {
            for (int i = 0; i < values.length; i++) {
                varied[i] |= otherVaried != null && otherVaried[i] || !values[i].equals(other[i]);
            }
            count += n;
        }

        String text() {
            StringBuilder text = new StringBuilder(fixed.get(0));
            for (int i = 0; i < values.length; i++) {
                text.append(varied[i] ? "*" : values[i]).append(fixed.get(i + 1));
            }
            return text.toString();
        }
    }

    private final int maxLines;
    private final String otherLine;
    private final Map<String, Shape> shapes = new LinkedHashMap<>();
    private long others;

    /** @param maxLines distinct shapes kept; the messages of any further shape are counted under {@code otherLine} */
    ErrorShapes(int maxLines, String otherLine) {
        this.maxLines = maxLines;
        this.otherLine = otherLine;
    }

    void add(String message, long count) {
        List<String> fixed = new ArrayList<>();
        List<String> values = new ArrayList<>();
        Matcher m = VARIABLE.matcher(message);
        int at = 0;
        while (m.find()) {
            fixed.add(message.substring(at, m.start()));
            values.add(m.group());
            at = m.end();
        }
        fixed.add(message.substring(at));
        add(String.join("\u0000", fixed), fixed, values.toArray(new String[0]), null, count);
    }

    private void add(String key, List<String> fixed, String[] values, boolean[] varied, long count) {
        Shape shape = shapes.get(key);
        if (shape == null) {
            if (shapes.size() >= maxLines) {
                others += count;
                return;
            }
            shape = new Shape(fixed, values.clone());
            shapes.put(key, shape);
        }
        shape.add(values, varied, count);
    }

    void merge(ErrorShapes other) {
        other.shapes.forEach((key, shape) -> add(key, shape.fixed, shape.values, shape.varied, shape.count));
        others += other.others;
    }

    /** Each line's text and count, in the order the shapes first appeared; the other messages last. */
    Map<String, Long> lines() {
        Map<String, Long> lines = new LinkedHashMap<>();
        shapes.values().forEach(shape -> lines.merge(shape.text(), shape.count, Long::sum));
        if (others > 0) {
            lines.merge(otherLine, others, Long::sum);
        }
        return lines;
    }
}
