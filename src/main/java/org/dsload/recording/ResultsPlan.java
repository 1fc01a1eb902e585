package org.dsload.recording;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;

import org.dsload.core.format.RunProperties;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXParseException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * How the runner has JMeter write a run's results: the plan it gives JMeter and the arguments and
 * properties that go with it. The results file is written by {@link ResultsWriter} (no lock shared
 * by the sampler threads; a slave's gauge lines on their way to the live figures left out), which
 * the runner adds to a copy of the plan in the run folder (every relative path in the plan still
 * means what it meant: {@link #keepRelativePaths}) and deletes after the run. In histograms mode the
 * results file holds one row per label and second.
 *
 * <p>Runs in the runner's JVM, which has no JMeter classes: the plan is edited as XML.
 */
public final class ResultsPlan implements AutoCloseable {
    /** {@link ResultsWriter}'s class name, as the plan's XML names the element. */
    static final String WRITER_CLASS = "org.dsload.recording.ResultsWriter";
    /** {@link StartInstant}'s class name, as the plan's XML names it. */
    static final String START_CLASS = "org.dsload.recording.StartInstant";
    /** JMeter's property naming its summariser ({@code summary +} lines); JMeter's default name. */
    static final String SUMMARISER_PROPERTY = "summariser.name";
    static final String DEFAULT_SUMMARISER = "summary";
    /** The test plan's property that JMeter appends to the plan's folder for relative file names. */
    static final String BASEDIR = "basedir";
    static final String INCLUDE_PATH = "IncludeController.includepath";

    private final Path plan;
    private final boolean histograms;
    private final Path copy;
    private final List<String> jmeterArgs;
    private final Map<String, String> properties;

    private ResultsPlan(Path plan, boolean histograms, Path copy, List<String> jmeterArgs,
            Map<String, String> properties) {
        this.histograms = histograms;
        this.plan = plan;
        this.copy = copy;
        this.jmeterArgs = jmeterArgs;
        this.properties = properties;
    }

    /**
     * @param properties the run's JMeter properties (for the mode and the summariser's name)
     */
    public static ResultsPlan prepare(Path plan, Path jtl, Map<String, String> properties)
            throws IOException {
        RecordMode mode;
        try {
            mode = RecordMode.parse(properties.get(RunProperties.RECORD));
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage(), e);
        }
        List<String> viaJMeter = List.of("-l", jtl.toString());
        boolean watched = watched(properties);
        String summariser = properties.getOrDefault(SUMMARISER_PROPERTY, DEFAULT_SUMMARISER);
        Document doc = read(plan);
        Element testPlanTree = testPlanTree(doc);
        if (testPlanTree == null) {
            // not a plan this code understands; JMeter will say what is wrong with it
            return new ResultsPlan(plan, mode == RecordMode.HISTOGRAMS, null, viaJMeter, Map.of());
        }
        // after the plan's own elements: its testStarted comes after theirs on each engine (the listeners
        // added below report to the master only)
        testPlanTree.appendChild(element(doc, START_CLASS, "dsload start instant"));
        testPlanTree.appendChild(doc.createElement("hashTree"));
        Element writer = element(doc, WRITER_CLASS, "dsload results writer");
        writer.appendChild(property(doc, "stringProp", "filename", jtl.toAbsolutePath().toString()));
        writer.appendChild(property(doc, "stringProp", ResultsWriter.SUMMARISER, summariser));
        if (watched) {
            // the writer feeds the live figures itself: each slave's samples still reach the master once
            writer.appendChild(property(doc, "boolProp", ResultsWriter.LIVE, "true"));
        }
        // last under the test plan: its test end comes after every other element's, so whatever
        // they hand over at the end of the test (histograms mode's last rows) is still written
        testPlanTree.appendChild(writer);
        testPlanTree.appendChild(doc.createElement("hashTree"));
        Path runDir = jtl.toAbsolutePath().getParent();
        Files.createDirectories(runDir);
        keepRelativePaths(doc, testPlanElement(testPlanTree), plan.toAbsolutePath().getParent(), runDir);
        // The copy keeps the plan's file name (JMeter's __TestPlanName), in the run folder: never
        // beside the plan, whose folder may be read-only, and where a killed run would leave it.
        Path copy = runDir.resolve(plan.getFileName());
        if (Files.exists(copy)) {
            String name = plan.getFileName().toString().replaceFirst("\\.jmx$", "");
            copy = Files.createTempFile(runDir, name + ".dsload-", ".jmx");
        }
        try (OutputStream out = Files.newOutputStream(copy)) {
            // the JDK's own serialiser: newInstance() would look through the class path and take the
            // Saxon that JMeter ships, whose start costs this command about a second of CPU
            Transformer t = TransformerFactory.newDefaultInstance().newTransformer();
            t.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
            t.transform(new DOMSource(doc), new StreamResult(out));
        } catch (Exception e) {
            Files.deleteIfExists(copy);
            throw new IOException("cannot write the plan with dsload's listeners to " + copy + ": " + e, e);
        }
        // JMeter adds its own summariser when it writes no results file; this one feeds the writer's
        return new ResultsPlan(plan, mode == RecordMode.HISTOGRAMS, copy, List.of(), Map.of(SUMMARISER_PROPERTY, ""));
    }

    /** An element of dsload's, enabled, by its class name. */
    private static Element element(Document doc, String className, String name) {
        Element e = doc.createElement(className);
        // JMeter wants a GUI class on every element it loads; the copy is never opened in the GUI
        e.setAttribute("guiclass", "SimpleDataWriter");
        e.setAttribute("testclass", className);
        e.setAttribute("testname", name);
        e.setAttribute("enabled", "true");
        return e;
    }

    /**
     * JMeter resolves a plan's relative file names (CSV Data Set files, script files) against the
     * folder of the plan it was given, which for the copy is the run folder: the test plan's
     * {@code basedir}, which JMeter appends to that folder when the test starts, leads back to the
     * plan's own folder (on slaves too, which get the master's folder relative to their working
     * directory). Include Controllers read their file when the plan is loaded, before that: their
     * relative paths are made absolute.
     */
    private static void keepRelativePaths(Document doc, Element testPlan, Path planDir, Path runDir) {
        String back = runDir.relativize(planDir).toString();
        if (!back.isEmpty() && testPlan != null && "TestPlan".equals(testPlan.getNodeName())) {
            Element basedir = null;
            for (Node n = testPlan.getFirstChild(); n != null; n = n.getNextSibling()) {
                if (n instanceof Element p && BASEDIR.equals(p.getAttribute("name"))) {
                    basedir = p;
                }
            }
            if (basedir == null) {
                basedir = property(doc, "stringProp", BASEDIR, "");
                testPlan.appendChild(basedir);
            }
            // JMeter concatenates the strings: "<run folder>" + "/../../test-plans" + the plan's own basedir
            basedir.setTextContent("/" + back + basedir.getTextContent());
        }
        NodeList props = doc.getElementsByTagName("stringProp");
        for (int i = 0; i < props.getLength(); i++) {
            Element p = (Element) props.item(i);
            String value = p.getTextContent();
            if (INCLUDE_PATH.equals(p.getAttribute("name")) && !value.isBlank() && !value.contains("${")
                    && !Path.of(value).isAbsolute()) {
                p.setTextContent(planDir.resolve(value).normalize().toString());
            }
        }
    }

    /** The TestPlan element whose children {@code testPlanTree} holds. */
    private static Element testPlanElement(Node testPlanTree) {
        for (Node n = testPlanTree.getPreviousSibling(); n != null; n = n.getPreviousSibling()) {
            if (n instanceof Element e) {
                return e;
            }
        }
        return null;
    }

    /**
     * Whether the run is watched while it runs (a metrics port, or a live line), so that the plan
     * gets the live figures' listener.
     */
    static boolean watched(Map<String, String> properties) {
        String port = properties.getOrDefault(RunProperties.METRICS_PORT, "").trim();
        String progress = properties.getOrDefault(RunProperties.PROGRESS, "off").trim();
        return !(port.isEmpty() || port.equals("0")) || progress.equals("tty") || progress.equals("plain");
    }

    private static Element property(Document doc, String kind, String name, String value) {
        Element p = doc.createElement(kind);
        p.setAttribute("name", name);
        p.setTextContent(value);
        return p;
    }

    private static Document read(Path plan) throws IOException {
        try (InputStream in = Files.newInputStream(plan)) {
            // the JDK's own parser, not the Xerces found on JMeter's class path (as for the serialiser)
            DocumentBuilderFactory factory = DocumentBuilderFactory.newDefaultInstance();
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            DocumentBuilder builder = factory.newDocumentBuilder();
            builder.setErrorHandler(new DefaultHandler()); // the error is said below, not also printed by the parser
            return builder.parse(in);
        } catch (IOException e) {
            throw e;
        } catch (SAXParseException e) {
            throw new IOException(plan + " is not a JMeter plan (XML, line " + e.getLineNumber() + ", column "
                    + e.getColumnNumber() + "): " + e.getMessage(), e);
        } catch (Exception e) {
            throw new IOException(plan + " is not a JMeter plan (XML): " + e.getMessage(), e);
        }
    }

    /** The hashTree that holds the test plan's children: {@code jmeterTestPlan/hashTree/TestPlan + hashTree}. */
    private static Element testPlanTree(Document doc) {
        Element root = doc.getDocumentElement();
        Element top = firstElement(root.getFirstChild());
        if (!"jmeterTestPlan".equals(root.getNodeName()) || top == null || !"hashTree".equals(top.getNodeName())) {
            return null;
        }
        for (Element e = firstElement(top.getFirstChild()); e != null; e = firstElement(e.getNextSibling())) {
            if ("TestPlan".equals(e.getNodeName())) {
                Element tree = firstElement(e.getNextSibling());
                return tree != null && "hashTree".equals(tree.getNodeName()) ? tree : null;
            }
        }
        return null;
    }

    private static Element firstElement(Node node) {
        for (Node n = node; n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                return e;
            }
        }
        return null;
    }

    /** The plan to give JMeter ({@code -t}). */
    public Path plan() {
        return copy != null ? copy : plan;
    }

    /** Arguments for JMeter about the results file: {@code -l <file>} when JMeter writes it. */
    public List<String> jmeterArgs() {
        return new ArrayList<>(jmeterArgs);
    }

    /** JMeter properties that go with it. */
    public Map<String, String> properties() {
        return properties;
    }

    /**
     * Whether JMeter makes the HTML dashboard at the end of the run ({@code -e -o}, which needs its own
     * writer), when one is wanted. Histograms mode makes none: the dashboard counts rows, and a row
     * there stands for a second of requests.
     */
    public boolean dashboardByJMeter(boolean wanted) {
        return wanted && !histograms && copy == null;
    }

    /** Whether the runner makes the dashboard from the results file after the run, when one is wanted. */
    public boolean dashboardAfterRun(boolean wanted) {
        return wanted && !histograms && copy != null;
    }

    public boolean histograms() {
        return histograms;
    }

    /**
     * JMeter properties for the master and the slaves of a distributed run, where the run did not set
     * them (a batch sender reads its thresholds on the master, which makes it). In either mode a
     * slave's batch sender sends what it holds at least every second ({@code time_threshold}, 60 s by
     * default, which would hold a second's aggregate rows back for a minute, and a slow plan's rows
     * until 100 have gathered), so the master's live line, endpoint and listeners follow the run, and
     * a slave that dies takes at most a second of its rows with it. A fast plan's batches still close
     * at {@code num_sample_threshold} rows, as before.
     */
    public Map<String, String> slaveProperties() {
        return Map.of("time_threshold", "1000");
    }

    /** Deletes the plan's copy. */
    @Override
    public void close() throws IOException {
        if (copy != null) {
            Files.deleteIfExists(copy);
        }
    }
}
