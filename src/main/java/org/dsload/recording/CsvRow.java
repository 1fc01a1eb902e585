package org.dsload.recording;

import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.samplers.SampleSaveConfiguration;
import org.apache.jmeter.save.CSVSaveService;

/**
 * One results row in the CSV format of JMeter's CSVSaveService, the same characters for the same
 * sample and save settings (JMeter's tools and the dashboard read the file), appended straight to
 * a thread's buffer: no row string made and copied per sample, and a field is scanned for the
 * characters that need quotes once. Columns, in JMeter's order, are those the settings save; a
 * text field holding the delimiter, a quote, CR or LF is quoted with its quotes doubled, a null
 * one is written {@code null}. Time stamps in a date format (not epoch milliseconds) are left to
 * CSVSaveService.
 */
final class CsvRow {
    private static final char QUOTE = CSVSaveService.QUOTING_CHAR;

    private CsvRow() {
    }

    /** Appends the row of {@code event}'s result with {@code config} (no line end). */
    static void append(StringBuilder out, SampleEvent event, SampleSaveConfiguration config) {
        if (config.saveTimestamp() && !config.printMilliseconds()) {
            out.append(CSVSaveService.resultToDelimitedString(event, event.getResult(), config, config.getDelimiter()));
            return;
        }
        SampleResult s = event.getResult();
        char d = config.getDelimiter().charAt(0);
        Fields f = new Fields(out, d);
        if (config.saveTimestamp()) {
            f.number(s.getTimeStamp());
        }
        if (config.saveTime()) {
            f.number(s.getTime());
        }
        if (config.saveLabel()) {
            f.text(s.getSampleLabel());
        }
        if (config.saveCode()) {
            f.text(s.getResponseCode());
        }
        if (config.saveMessage()) {
            f.text(s.getResponseMessage());
        }
        if (config.saveThreadName()) {
            f.text(s.getThreadName());
        }
        if (config.saveDataType()) {
            f.text(s.getDataType());
        }
        if (config.saveSuccess()) {
            f.text(s.isSuccessful() ? "true" : "false");
        }
        if (config.saveAssertionResultsFailureMessage()) {
            String message = s.getFirstAssertionFailureMessage();
            f.text(message == null ? "" : message);
        }
        if (config.saveBytes()) {
            f.number(s.getBytesAsLong());
        }
        if (config.saveSentBytes()) {
            f.number(s.getSentBytes());
        }
        if (config.saveThreadCounts()) {
            f.number(s.getGroupThreads());
            f.number(s.getAllThreads());
        }
        if (config.saveUrl()) {
            f.text(String.valueOf(s.getURL()));
        }
        if (config.saveFileName()) {
            f.text(s.getResultFileName());
        }
        if (config.saveLatency()) {
            f.number(s.getLatency());
        }
        if (config.saveEncoding()) {
            f.text(s.getDataEncodingWithDefault());
        }
        if (config.saveSampleCount()) {
            f.number(s.getSampleCount());
            f.number(s.getErrorCount());
        }
        if (config.saveHostname()) {
            f.text(event.getHostname());
        }
        if (config.saveIdleTime()) {
            f.number(s.getIdleTime());
        }
        if (config.saveConnectTime()) {
            f.number(s.getConnectTime());
        }
        for (int i = 0; i < SampleEvent.getVarCount(); i++) {
            f.text(event.getVarValue(i));
        }
    }

    /** The fields of one row: a delimiter before every field but the first. */
    private static final class Fields {
        private final StringBuilder out;
        private final char delimiter;
        private boolean first = true;

        Fields(StringBuilder out, char delimiter) {
            this.out = out;
            this.delimiter = delimiter;
        }

        private void next() {
            if (first) {
                first = false;
            } else {
                out.append(delimiter);
            }
        }

        void number(long value) {
            next();
            out.append(value);
        }

        void text(String value) {
            next();
            if (value == null || !needsQuotes(value)) {
                out.append(value);
                return;
            }
            out.append(QUOTE);
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (c == QUOTE) {
                    out.append(QUOTE);
                }
                out.append(c);
            }
            out.append(QUOTE);
        }

        private boolean needsQuotes(String value) {
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (c == delimiter || c == QUOTE || c == '\r' || c == '\n') {
                    return true;
                }
            }
            return false;
        }
    }
}
