package org.dsload.core;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Text with placeholders that change from one command to the next inside a single sample,
 * where JMeter's {@code ${...}} (evaluated once per sample) cannot help, for example the keys
 * of a pipeline:
 * <ul>
 * <li>{@code #{seq}}: a counter of this thread, 0, 1, 2 ..., one step per command;</li>
 * <li>{@code #{seq:N}}: the same counter modulo N (to cycle over N loaded keys);</li>
 * <li>{@code #{i}}: the position of the command in its sample, 0 to depth-1;</li>
 * <li>{@code #{rand:N}}: a uniformly random whole number from 0 to N-1;</li>
 * <li>{@code #{thread}}: the JMeter thread number, from 1.</li>
 * </ul>
 * JMeter's own {@code ${...}} is expanded by JMeter before the template sees the text.
 */
public final class Template {
    private static final String KNOWN = "#{seq}, #{seq:N}, #{i}, #{rand:N}, #{thread}";

    private enum Kind { LITERAL, SEQ, SEQ_MOD, INDEX, RAND, THREAD }

    private record Part(Kind kind, String text, long n, byte[] utf8) {
        Part(Kind kind, String text, long n) {
            this(kind, text, n, text == null ? null : text.getBytes(StandardCharsets.UTF_8));
        }
    }

    private final String source;
    private final Part[] parts;

    private Template(String source, Part[] parts) {
        this.source = source;
        this.parts = parts;
    }

    public String source() {
        return source;
    }

    /** True when the text has no placeholder, so every expansion is the text itself. */
    public boolean isConstant() {
        return parts.length == 0 || parts.length == 1 && parts[0].kind == Kind.LITERAL;
    }

    /** True when the template advances the per-thread counter. */
    public boolean usesSequence() {
        for (Part part : parts) {
            if (part.kind == Kind.SEQ || part.kind == Kind.SEQ_MOD) {
                return true;
            }
        }
        return false;
    }

    /**
     * @throws IllegalArgumentException naming the bad placeholder; callers wrap it with the field
     */
    public static Template compile(String text) {
        List<Part> parts = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int i = 0;
        while (i < text.length()) {
            int open = text.indexOf("#{", i);
            if (open < 0) {
                literal.append(text, i, text.length());
                break;
            }
            int close = text.indexOf('}', open);
            if (close < 0) {
                throw new IllegalArgumentException("has '#{' without a closing '}' in '" + text + "'");
            }
            literal.append(text, i, open);
            Part part = placeholder(text.substring(open + 2, close).trim());
            if (literal.length() > 0) {
                parts.add(new Part(Kind.LITERAL, literal.toString(), 0));
                literal.setLength(0);
            }
            parts.add(part);
            i = close + 1;
        }
        if (literal.length() > 0) {
            parts.add(new Part(Kind.LITERAL, literal.toString(), 0));
        }
        return new Template(text, parts.toArray(new Part[0]));
    }

    private static Part placeholder(String name) {
        switch (name) {
            case "seq":
                return new Part(Kind.SEQ, null, 0);
            case "i":
                return new Part(Kind.INDEX, null, 0);
            case "thread":
                return new Part(Kind.THREAD, null, 0);
            default:
                break;
        }
        int colon = name.indexOf(':');
        if (colon > 0) {
            String head = name.substring(0, colon);
            String arg = name.substring(colon + 1).trim();
            if (head.equals("seq") || head.equals("rand")) {
                long n;
                try {
                    n = Long.parseLong(arg);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("has #{" + name + "}: N must be a whole number");
                }
                if (n < 1) {
                    throw new IllegalArgumentException("has #{" + name + "}: N must be at least 1");
                }
                return new Part(head.equals("seq") ? Kind.SEQ_MOD : Kind.RAND, null, n);
            }
        }
        throw new IllegalArgumentException("has an unknown placeholder #{" + name + "} (known: " + KNOWN + ")");
    }

    /**
     * @param seq    the value of the thread's counter for this command
     * @param index  the position of the command in its sample
     * @param thread the JMeter thread number
     */
    public String expand(long seq, int index, int thread) {
        if (parts.length == 1 && parts[0].kind == Kind.LITERAL) {
            return parts[0].text;
        }
        StringBuilder out = new StringBuilder(source.length() + 16);
        for (Part part : parts) {
            switch (part.kind) {
                case LITERAL -> out.append(part.text);
                case SEQ -> out.append(seq);
                case SEQ_MOD -> out.append(Math.floorMod(seq, part.n));
                case INDEX -> out.append(index);
                case RAND -> out.append(ThreadLocalRandom.current().nextLong(part.n));
                case THREAD -> out.append(thread);
                default -> throw new IllegalStateException(part.kind.name());
            }
        }
        return out.toString();
    }

    /**
     * {@link #expand} as UTF-8 bytes, built in one array: keys and arguments are expanded for every
     * command, and the string on the way would be garbage.
     */
    public byte[] expandUtf8(long seq, int index, int thread) {
        if (parts.length == 1 && parts[0].kind == Kind.LITERAL) {
            return parts[0].utf8.clone();
        }
        long[] numbers = null;
        int size = 0;
        for (int p = 0; p < parts.length; p++) {
            Part part = parts[p];
            if (part.kind == Kind.LITERAL) {
                size += part.utf8.length;
            } else {
                if (numbers == null) {
                    numbers = new long[parts.length];
                }
                long value = switch (part.kind) {
                    case SEQ -> seq;
                    case SEQ_MOD -> Math.floorMod(seq, part.n);
                    case INDEX -> index;
                    case RAND -> ThreadLocalRandom.current().nextLong(part.n);
                    case THREAD -> thread;
                    default -> throw new IllegalStateException(part.kind.name());
                };
                numbers[p] = value;
                size += decimalLength(value);
            }
        }
        byte[] out = new byte[size];
        int at = 0;
        for (int p = 0; p < parts.length; p++) {
            Part part = parts[p];
            if (part.kind == Kind.LITERAL) {
                System.arraycopy(part.utf8, 0, out, at, part.utf8.length);
                at += part.utf8.length;
            } else {
                at = putDecimal(out, at, numbers[p]);
            }
        }
        return out;
    }

    private static int decimalLength(long value) {
        if (value < 0) {
            return Long.toString(value).length();
        }
        int digits = 1;
        for (long v = value; v >= 10; v /= 10) {
            digits++;
        }
        return digits;
    }

    private static int putDecimal(byte[] out, int at, long value) {
        if (value < 0) {
            byte[] text = Long.toString(value).getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(text, 0, out, at, text.length);
            return at + text.length;
        }
        int end = at + decimalLength(value);
        long v = value;
        for (int i = end - 1; i >= at; i--, v /= 10) {
            out[i] = (byte) ('0' + v % 10);
        }
        return end;
    }
}
