package org.dsload.cassandra;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;

import org.dsload.core.Payloads;
import org.dsload.core.SizeSpec;
import org.dsload.core.Template;

import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.core.type.codec.TypeCodec;
import com.datastax.oss.driver.api.core.type.codec.registry.CodecRegistry;

/**
 * One line of a CQL sampler's bind values: a CQL type and the text of the value
 * ({@code int ${id}}, {@code text user:#{seq}}). The text goes through the placeholders of
 * {@link Template}, then becomes the Java value the driver's codec for that type takes: text
 * types as they are, other types parsed as CQL literals ({@code 42}, {@code [1, 2]},
 * {@code {'a': 1}}), with the quotes timestamps, dates, times and addresses need added when
 * missing. {@code #{null}} binds null; {@code #{value:SIZE}} a generated text (or blob) of SIZE
 * characters, SIZE being a size spec as in {@link SizeSpec}.
 */
final class BindValue {
    static final String NULL = "#{null}";
    private static final String GENERATED = "#{value:";

    private final String source;
    private final DataType type;
    private final TypeCodec<Object> codec;
    private final Template template;
    private final SizeSpec generatedSize;
    private final boolean isNull;

    private BindValue(String source, DataType type, Template template, SizeSpec generatedSize, boolean isNull) {
        this.source = source;
        this.type = type;
        this.codec = CodecRegistry.DEFAULT.codecFor(type);
        this.template = template;
        this.generatedSize = generatedSize;
        this.isNull = isNull;
    }

    /**
     * @param line {@code <type> <value>}
     * @throws IllegalArgumentException saying what is wrong with the line
     */
    static BindValue compile(String line) {
        String trimmed = line.strip();
        int space = typeEnd(trimmed);
        String typeName = trimmed.substring(0, space);
        String value = space < trimmed.length() ? trimmed.substring(space).strip() : "";
        DataType type;
        try {
            type = CqlTypes.parse(typeName);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("line '" + line.strip() + "': " + e.getMessage()
                    + "; write one value per line as <type> <value>, for example: int ${id}", e);
        }
        if (value.equals(NULL)) {
            return new BindValue(trimmed, type, null, null, true);
        }
        if (value.startsWith(GENERATED) && value.endsWith("}")) {
            if (!type.equals(DataTypes.TEXT) && !type.equals(DataTypes.ASCII) && !type.equals(DataTypes.BLOB)) {
                throw new IllegalArgumentException("line '" + trimmed + "': #{value:SIZE} makes text or blob values only");
            }
            try {
                return new BindValue(trimmed, type, null, SizeSpec.parse(value.substring(GENERATED.length(), value.length() - 1)), false);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("line '" + trimmed + "': the size " + e.getMessage(), e);
            }
        }
        try {
            return new BindValue(trimmed, type, Template.compile(value), null, false);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("line '" + trimmed + "' " + e.getMessage(), e);
        }
    }

    /** The type ends at the first white space outside angle brackets ({@code map<text, int>} is one type). */
    private static int typeEnd(String line) {
        int depth = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '<') {
                depth++;
            } else if (c == '>') {
                depth--;
            } else if (Character.isWhitespace(c) && depth <= 0) {
                return i;
            }
        }
        return line.length();
    }

    DataType type() {
        return type;
    }

    /**
     * The value for one row of one sample.
     *
     * @throws IllegalArgumentException when the text is not a value of the type
     */
    Object value(long seq, int index, int thread) {
        if (isNull) {
            return null;
        }
        if (generatedSize != null) {
            byte[] bytes = Payloads.of(generatedSize.next(ThreadLocalRandom.current()), ThreadLocalRandom.current());
            return type.equals(DataTypes.BLOB) ? ByteBuffer.wrap(bytes) : new String(bytes, StandardCharsets.US_ASCII);
        }
        String text = template.expand(seq, index, thread);
        try {
            return convert(text);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("'" + text + "' is not a " + type.asCql(true, true) + " value (bind value '"
                    + source + "'): " + e.getMessage(), e);
        }
    }

    private Object convert(String text) {
        if (type.equals(DataTypes.TEXT) || type.equals(DataTypes.ASCII)) {
            return text;
        }
        if (type.equals(DataTypes.BLOB) && !text.startsWith("0x") && !text.startsWith("0X")) {
            return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
        }
        String literal = text.strip();
        if (needsQuotes() && !literal.startsWith("'") && !literal.matches("-?\\d+")) {
            literal = "'" + literal + "'";
        }
        Object value = codec.parse(literal);
        if (value == null && !literal.isEmpty() && !literal.equalsIgnoreCase("null")) {
            throw new IllegalArgumentException("the driver read it as null");
        }
        return value;
    }

    private boolean needsQuotes() {
        return type.equals(DataTypes.TIMESTAMP) || type.equals(DataTypes.DATE) || type.equals(DataTypes.TIME)
                || type.equals(DataTypes.INET);
    }

    @Override
    public String toString() {
        return source;
    }
}
