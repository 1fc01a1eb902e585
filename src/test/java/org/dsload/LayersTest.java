package org.dsload;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The layers of docs/architecture.md, held on the plugin's classes (tests may reach across them):
 * each package depends only on what lies below it, and no two top-level packages depend on each
 * other in a cycle.
 */
class LayersTest {
    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("org.dsload");

    private static final String[] BASE = {"core", "process"};
    private static final String[] MACHINERY = {"http", "gauges", "ycsb", "arrivals", "generator", "recording"};
    private static final String[] STORES = {"redis", "cassandra", "zookeeper", "kairosdb", "influxdb"};
    private static final String[] ORCHESTRATION = {"remote", "run", "serve", "targets", "scenarios", "cli", "gui"};

    /** {@code org.dsload.<name>..} for each name. */
    private static String[] packages(String[]... names) {
        return Arrays.stream(names).flatMap(Arrays::stream).map(n -> "org.dsload." + n + "..").toArray(String[]::new);
    }

    /** Classes of {@code layer} depend on no dsload class outside {@code allowed} (their own package included there). */
    private static ArchRule onlyOn(String[] layer, String[] allowed) {
        return classes().that().resideInAnyPackage(layer).should()
                .onlyDependOnClassesThat(not(resideInAPackage("org.dsload..")).or(resideInAnyPackage(allowed)));
    }

    @Test
    void processAndCoreDependOnNoOtherDsloadPackage() {
        onlyOn(packages(new String[] {"core"}), packages(new String[] {"core"})).check(MAIN);
        onlyOn(packages(new String[] {"process"}), packages(new String[] {"process"})).check(MAIN);
    }

    @Test
    void reportDependsOnlyOnTheResultFormatsOfCoreAndOnNoJMeterClass() {
        onlyOn(packages(new String[] {"report"}), new String[] {"org.dsload.report..", "org.dsload.core.format.."})
                .check(MAIN);
        onlyOn(new String[] {"org.dsload.core.format.."}, new String[] {"org.dsload.core.format.."}).check(MAIN);
        // dsload summary runs from the bundle alone, where JMeter is not on the class path
        noClasses().that().resideInAnyPackage("org.dsload.report..", "org.dsload.core.format..").should()
                .transitivelyDependOnClassesThat().resideInAPackage("org.apache.jmeter..").check(MAIN);
    }

    @Test
    void sharedMachineryDependsOnCoreProcessReportAndOneAnother() {
        onlyOn(packages(MACHINERY), packages(BASE, new String[] {"report"}, MACHINERY)).check(MAIN);
    }

    @Test
    void storesDependOnCoreProcessReportHttpGaugesAndYcsbOnly() {
        for (String store : STORES) {
            onlyOn(packages(new String[] {store}), packages(BASE, new String[] {"report", "http", "gauges", "ycsb", store}))
                    .check(MAIN);
        }
    }

    @Test
    void storePackagesDoNotDependOnEachOther() {
        slices().matching("org.dsload.(" + String.join("|", STORES) + ")..").should().notDependOnEachOther().check(MAIN);
    }

    @Test
    void faultsDependOnNothingOfTheOrchestration() {
        onlyOn(packages(new String[] {"chaos"}), packages(BASE, new String[] {"report", "chaos"}, MACHINERY, STORES))
                .check(MAIN);
    }

    @Test
    void theRunnerDependsDownwardOnly() {
        onlyOn(packages(new String[] {"remote"}), packages(BASE, new String[] {"report", "remote"}, MACHINERY))
                .check(MAIN);
        onlyOn(packages(new String[] {"run"}), packages(BASE, new String[] {"report", "chaos", "remote", "run"},
                MACHINERY, STORES)).check(MAIN);
    }

    @Test
    void noCycleBetweenTopLevelPackages() {
        slices().matching("org.dsload.(*)..").should().beFreeOfCycles().check(MAIN);
    }

    @Test
    void noSimpleClassNameIsUsedTwice() {
        JavaClasses all = new ClassFileImporter().importPackages("org.dsload");
        Map<String, String> twice = all.stream().filter(JavaClass::isTopLevelClass)
                .collect(Collectors.groupingBy(JavaClass::getSimpleName, TreeMap::new,
                        Collectors.mapping(JavaClass::getName, Collectors.joining(", "))))
                .entrySet().stream().filter(e -> e.getValue().contains(","))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, TreeMap::new));
        if (!twice.isEmpty()) {
            throw new AssertionError("simple class names used by more than one class of src/main and src/test "
                    + "(docs/architecture.md, Names): " + twice);
        }
    }
}
