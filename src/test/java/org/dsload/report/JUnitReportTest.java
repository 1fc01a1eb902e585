package org.dsload.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.StringReader;
import java.nio.file.Path;
import java.util.List;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

public class JUnitReportTest {
    private static final List<Limits.Verdict> VERDICTS = List.of(
            new Limits.Verdict("GET", "p99", "<= 20ms", true, "p99 1.2ms, within 20ms"),
            new Limits.Verdict("GET & <SET>", "p99", "<= 1ms", false, "p99 1.2ms is above the limit 1ms"));

    /** Validates against the Surefire report shape written down in src/test/resources. */
    public static void validate(String xml) throws Exception {
        Schema schema = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI)
                .newSchema(JUnitReportTest.class.getResource("junit-report.xsd"));
        schema.newValidator().validate(new StreamSource(new StringReader(xml)));
    }

    public static Document parse(String xml) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new InputSource(new StringReader(xml)));
    }

    @Test
    void theReportHasSurefiresShapeAndEachFailureItsValueAndLimit() throws Exception {
        String xml = JUnitReport.render("dsload.plan", Path.of("results/run/plan.jtl"), VERDICTS, 0.25);
        validate(xml);
        Element suite = parse(xml).getDocumentElement();
        assertEquals("dsload.plan", suite.getAttribute("name"));
        assertEquals("2", suite.getAttribute("tests"));
        assertEquals("1", suite.getAttribute("failures"));
        assertEquals("0", suite.getAttribute("errors"));
        assertEquals("0", suite.getAttribute("skipped"));
        assertEquals("0.250", suite.getAttribute("time"));
        Element failed = (Element) suite.getElementsByTagName("testcase").item(1);
        assertEquals("GET & <SET> p99 <= 1ms", failed.getAttribute("name"), "labels are escaped, not lost");
        assertEquals("dsload.plan", failed.getAttribute("classname"));
        Element failure = (Element) failed.getElementsByTagName("failure").item(0);
        assertEquals("GET & <SET>: p99 1.2ms is above the limit 1ms", failure.getAttribute("message"));
        assertEquals(JUnitReport.FAILURE_TYPE, failure.getAttribute("type"));
        assertEquals(0, ((Element) suite.getElementsByTagName("testcase").item(0)).getElementsByTagName("failure")
                .getLength());
    }

    @Test
    void theSchemaRefusesAReportWithoutItsCounts() {
        String xml = JUnitReport.render("dsload.plan", Path.of("plan.jtl"), VERDICTS, 0).replace(" tests=\"2\"", "");
        assertThrows(SAXException.class, () -> validate(xml));
    }
}
