package org.dsload.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.dsload.gui.ElementClasses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The summary's sections find themselves: every section class is registered and printed in its order. */
class RunReportTest {

    @Test
    void everySectionClassOfThePluginIsRegisteredAndLoadable() {
        List<String> registered = RunReport.sections().stream().map(s -> s.getClass().getName()).sorted().toList();
        List<Class<?>> found = ElementClasses.implementing(RunSection.class);
        for (Class<?> c : found) {
            assertTrue(Modifier.isPublic(c.getModifiers()), c + " must be public for ServiceLoader");
        }
        assertEquals(found.stream().map(Class::getName).sorted().toList(), registered,
                "META-INF/services/org.dsload.report.RunSection lists every RunSection");
    }

    @Test
    void everyChartClassOfThePluginIsRegisteredAndLoadable() {
        List<String> registered = RunCharts.charts().stream().map(c -> c.getClass().getName()).sorted().toList();
        List<Class<?>> found = ElementClasses.implementing(RunChart.class);
        assertEquals(found.stream().map(Class::getName).sorted().toList(), registered,
                "META-INF/services/org.dsload.report.RunChart lists every RunChart");
        assertEquals(5, registered.size(), "a chart of server gauges per store: " + registered);
    }

    @Test
    void sectionsComeInTheOrderOfTheirKeysWithStoreFiguresBeforeFaultsRecordingSlavesAndGenerator() {
        List<RunSection> sections = RunReport.sections();
        for (int i = 1; i < sections.size(); i++) {
            assertTrue(sections.get(i - 1).order() < sections.get(i).order(),
                    sections.get(i - 1).getClass() + " and " + sections.get(i).getClass() + " share or invert their order");
        }
        List<String> names = sections.stream().map(s -> s.getClass().getSimpleName()).toList();
        assertTrue(names.indexOf("ZooKeeperLatenciesSection") < names.indexOf("FaultPhasesSection"), names.toString());
        assertTrue(names.indexOf("FaultPhasesSection") < names.indexOf("RecordingSection"), names.toString());
        assertTrue(names.indexOf("RecordingSection") < names.indexOf("SlavesSection"), names.toString());
        assertTrue(names.indexOf("SlavesSection") < names.indexOf("GeneratorSection"), names.toString());
    }

    @Test
    void aSectionInAnotherPackagePrintsItsPart(@TempDir Path dir) throws Exception {
        Path jtl = dir.resolve("r.jtl");
        Files.writeString(jtl, "timeStamp,elapsed,label,responseCode,responseMessage,success\n"
                + "1000,5,READ,OK,,true\n"
                + "1500,1,fault:delay:node3,APPLIED,delay 200ms,true\n"
                + "2500,1,fault:delay:node3,REVERTED,none,true\n"
                + "3000,5,READ,OK,,true\n", StandardCharsets.UTF_8);
        String text = RunReport.render(dir, Summary.of(jtl));
        assertTrue(text.contains("== Fault phases =="), text);
    }
}
