package org.dsload.cassandra;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.datastax.oss.driver.api.core.cql.BatchStatementBuilder;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.cql.Statement;

/**
 * A CQL sampler's statement fields compiled once: the statement text (several, separated by
 * semicolons, in a batch), the bind values, the mode. {@link #build} makes the driver statement
 * of one sample; bind values are taken in order across the statements' {@code ?} markers, and a
 * batch of size N repeats the statements N times, {@code #{i}} being the repetition and
 * {@code #{seq}} advancing once per repetition.
 */
final class StatementPlan {
    enum Mode {
        SINGLE("single"), LOGGED_BATCH("logged batch"), UNLOGGED_BATCH("unlogged batch"), COUNTER_BATCH("counter batch");

        final String label;

        Mode(String label) {
            this.label = label;
        }

        static String[] labels() {
            Mode[] all = values();
            String[] labels = new String[all.length];
            for (int i = 0; i < all.length; i++) {
                labels[i] = all[i].label;
            }
            return labels;
        }

        static Mode of(String label) {
            for (Mode m : values()) {
                if (m.label.equalsIgnoreCase(label)) {
                    return m;
                }
            }
            throw new IllegalArgumentException(label);
        }
    }

    private final List<String> statements;
    private final int[] markers;
    private final BindValue[] values;
    private final Mode mode;
    private final int batchSize;
    private final boolean prepare;

    private StatementPlan(List<String> statements, int[] markers, BindValue[] values, Mode mode, int batchSize,
            boolean prepare) {
        this.statements = statements;
        this.markers = markers;
        this.values = values;
        this.mode = mode;
        this.batchSize = batchSize;
        this.prepare = prepare;
    }

    /** @throws IllegalArgumentException with the field at fault as the message's first word and a colon */
    static StatementPlan compile(String text, String bindText, Mode mode, int batchSize, boolean prepare) {
        List<String> statements = split(text == null ? "" : text);
        if (statements.isEmpty()) {
            throw new IllegalArgumentException("statement:must hold a CQL statement");
        }
        if (mode == Mode.SINGLE && statements.size() > 1) {
            throw new IllegalArgumentException("statement:holds " + statements.size()
                    + " statements separated by ';' but Mode is single: choose a batch mode, or use one statement");
        }
        if (mode == Mode.SINGLE && batchSize != 1) {
            throw new IllegalArgumentException("batchSize:must be 1 when Mode is single");
        }
        int[] markers = new int[statements.size()];
        int total = 0;
        for (int i = 0; i < statements.size(); i++) {
            markers[i] = markers(statements.get(i));
            total += markers[i];
        }
        List<BindValue> values = new ArrayList<>();
        for (String line : (bindText == null ? "" : bindText).split("\\R")) {
            if (!line.isBlank()) {
                try {
                    values.add(BindValue.compile(line));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("bindValues:has " + e.getMessage(), e);
                }
            }
        }
        if (values.size() != total) {
            throw new IllegalArgumentException("bindValues:has " + values.size() + " values but the statement"
                    + (statements.size() > 1 ? "s have " : " has ") + total + " ? markers: give one line per marker, in order");
        }
        return new StatementPlan(List.copyOf(statements), markers, values.toArray(new BindValue[0]), mode, batchSize,
                prepare);
    }

    /** Statements separated by semicolons outside quotes and comments; empty ones dropped. */
    static List<String> split(String text) {
        List<String> parts = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        Scanner scan = new Scanner(text);
        while (scan.hasNext()) {
            char c = scan.next();
            if (c == ';' && scan.code()) {
                add(parts, current);
            } else {
                current.append(c);
            }
        }
        add(parts, current);
        return parts;
    }

    private static void add(List<String> parts, StringBuilder current) {
        String statement = current.toString().strip();
        if (!statement.isEmpty()) {
            parts.add(statement);
        }
        current.setLength(0);
    }

    /** Positional markers outside string literals, quoted names and comments. */
    static int markers(String statement) {
        int count = 0;
        Scanner scan = new Scanner(statement);
        while (scan.hasNext()) {
            if (scan.next() == '?' && scan.code()) {
                count++;
            }
        }
        return count;
    }

    /** Walks CQL text, telling whether the last character read is code (not in a literal or comment). */
    private static final class Scanner {
        private final String text;
        private int at;
        private char quote;
        private boolean lineComment;
        private boolean blockComment;
        private boolean code;

        Scanner(String text) {
            this.text = text;
        }

        boolean hasNext() {
            return at < text.length();
        }

        char next() {
            char c = text.charAt(at++);
            char following = at < text.length() ? text.charAt(at) : 0;
            code = false;
            if (lineComment) {
                lineComment = c != '\n';
            } else if (blockComment) {
                if (c == '*' && following == '/') {
                    blockComment = false;
                }
            } else if (quote != 0) {
                if (c == quote) {
                    if (following == quote) {
                        at++;
                        return c;
                    }
                    quote = 0;
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '-' && following == '-' || c == '/' && following == '/') {
                lineComment = true;
            } else if (c == '/' && following == '*') {
                blockComment = true;
            } else {
                code = true;
            }
            return c;
        }

        boolean code() {
            return code;
        }
    }

    int batchSize() {
        return mode == Mode.SINGLE ? 1 : batchSize;
    }

    Mode mode() {
        return mode;
    }

    boolean prepares() {
        return prepare;
    }

    List<String> statements() {
        return statements;
    }

    /**
     * The statement of one sample.
     *
     * @param seq    the thread's counter for the first row
     * @param thread the JMeter thread number
     * @throws IllegalArgumentException when a bind value is not of its type
     * @throws RuntimeException         the driver's exception when a preparation fails
     */
    Statement<?> build(CassandraClient client, long seq, int thread) {
        if (mode == Mode.SINGLE) {
            return statement(client, 0, values(0, 0, seq, thread));
        }
        BatchStatementBuilder batch = new BatchStatementBuilder(switch (mode) {
            case LOGGED_BATCH -> BatchType.LOGGED;
            case UNLOGGED_BATCH -> BatchType.UNLOGGED;
            default -> BatchType.COUNTER;
        });
        for (int row = 0; row < batchSize; row++) {
            int first = 0;
            for (int s = 0; s < statements.size(); s++) {
                batch.addStatement(statement(client, s, values(first, s, seq + row, thread, row)));
                first += markers[s];
            }
        }
        return batch.build();
    }

    private Object[] values(int first, int statement, long seq, int thread) {
        return values(first, statement, seq, thread, 0);
    }

    private Object[] values(int first, int statement, long seq, int thread, int index) {
        Object[] row = new Object[markers[statement]];
        for (int i = 0; i < row.length; i++) {
            row[i] = values[first + i].value(seq, index, thread);
        }
        return row;
    }

    private BatchableStatement<?> statement(CassandraClient client, int index, Object[] row) {
        String cql = statements.get(index);
        if (prepare) {
            PreparedStatement prepared = client.prepare(cql);
            return prepared.bind(row);
        }
        return SimpleStatement.newInstance(cql, row);
    }

    /** The statement as a person reads it, for the sampler data. */
    String describe(int limit) {
        String text = String.join(";\n", statements);
        if (mode != Mode.SINGLE) {
            text = mode.label.toUpperCase(Locale.ROOT) + " of " + batchSize + " x " + statements.size() + ":\n" + text;
        }
        return text.length() > limit ? text.substring(0, limit) + "..." : text;
    }

    BindValue[] bindValues() {
        return values;
    }
}
