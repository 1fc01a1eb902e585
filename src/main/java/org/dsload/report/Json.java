package org.dsload.report;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * A small JSON writer for the report files. The report code runs from the command line with
 * only the bundle on its class path, where JMeter's Jackson is not available.
 */
final class Json {
    private final StringBuilder out = new StringBuilder();
    private boolean needComma;

    Json begin() {
        comma();
        out.append('{');
        needComma = false;
        return this;
    }

    Json end() {
        out.append('}');
        needComma = true;
        return this;
    }

    Json beginArray() {
        comma();
        out.append('[');
        needComma = false;
        return this;
    }

    Json endArray() {
        out.append(']');
        needComma = true;
        return this;
    }

    Json name(String name) {
        comma();
        string(name);
        out.append(':');
        needComma = false;
        return this;
    }

    Json value(String value) {
        comma();
        if (value == null) {
            out.append("null");
        } else {
            string(value);
        }
        needComma = true;
        return this;
    }

    Json value(long value) {
        comma();
        out.append(value);
        needComma = true;
        return this;
    }

    Json value(double value) {
        comma();
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            out.append("null");
        } else {
            out.append(BigDecimal.valueOf(value).setScale(6, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString());
        }
        needComma = true;
        return this;
    }

    Json value(boolean value) {
        comma();
        out.append(value);
        needComma = true;
        return this;
    }

    Json field(String name, String value) {
        return name(name).value(value);
    }

    Json field(String name, long value) {
        return name(name).value(value);
    }

    Json field(String name, double value) {
        return name(name).value(value);
    }

    Json field(String name, boolean value) {
        return name(name).value(value);
    }

    private void comma() {
        if (needComma) {
            out.append(',');
        }
    }

    private void string(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
