package org.dsload.testing;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Where a test run's time went: the time of every test class (its set-up, tests and tear-down),
 * written slowest first to the file the system property {@code dsload.test.times} names, and the
 * ten slowest printed when the run ends. Surefire and failsafe set the property (test-times-unit.txt,
 * test-times-it.txt); without it, as in an IDE, the listener does nothing. A failure here only
 * costs the table, never the build.
 */
public final class SlowestTestClasses implements TestExecutionListener {
    public static final String FILE_PROPERTY = "dsload.test.times";
    private static final int SHOWN = 10;

    private record Timing(String className, long nanos, int tests, String outcome) {
    }

    private final Path file = fileOrNull();
    private final Map<String, Long> started = new ConcurrentHashMap<>();
    private final Map<String, Integer> tests = new ConcurrentHashMap<>();
    private final List<Timing> timings = new ArrayList<>();
    private volatile TestPlan plan;

    private static Path fileOrNull() {
        String name = System.getProperty(FILE_PROPERTY, "");
        return name.isBlank() ? null : Path.of(name);
    }

    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        plan = testPlan;
    }

    @Override
    public void executionStarted(TestIdentifier id) {
        if (file != null && isClass(id)) {
            started.put(id.getUniqueId(), System.nanoTime());
        }
    }

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        if (file == null) {
            return;
        }
        if (id.isTest() && plan != null) {
            // a parameterised or repeated test's invocations sit below the class, not in it
            Optional<TestIdentifier> owner = plan.getParent(id);
            while (owner.isPresent() && !isClass(owner.get())) {
                owner = plan.getParent(owner.get());
            }
            owner.ifPresent(c -> tests.merge(c.getUniqueId(), 1, Integer::sum));
        }
        Long start = started.remove(id.getUniqueId());
        if (start != null) {
            String className = ((ClassSource) id.getSource().orElseThrow()).getClassName();
            synchronized (timings) {
                timings.add(new Timing(className, System.nanoTime() - start, tests.getOrDefault(id.getUniqueId(), 0),
                        result.getStatus().name()));
            }
        }
    }

    @Override
    public void testPlanExecutionFinished(TestPlan plan) {
        if (file == null) {
            return;
        }
        try {
            List<Timing> slowest;
            synchronized (timings) {
                slowest = timings.stream().sorted((a, b) -> Long.compare(b.nanos(), a.nanos())).toList();
            }
            List<String> lines = slowest.stream().map(SlowestTestClasses::line).toList();
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.write(file, lines, StandardCharsets.UTF_8);
            print(System.out, lines, slowest.size());
        } catch (IOException | RuntimeException e) {
            System.out.println("dsload: the test classes' times were not written to " + file + ": " + e);
        }
    }

    private void print(PrintStream out, List<String> lines, int classes) {
        out.println();
        out.printf(Locale.ROOT, "Slowest test classes (%d of %d; all in %s):%n", Math.min(SHOWN, classes), classes, file);
        lines.stream().limit(SHOWN).forEach(l -> out.println("  " + l));
    }

    private static String line(Timing t) {
        return String.format(Locale.ROOT, "%9.3f s  %3d tests  %-10s %s", t.nanos() / 1e9, t.tests(),
                t.outcome(), t.className());
    }

    private static boolean isClass(TestIdentifier id) {
        return id.isContainer() && id.getSource().filter(ClassSource.class::isInstance).isPresent();
    }
}
