package org.dsload.report;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * The verdicts of a check as a JUnit XML report in the shape Maven Surefire writes
 * ({@code TEST-<name>.xml}: one {@code testsuite} with its tests, failures, errors, skipped and
 * time, one {@code testcase} per limit and label, a {@code failure} for a limit not kept), so the
 * CI servers and report plugins that read Surefire's reports read a check as a test run.
 */
public final class JUnitReport {
    /** The {@code type} of a failure: a limit the run did not keep. */
    public static final String FAILURE_TYPE = "dsload.LimitNotKept";

    private JUnitReport() {
    }

    /**
     * @param suite    the suite's name and each case's class name, as in {@code dsload.ekv-profile-get}
     * @param results  the results file judged, recorded as a property
     * @param seconds  how long the check took
     */
    public static String render(String suite, Path results, List<Limits.Verdict> verdicts, double seconds) {
        StringWriter text = new StringWriter();
        try {
            XMLStreamWriter xml = XMLOutputFactory.newDefaultFactory().createXMLStreamWriter(text);
            xml.writeStartDocument("UTF-8", "1.0");
            xml.writeCharacters("\n");
            xml.writeStartElement("testsuite");
            xml.writeAttribute("name", suite);
            xml.writeAttribute("time", time(seconds));
            xml.writeAttribute("tests", Integer.toString(verdicts.size()));
            xml.writeAttribute("errors", "0");
            xml.writeAttribute("skipped", "0");
            xml.writeAttribute("failures", Long.toString(verdicts.stream().filter(v -> !v.held()).count()));
            xml.writeCharacters("\n  ");
            xml.writeStartElement("properties");
            xml.writeCharacters("\n    ");
            xml.writeEmptyElement("property");
            xml.writeAttribute("name", "dsload.results");
            xml.writeAttribute("value", results.toString());
            xml.writeCharacters("\n  ");
            xml.writeEndElement();
            for (Limits.Verdict verdict : verdicts) {
                xml.writeCharacters("\n  ");
                xml.writeStartElement("testcase");
                xml.writeAttribute("name", caseName(verdict));
                xml.writeAttribute("classname", suite);
                xml.writeAttribute("time", "0");
                if (verdict.held()) {
                    xml.writeCharacters("\n    ");
                    xml.writeStartElement("system-out");
                    xml.writeCharacters(verdict.line());
                    xml.writeEndElement();
                } else {
                    xml.writeCharacters("\n    ");
                    xml.writeStartElement("failure");
                    xml.writeAttribute("message", verdict.label() + ": " + verdict.text());
                    xml.writeAttribute("type", FAILURE_TYPE);
                    xml.writeCharacters(verdict.line());
                    xml.writeEndElement();
                }
                xml.writeCharacters("\n  ");
                xml.writeEndElement();
            }
            xml.writeCharacters("\n");
            xml.writeEndElement();
            xml.writeEndDocument();
            xml.close();
        } catch (XMLStreamException e) {
            throw new IllegalStateException("cannot write the JUnit report: " + e.getMessage(), e);
        }
        return text + "\n";
    }

    /** Writes the report, making the file's folder when it is missing. */
    public static void write(Path file, String suite, Path results, List<Limits.Verdict> verdicts, double seconds)
            throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, render(suite, results, verdicts, seconds), StandardCharsets.UTF_8);
    }

    /** A case's name: the label, the figure and what the limit asks, as in {@code GET p99 <= 20ms}. */
    static String caseName(Limits.Verdict verdict) {
        return verdict.label() + " " + verdict.figure() + " " + verdict.bound();
    }

    private static String time(double seconds) {
        return String.format(Locale.ROOT, "%.3f", seconds);
    }
}
