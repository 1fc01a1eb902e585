package org.dsload.cassandra;

import org.dsload.core.Results.LimitedText;

import com.datastax.oss.driver.api.core.cql.ColumnDefinitions;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.type.codec.TypeCodec;

/**
 * Rows as text for the response data, one line per row, values as CQL literals separated by
 * " | ", under a line of column names. Stops formatting when the limit is reached.
 */
final class RowsText implements CqlReply.RowSink {
    private static final int MAX_VALUE_CHARS = 256;
    private final LimitedText text;
    private int columns;

    RowsText(int limit) {
        this.text = new LimitedText(limit);
    }

    @Override
    public void columns(ColumnDefinitions definitions) {
        columns = definitions.size();
        for (int i = 0; i < columns; i++) {
            if (i > 0) {
                text.append(" | ");
            }
            text.append(definitions.get(i).getName().asCql(true));
        }
        text.append('\n');
    }

    @Override
    public void row(Row row) {
        if (text.full()) {
            text.append("...");
            return;
        }
        for (int i = 0; i < columns; i++) {
            if (i > 0) {
                text.append(" | ");
            }
            text.append(format(row, i));
        }
        text.append('\n');
    }

    private static String format(Row row, int i) {
        if (row.isNull(i)) {
            return "null";
        }
        TypeCodec<Object> codec = row.codecRegistry().codecFor(row.getType(i));
        String value = codec.format(row.get(i, codec));
        return value.length() > MAX_VALUE_CHARS ? value.substring(0, MAX_VALUE_CHARS) + "...(" + value.length() + " chars)" : value;
    }

    @Override
    public String toString() {
        return text.toString();
    }
}
