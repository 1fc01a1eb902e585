package org.dsload.report;

import java.io.Closeable;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads comma-separated records the way JMeter writes them (CSVSaveService): a field that holds a
 * comma, a quote or a line break is quoted, and a quote inside it is doubled; records end at a
 * line break outside quotes (LF or CRLF). Used for every CSV file a run leaves: the results file
 * and the generator's figures.
 */
public final class CsvReader implements Closeable {
    private static final int BUFFER = 64 * 1024;

    private final Reader in;
    private final char[] buffer = new char[BUFFER];
    private int position;
    private int limit;
    private final StringBuilder field = new StringBuilder();

    public CsvReader(Reader in) {
        this.in = in;
    }

    /**
     * The next record's fields, or null at the end of the input. A record cut short by the end of
     * the input (a file whose writer was killed) comes back as far as it goes.
     */
    public List<String> next() throws IOException {
        int c = read();
        if (c < 0) {
            return null;
        }
        List<String> fields = new ArrayList<>(20);
        field.setLength(0);
        boolean quoted = false;
        while (true) {
            if (c < 0) {
                fields.add(field.toString());
                return fields;
            }
            char ch = (char) c;
            if (quoted) {
                if (ch == '"') {
                    int following = peek();
                    if (following == '"') {
                        read();
                        field.append('"');
                    } else {
                        quoted = false;
                    }
                } else {
                    field.append(ch);
                }
            } else if (ch == '"' && field.length() == 0) {
                quoted = true;
            } else if (ch == ',') {
                fields.add(field.toString());
                field.setLength(0);
            } else if (ch == '\n') {
                fields.add(field.toString());
                return fields;
            } else if (ch != '\r') {
                field.append(ch);
            }
            c = read();
        }
    }

    private int read() throws IOException {
        if (position == limit && !fill()) {
            return -1;
        }
        return buffer[position++];
    }

    private int peek() throws IOException {
        if (position == limit && !fill()) {
            return -1;
        }
        return buffer[position];
    }

    private boolean fill() throws IOException {
        int n;
        do {
            n = in.read(buffer, 0, buffer.length);
        } while (n == 0);
        if (n < 0) {
            return false;
        }
        position = 0;
        limit = n;
        return true;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
