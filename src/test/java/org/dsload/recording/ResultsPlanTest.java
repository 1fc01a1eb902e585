package org.dsload.recording;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;

import org.dsload.core.format.RunProperties;
import org.dsload.live.LiveListener;
import org.dsload.targets.Checkout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/** What the runner gives JMeter: in rows mode a copy of the plan with dsload's writer, in the run folder. */
class ResultsPlanTest {
    private static Path plan(Path dir) throws Exception {
        return Files.copy(Checkout.basedir().resolve("test-plans/ekv-profile-get.jmx"), dir.resolve("ekv.jmx"));
    }

    @Test
    void rowsModeRunsACopyInTheRunFolderWithTheWriterLastUnderTheTestPlan(@TempDir Path dir) throws Exception {
        Path plan = plan(dir);
        Path jtl = dir.resolve("out/ekv.jtl");
        Path copy;
        try (ResultsPlan results = ResultsPlan.prepare(plan, jtl, Map.of())) {
            copy = results.plan();
            assertEquals(jtl.getParent(), copy.getParent(), "the run folder, not the plan's");
            assertEquals("ekv.jmx", copy.getFileName().toString(), "the plan's name, as __TestPlanName gives it");
            assertEquals(List.of(), results.jmeterArgs(), "no -l: JMeter's writer would lock per row");
            assertEquals(Map.of("summariser.name", ""), results.properties(), "the writer feeds the summariser");
            assertFalse(results.dashboardByJMeter(true));
            assertTrue(results.dashboardAfterRun(true));
            assertEquals(Map.of("time_threshold", "1000"), results.slaveProperties(),
                    "a slow plan's rows reach the master within a second, not once 100 have gathered");

            Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(copy.toFile());
            Element testPlanTree = next(next(doc.getDocumentElement().getFirstChild()).getFirstChild(), "TestPlan");
            testPlanTree = next(testPlanTree.getNextSibling());
            Element last = null;
            for (Node n = testPlanTree.getFirstChild(); n != null; n = n.getNextSibling()) {
                if (n instanceof Element e && !e.getNodeName().equals("hashTree")) {
                    last = e;
                }
            }
            assertEquals(ResultsWriter.class.getName(), last.getNodeName());
            assertEquals(StartInstant.class.getName(), ResultsPlan.START_CLASS);
            assertTrue(Files.readString(copy).contains("<" + ResultsPlan.START_CLASS + " "), "the start instant's element");
            assertEquals(jtl.toAbsolutePath().toString(), property(last, "filename"));
            assertEquals("summary", property(last, ResultsWriter.SUMMARISER));
            assertEquals(countOf(plan, "RedisSampler"), countOf(copy, "RedisSampler"), "the plan itself is unchanged");
        }
        assertFalse(Files.exists(copy), "the copy goes with the run");
        try (java.util.stream.Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of("ekv.jmx", "out"), left.map(p -> p.getFileName().toString()).sorted().toList(),
                    "nothing is written beside the plan");
        }
    }

    @Test
    void theCopysRelativeFileNamesStillMeanThePlansFolder(@TempDir Path dir) throws Exception {
        Path plans = Files.createDirectories(dir.resolve("test-plans"));
        Path plan = Files.writeString(plans.resolve("p.jmx"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <jmeterTestPlan version="1.2" properties="5.0" jmeter="5.6.3">
                  <hashTree>
                    <TestPlan guiclass="TestPlanGui" testclass="TestPlan" testname="p" enabled="true">
                      <stringProp name="TestPlan.comments"></stringProp>
                    </TestPlan>
                    <hashTree>
                      <IncludeController guiclass="IncludeControllerGui" testclass="IncludeController" testname="i">
                        <stringProp name="IncludeController.includepath">parts/login.jmx</stringProp>
                      </IncludeController>
                      <hashTree/>
                    </hashTree>
                  </hashTree>
                </jmeterTestPlan>
                """);
        Path jtl = dir.resolve("results/run-1/p.jtl");
        try (ResultsPlan results = ResultsPlan.prepare(plan, jtl, Map.of())) {
            Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(results.plan().toFile());
            Element testPlan = next(next(doc.getDocumentElement().getFirstChild()).getFirstChild(), "TestPlan");
            // JMeter sets the base to "<folder of the copy>" + basedir when the test starts
            assertEquals("/../../test-plans", property(testPlan, "basedir"));
            assertEquals(plans, Path.of(jtl.getParent() + property(testPlan, "basedir")).normalize());
            Element include = (Element) doc.getElementsByTagName("IncludeController").item(0);
            assertEquals(plans.resolve("parts/login.jmx").toString(), property(include, "IncludeController.includepath"));
        }
    }

    @Test
    void aReadOnlyPlanFolderStillRunsWithDsloadsWriter(@TempDir Path dir) throws Exception {
        Path plans = Files.createDirectories(dir.resolve("plans"));
        Path plan = Files.copy(Checkout.basedir().resolve("test-plans/ekv-profile-get.jmx"), plans.resolve("ekv.jmx"));
        assertTrue(plans.toFile().setWritable(false));
        try (ResultsPlan results = ResultsPlan.prepare(plan, dir.resolve("run/ekv.jtl"), Map.of())) {
            assertEquals(dir.resolve("run/ekv.jmx"), results.plan());
            assertEquals(List.of(), results.jmeterArgs());
        } finally {
            plans.toFile().setWritable(true);
        }
    }

    @Test
    void histogramsModeWritesItsFewRowsWithTheWriterAndMakesNoDashboard(@TempDir Path dir) throws Exception {
        Path plan = plan(dir);
        Path jtl = dir.resolve("ekv.jtl");
        try (ResultsPlan results = ResultsPlan.prepare(plan, jtl, Map.of(RunProperties.RECORD, "histograms"))) {
            assertEquals(jtl.getParent(), results.plan().getParent(), "a copy with the start instant, in the run folder");
            String copy = Files.readString(results.plan());
            assertTrue(copy.contains("<" + ResultsPlan.START_CLASS + " "), copy);
            assertTrue(copy.contains("<" + ResultsPlan.WRITER_CLASS + " "), "the writer leaves the slaves' gauge"
                    + " lines out of the results file, as in rows mode\n" + copy);
            assertEquals(List.of(), results.jmeterArgs(), "no writer of JMeter's beside it");
            assertEquals(Map.of(ResultsPlan.SUMMARISER_PROPERTY, ""), results.properties());
            assertFalse(results.dashboardByJMeter(true));
            assertFalse(results.dashboardAfterRun(true));
            assertEquals(Map.of("time_threshold", "1000"), results.slaveProperties(),
                    "slaves send their rows at least every second, not every minute");
        }
    }

    @Test
    void aWatchedRunGetsItsLiveFiguresFromTheWriterInEitherMode(@TempDir Path dir) throws Exception {
        Path plan = plan(dir);
        Path jtl = dir.resolve("out/ekv.jtl");
        try (ResultsPlan results = ResultsPlan.prepare(plan, jtl, Map.of(RunProperties.RECORD, "histograms",
                RunProperties.METRICS_PORT, "9464", RunProperties.PROGRESS, "off"))) {
            String copy = Files.readString(results.plan());
            assertEquals(dir.resolve("out/ekv.jmx"), results.plan());
            assertEquals(List.of(), results.jmeterArgs());
            assertFalse(copy.contains(LiveListener.class.getName()), "one listener per slave: its rows cross once\n" + copy);
            assertTrue(copy.contains("<boolProp name=\"" + ResultsWriter.LIVE + "\">true</boolProp>"), copy);
        }
        try (ResultsPlan results = ResultsPlan.prepare(plan, jtl, Map.of(RunProperties.PROGRESS, "plain"))) {
            String copy = Files.readString(results.plan());
            assertFalse(copy.contains("<" + LiveListener.class.getName()), "rows mode: the writer feeds the live figures, so that"
                    + " a slave's samples reach the master once\n" + copy);
            assertTrue(copy.contains("<boolProp name=\"" + ResultsWriter.LIVE + "\">true</boolProp>"), copy);
        }
        try (ResultsPlan results = ResultsPlan.prepare(plan, jtl, Map.of(RunProperties.PROGRESS, "off",
                RunProperties.METRICS_PORT, "0"))) {
            String copy = Files.readString(results.plan());
            assertFalse(copy.contains(LiveListener.class.getName()) || copy.contains(ResultsWriter.LIVE), "neither watched nor served");
        }
    }

    @Test
    void anUnknownModeIsRefusedBeforeTheRun(@TempDir Path dir) throws Exception {
        Path plan = plan(dir);
        Exception e = assertThrows(java.io.IOException.class,
                () -> ResultsPlan.prepare(plan, dir.resolve("x.jtl"), Map.of(RunProperties.RECORD, "hdr")));
        assertTrue(e.getMessage().contains("'rows'") && e.getMessage().contains("'hdr'"), e.getMessage());
    }

    @Test
    void aPlanThatIsNotXmlIsRefusedWithWhereItBreaksAndNothingElseOnTheConsole(@TempDir Path dir) throws Exception {
        Path plan = Files.writeString(dir.resolve("cut.jmx"), "<?xml version=\"1.0\"?>\n<jmeterTestPlan><hashTree><Broken");
        java.io.PrintStream err = System.err;
        java.io.ByteArrayOutputStream said = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(said, true, java.nio.charset.StandardCharsets.UTF_8));
        Exception e;
        try {
            e = assertThrows(java.io.IOException.class, () -> ResultsPlan.prepare(plan, dir.resolve("x.jtl"), Map.of()));
        } finally {
            System.setErr(err);
        }
        assertEquals(plan + " is not a JMeter plan (XML, line 2, column 34): XML document structures must start and end "
                + "within the same entity.", e.getMessage());
        assertEquals("", said.toString(java.nio.charset.StandardCharsets.UTF_8), "the parser prints nothing of its own");
    }

    private static long countOf(Path file, String text) throws Exception {
        return Files.readString(file).split(text, -1).length - 1;
    }

    private static Element next(Node n) {
        for (; n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                return e;
            }
        }
        return null;
    }

    private static Element next(Node n, String name) {
        for (Element e = next(n); e != null; e = next(e.getNextSibling())) {
            if (e.getNodeName().equals(name)) {
                return e;
            }
        }
        return null;
    }

    private static String property(Element e, String name) {
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element p && name.equals(p.getAttribute("name"))) {
                return p.getTextContent();
            }
        }
        return null;
    }
}
