package org.dsload.report;

import java.util.List;

/** One CSV record as {@link CsvReader} reads it back: a field with a comma, quote or line break is quoted. */
public final class CsvLine {
    private CsvLine() {
    }

    public static String of(List<?> fields) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) {
                line.append(',');
            }
            String f = String.valueOf(fields.get(i));
            if (f.indexOf(',') >= 0 || f.indexOf('"') >= 0 || f.indexOf('\n') >= 0 || f.indexOf('\r') >= 0) {
                line.append('"').append(f.replace("\"", "\"\"")).append('"');
            } else {
                line.append(f);
            }
        }
        return line.append('\n').toString();
    }
}
