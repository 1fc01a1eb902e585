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

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The layers of docs/architecture.md, held on the plugin's classes (tests may reach across them):
 * each package depends only on what lies below it, and no two top-level packages depend on each
 * other in a cycle. Run by ArchUnit's JUnit Platform engine (archunit-junit5), which imports the
 * classes once for every rule.
 */
@AnalyzeClasses(packages = "org.dsload", importOptions = ImportOption.DoNotIncludeTests.class)
class LayersTest {
    private static final String[] BASE = {"core", "process"};
    private static final String[] MACHINERY = {"http", "gauges", "ycsb", "arrivals", "generator", "recording", "live"};
    private static final String[] STORES = {"redis", "cassandra", "zookeeper", "kairosdb", "influxdb"};

    /** {@code org.dsload.<name>..} for each name. */
    private static String[] packages(String[]... names) {
        return Arrays.stream(names).flatMap(Arrays::stream).map(n -> "org.dsload." + n + "..").toArray(String[]::new);
    }

    /** Classes of {@code layer} depend on no dsload class outside {@code allowed} (their own package included there). */
    private static ArchRule onlyOn(String[] layer, String[] allowed) {
        return classes().that().resideInAnyPackage(layer).should()
                .onlyDependOnClassesThat(not(resideInAPackage("org.dsload..")).or(resideInAnyPackage(allowed)));
    }

    @ArchTest
    static void processAndCoreDependOnNoOtherDsloadPackage(JavaClasses main) {
        onlyOn(packages(new String[] {"core"}), packages(new String[] {"core"})).check(main);
        onlyOn(packages(new String[] {"process"}), packages(new String[] {"process"})).check(main);
    }

    @ArchTest
    static void reportDependsOnlyOnTheResultFormatsOfCoreAndOnNoJMeterClass(JavaClasses main) {
        onlyOn(packages(new String[] {"report"}), new String[] {"org.dsload.report..", "org.dsload.core.format.."})
                .check(main);
        onlyOn(new String[] {"org.dsload.core.format.."}, new String[] {"org.dsload.core.format.."}).check(main);
        // dsload summary runs from the bundle alone, where JMeter is not on the class path
        noClasses().that().resideInAnyPackage("org.dsload.report..", "org.dsload.core.format..").should()
                .transitivelyDependOnClassesThat().resideInAPackage("org.apache.jmeter..").check(main);
    }

    @ArchTest
    static void sharedMachineryDependsOnCoreProcessReportAndOneAnother(JavaClasses main) {
        onlyOn(packages(MACHINERY), packages(BASE, new String[] {"report"}, MACHINERY)).check(main);
    }

    @ArchTest
    static void storesDependOnCoreProcessReportHttpGaugesAndYcsbOnly(JavaClasses main) {
        for (String store : STORES) {
            onlyOn(packages(new String[] {store}), packages(BASE, new String[] {"report", "http", "gauges", "ycsb", store}))
                    .check(main);
        }
    }

    @ArchTest
    static void storePackagesDoNotDependOnEachOther(JavaClasses main) {
        slices().matching("org.dsload.(" + String.join("|", STORES) + ")..").should().notDependOnEachOther().check(main);
    }

    @ArchTest
    static void faultsDependOnNothingOfTheOrchestration(JavaClasses main) {
        onlyOn(packages(new String[] {"chaos"}), packages(BASE, new String[] {"report", "chaos"}, MACHINERY, STORES))
                .check(main);
    }

    @ArchTest
    static void theRunnerDependsDownwardOnly(JavaClasses main) {
        onlyOn(packages(new String[] {"remote"}), packages(BASE, new String[] {"report", "remote"}, MACHINERY))
                .check(main);
        onlyOn(packages(new String[] {"run"}), packages(BASE, new String[] {"report", "chaos", "remote", "run"},
                MACHINERY, STORES)).check(main);
    }

    @ArchTest
    static void noCycleBetweenTopLevelPackages(JavaClasses main) {
        slices().matching("org.dsload.(*)..").should().beFreeOfCycles().check(main);
    }

    @ArchTest
    static void noSimpleClassNameIsUsedTwice(JavaClasses mainOnly) {
        // this rule is about src/test too
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
