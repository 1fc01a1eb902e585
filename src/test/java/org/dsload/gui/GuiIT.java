package org.dsload.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.imageio.ImageIO;

import org.dsload.process.Folders;
import org.dsload.process.JMeterJvm;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedRedis;
import org.dsload.testing.Prerequisites;
import org.dsload.testing.Xvfb;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * JMeter's GUI with the dsload bundle, used for real under Xvfb: one JMeter process from the
 * build's JMeter home, driven from inside by org.dsload.guidriver (see GuiDriver for what it
 * does). Screenshots land in target/gui/screenshots/.
 *
 * <p>Needs Debian's xvfb package. Without it the test is skipped with a message, unless
 * DSLOAD_GUI_TESTS=required (as .ci/run sets it), when it fails.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class GuiIT {
    private static final Duration LIMIT = Duration.ofMinutes(4);
    private static final Pattern DOC_ELEMENT = Pattern.compile("(?m)^- \\*\\*(dsload [^*]+)\\*\\* \\(([^)]+)\\)");

    private static Path work;
    private static List<String[]> report;
    private static String console;
    private static int exitCode;
    private static List<Path> plans;

    @BeforeAll
    static void driveTheGui() throws Exception {
        requireXvfb();
        work = Checkout.target().resolve("gui");
        Folders.deleteTree(work);
        Path driverSource = Checkout.target().resolve("test-classes/org/dsload/guidriver");
        copyTree(driverSource, work.resolve("driver/org/dsload/guidriver"), p -> !p.startsWith(driverSource.resolve("launch")));
        copyTree(driverSource.resolve("launch"), work.resolve("launcher/org/dsload/guidriver/launch"), p -> true);
        // The GUI opens copies, so that nothing it does can change a shipped plan.
        plans = new ArrayList<>();
        try (Stream<Path> shipped = Files.list(Checkout.basedir().resolve("test-plans"))) {
            // a run's temporary copy of its plan (.<plan>.dsload-<n>.jmx, left behind by a runner killed outright) is no shipped plan
            for (Path plan : shipped.filter(p -> p.toString().endsWith(".jmx")
                    && !p.getFileName().toString().startsWith(".")).sorted().toList()) {
                Path copy = work.resolve("plans").resolve(plan.getFileName());
                Files.createDirectories(copy.getParent());
                Files.copy(plan, copy);
                plans.add(copy);
            }
        }
        Path live = work.resolve("live/ekv-profile-get.jmx");
        Files.createDirectories(live.getParent());
        Files.copy(Checkout.basedir().resolve("test-plans/ekv-profile-get.jmx"), live);

        try (Xvfb xvfb = Xvfb.start(); EmbeddedRedis redis = EmbeddedRedis.start()) {
            Path properties = work.resolve("gui.properties");
            Files.writeString(properties, String.join("\n",
                    "save_automatically_before_run=false",
                    "jmeter.save.saveservice.output_format=csv",
                    "jmeter.save.saveservice.print_field_names=true",
                    "jmeter.save.saveservice.timestamp_format=ms",
                    "sampleresult.timestamp.start=true",
                    "jmeter.save.saveservice.sample_count=true",
                    "jmeter.save.saveservice.hostname=true",
                    "sample_variables=dsload_timing",
                    "hosts=" + redis.address(),
                    "threads=2",
                    "duration=3",
                    // the live summary is judged against its file, not the load: 1,000 GETs a reader, not 3 s at full speed
                    "loops=1000",
                    "profiles=300",
                    ""), StandardCharsets.UTF_8);
            Path home = Checkout.jmeterHome();
            List<String> command = new ArrayList<>(List.of(javaBin(), "-Xms256m", "-Xmx768m"));
            command.addAll(JMeterJvm.baseOptions());
            command.addAll(List.of(
                    "-Djmeter.home=" + home.toRealPath(),
                    "-Ddsload.driver.classes=" + work.resolve("driver"),
                    "-Ddsload.gui.out=" + work,
                    "-Ddsload.gui.log=" + work.resolve("jmeter.log"),
                    "-Ddsload.gui.plans=" + String.join(java.io.File.pathSeparator, plans.stream().map(Path::toString).toList()),
                    "-Ddsload.gui.live.plan=" + live,
                    "-cp", launcherJar(home) + java.io.File.pathSeparator + work.resolve("launcher"),
                    "org.dsload.guidriver.launch.Launcher",
                    "-j", work.resolve("jmeter.log").toString(),
                    "-q", properties.toString()));
            ProcessBuilder builder = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true)
                    .redirectOutput(work.resolve("console.txt").toFile());
            builder.environment().put("DISPLAY", xvfb.display());
            Process jmeter = builder.start();
            try {
                if (!jmeter.waitFor(LIMIT.toSeconds(), TimeUnit.SECONDS)) {
                    fail("JMeter's GUI run did not finish within " + LIMIT.toMinutes() + " min; see " + work);
                }
                exitCode = jmeter.exitValue();
            } finally {
                jmeter.descendants().forEach(ProcessHandle::destroyForcibly);
                jmeter.destroyForcibly();
            }
        }
        console = Files.readString(work.resolve("console.txt"), StandardCharsets.UTF_8);
        Path reportFile = work.resolve("report.tsv");
        assertTrue(Files.isRegularFile(reportFile), "the driver wrote no report (exit " + exitCode + "):\n" + console);
        report = Files.readAllLines(reportFile, StandardCharsets.UTF_8).stream().map(l -> l.split("\t", -1)).toList();
    }

    private static void requireXvfb() {
        if (Xvfb.executable().isPresent()) {
            return;
        }
        Prerequisites.missing("JMeter's GUI is tested under Xvfb, which is not installed (Debian: apt-get install xvfb)",
                "DSLOAD_GUI_TESTS", "required");
    }

    private static List<String[]> lines(String kind) {
        return report.stream().filter(l -> l[0].equals(kind)).toList();
    }

    @Test
    void theDriverWentThroughEveryStepWithoutAProblem() {
        List<String> problems = lines("problem").stream().map(l -> l[1] + ": " + l[2]).toList();
        assertTrue(problems.isEmpty(), problems.size() + " problems in the GUI:\n" + String.join("\n", problems)
                + "\n(see " + work + ")");
        assertFalse(lines("done").isEmpty(), "the driver stopped early:\n" + console);
        assertEquals(0, exitCode, console);
    }

    @Test
    void everyDsloadElementOfEveryShippedPlanWasShownAndPhotographed() throws IOException {
        for (Path plan : plans) {
            String xml = Files.readString(plan, StandardCharsets.UTF_8);
            long inPlan = Pattern.compile("testclass=\"org\\.dsload\\.|guiclass=\"org\\.dsload\\.").matcher(xml).results()
                    .count();
            String name = plan.getFileName().toString().replaceFirst("\\.jmx$", "");
            long shown = lines("checked").stream().filter(l -> l[1].equals("element") && l[2].startsWith(name + " / "))
                    .count();
            assertTrue(inPlan > 0, plan + " has no dsload element");
            assertEquals(inPlan, shown, "dsload elements of " + plan.getFileName() + " shown in the GUI");
        }
        List<String[]> shots = lines("shot");
        assertTrue(shots.size() > plans.size(), "screenshots: " + shots.size());
        for (String[] shot : shots) {
            BufferedImage image = ImageIO.read(work.resolve(shot[2]).toFile());
            assertTrue(image.getWidth() > 300 && image.getHeight() > 150, shot[2] + " is too small to show a form");
            assertTrue(colours(image) > 8, shot[2] + " is blank");
        }
    }

    @Test
    void everyElementIsInTheAddMenuTheElementsPageNames() throws IOException {
        Map<String, String> documented = new LinkedHashMap<>();
        String doc = Files.readString(Checkout.basedir().resolve("docs/elements.md"), StandardCharsets.UTF_8);
        Matcher m = DOC_ELEMENT.matcher(doc);
        while (m.find()) {
            documented.put(m.group(1), m.group(2));
        }
        Map<String, String> menus = new LinkedHashMap<>();
        lines("menu").forEach(l -> menus.put(l[1], l[2]));
        assertEquals(documented, menus, "dsload elements in JMeter's Add menus (label -> menu) against docs/elements.md");
        assertEquals(ElementClasses.all().size(), menus.size(), "every element of the plugin is in a menu");
    }

    @Test
    void theMissingResourceDetectorSeesWhatJMeterShowsForMissingTexts() {
        Set<String> found = new HashSet<>();
        lines("selfcheck").forEach(l -> found.add(l[2]));
        assertEquals(Set.of(
                "label shows the raw key 'hostsList' instead of its text (missing resource)",
                "tooltip shows the raw key 'hostsList' instead of its text (missing resource)",
                "title shows the raw key 'serverGroup' instead of its text (missing serverGroup.displayName)"), found);
    }

    @Test
    void aPlanWithEveryElementSurvivesSavingAndReopening() {
        assertTrue(lines("checked").stream().anyMatch(l -> l[1].equals("round trip")), "round trip not done");
        assertTrue(lines("checked").stream().anyMatch(l -> l[1].equals("round trip through the GUI")),
                "GUI round trip not done");
        long typed = lines("checked").stream().filter(l -> l[1].equals("typed ${...} into")).count();
        assertEquals(ElementClasses.testBeans().size(), typed, "${...} typed into the fields of every TestBean");
    }

    @Test
    void theSummaryListenerShowsWhatTheSummaryPrintsForItsOwnResultsFile() {
        List<String[]> live = lines("checked").stream().filter(l -> l[1].equals("live summary")).toList();
        assertEquals(1, live.size(), "live summary not checked");
        assertTrue(live.get(0)[2].contains("microseconds for every sample"), live.get(0)[2]);
    }

    private static int colours(BufferedImage image) {
        Set<Integer> seen = new HashSet<>();
        for (int y = 0; y < image.getHeight(); y += 3) {
            for (int x = 0; x < image.getWidth(); x += 3) {
                seen.add(image.getRGB(x, y));
                if (seen.size() > 50) {
                    return seen.size();
                }
            }
        }
        return seen.size();
    }

    /** bin/ApacheJMeter.jar, named with its version in the home jmeter-maven-plugin builds. */
    private static Path launcherJar(Path home) throws IOException {
        try (Stream<Path> jars = Files.list(home.resolve("bin"))) {
            return jars.filter(p -> p.getFileName().toString().matches("ApacheJMeter(-[\\d.]+)?\\.jar")).findFirst()
                    .orElseThrow(() -> new IOException("no ApacheJMeter jar in " + home.resolve("bin")));
        }
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static void copyTree(Path from, Path to, java.util.function.Predicate<Path> keep) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.filter(Files::isRegularFile).filter(keep).toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                Files.createDirectories(target.getParent());
                Files.copy(file, target);
            }
        }
    }
}
