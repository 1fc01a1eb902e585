package org.dsload.influxdb;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.dsload.core.Template;

/**
 * The bodies an InfluxDB Write sends in turn: line protocol, one point per line, bodies separated
 * by a line holding only {@value #SEPARATOR}. Each body is a {@link Template} (#{seq}, #{thread}
 * ... change per request); a body without placeholders is encoded once.
 */
final class LineBodies {
    static final String SEPARATOR = "---";

    private final Template[] templates;
    private final byte[][] constant;
    private final int[] points;

    private LineBodies(Template[] templates, byte[][] constant, int[] points) {
        this.templates = templates;
        this.constant = constant;
        this.points = points;
    }

    /** @throws IllegalArgumentException when there is no body, a body has no point, or a placeholder is unknown */
    static LineBodies compile(String text) {
        List<String> bodies = new ArrayList<>();
        StringBuilder body = new StringBuilder();
        for (String line : (text == null ? "" : text).split("\\r?\\n", -1)) {
            if (line.strip().equals(SEPARATOR)) {
                bodies.add(body.toString());
                body.setLength(0);
            } else {
                body.append(body.length() == 0 ? "" : "\n").append(line);
            }
        }
        bodies.add(body.toString());
        bodies.removeIf(String::isBlank);
        if (bodies.isEmpty()) {
            throw new IllegalArgumentException("has no line-protocol point: give one point per line, such as "
                    + "cpu,host=server01 value=1, and separate several bodies by a line " + SEPARATOR);
        }
        int n = bodies.size();
        Template[] templates = new Template[n];
        byte[][] constant = new byte[n][];
        int[] points = new int[n];
        for (int i = 0; i < n; i++) {
            String b = bodies.get(i).strip();
            templates[i] = Template.compile(b);
            constant[i] = templates[i].isConstant() ? b.getBytes(StandardCharsets.UTF_8) : null;
            points[i] = (int) WriteCounter.points(b);
        }
        return new LineBodies(templates, constant, points);
    }

    int size() {
        return templates.length;
    }

    /** The body of request number {@code seq} of a thread: bodies in turn. */
    byte[] body(long seq, int thread) {
        int i = (int) (seq % templates.length);
        byte[] fixed = constant[i];
        return fixed != null ? fixed : templates[i].expand(seq, 0, thread).getBytes(StandardCharsets.UTF_8);
    }

    int points(long seq) {
        return points[(int) (seq % templates.length)];
    }
}
