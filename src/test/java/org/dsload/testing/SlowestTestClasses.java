package org.dsload.testing;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.dsload.process.ProcFs;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Where a test run's time went: the time of every test class (its set-up, tests and tear-down)
 * and the CPU its JVM and that JVM's processes (servers, JMeter, slaves) used meanwhile, written
 * slowest first to the file the system property {@code dsload.test.times} names, and the ten
 * slowest printed when the test JVM's session ends. Surefire and failsafe set the property
 * (test-times-unit.txt, test-times-it.txt) and the build empties the file before each phase; JVMs
 * that run test classes side by side each add theirs to the one file, under a lock. Without the
 * property, as in an IDE, the listener does nothing. A failure here only costs the table, never
 * the build.
 */
public final class SlowestTestClasses implements TestExecutionListener, LauncherSessionListener {
    public static final String FILE_PROPERTY = "dsload.test.times";
    /**
     * The stage of the test run this JVM belongs to, appended to each class name as {@code [stage]}
     * (failsafe's paired and alone executions set {@code dsload.test.stage}): a class whose tests are split
     * between two stages gets a line for each.
     */
    private static final String STAGE = System.getProperty("dsload.test.stage", "").isBlank() ? ""
            : "[" + System.getProperty("dsload.test.stage") + "]";
    private static final int SHOWN = 10;
    /** The clock ticks a second of /proc/PID/stat (USER_HZ: 100 on Linux). */
    private static final int TICKS_PER_SECOND = 100;
    /** This JVM's classes, by name: one listener may see several test plans (one per class in a shared fork). */
    private static final Map<String, String> LINES = new ConcurrentHashMap<>();

    private final Path file = fileOrNull();
    private final Map<String, Start> started = new ConcurrentHashMap<>();
    private final Map<String, Integer> tests = new ConcurrentHashMap<>();
    /** Tests of each class that failed: the class itself reads SUCCESSFUL when only its tests failed. */
    private final Map<String, Integer> failed = new ConcurrentHashMap<>();
    private volatile TestPlan plan;

    /** When a class started, and the CPU its JVM's tree had used by then. */
    private record Start(long nanos, long cpuTicks) {
    }

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
            started.put(id.getUniqueId(), new Start(System.nanoTime(), treeCpuTicks()));
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
            if (result.getStatus() == TestExecutionResult.Status.FAILED) {
                owner.ifPresent(c -> failed.merge(c.getUniqueId(), 1, Integer::sum));
            }
        }
        Start start = started.remove(id.getUniqueId());
        if (start != null) {
            String className = ((ClassSource) id.getSource().orElseThrow()).getClassName() + STAGE;
            long cpuEnd = treeCpuTicks();
            String cpu = start.cpuTicks() < 0 || cpuEnd < 0 ? "       -"
                    : String.format(Locale.ROOT, "%6.1f s", (cpuEnd - start.cpuTicks()) / (double) TICKS_PER_SECOND);
            LINES.put(className, String.format(Locale.ROOT, "%9.3f s  cpu %s  %3d tests  %-10s %s",
                    (System.nanoTime() - start.nanos()) / 1e9, cpu, tests.getOrDefault(id.getUniqueId(), 0),
                    failed.containsKey(id.getUniqueId()) ? failed.get(id.getUniqueId()) + " FAILED"
                            : result.getStatus().name(), className));
        }
    }

    @Override
    public void testPlanExecutionFinished(TestPlan finished) {
        if (file != null) {
            try {
                merge();
            } catch (IOException | RuntimeException e) {
                System.out.println("dsload: the test classes' times were not written to " + file + ": " + e);
            }
        }
    }

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        if (file == null || LINES.isEmpty()) {
            return;
        }
        try {
            print(System.out, merge());
        } catch (IOException | RuntimeException e) {
            System.out.println("dsload: the test classes' times were not written to " + file + ": " + e);
        }
    }

    /** Adds this JVM's classes to those the file holds (another JVM's), slowest first; returns the whole table. */
    private List<String> merge() throws IOException {
        java.nio.file.Files.createDirectories(file.toAbsolutePath().getParent());
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE); FileLock lock = channel.lock()) {
            ByteBuffer content = ByteBuffer.allocate((int) channel.size());
            while (content.hasRemaining() && channel.read(content) >= 0) {
                // reads the whole file
            }
            Map<String, String> all = new LinkedHashMap<>();
            for (String line : new String(content.array(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) {
                    all.put(line.substring(line.lastIndexOf(' ') + 1), line);
                }
            }
            all.putAll(LINES);
            List<String> slowest = new ArrayList<>(all.values());
            slowest.sort((a, b) -> Double.compare(seconds(b), seconds(a)));
            channel.truncate(0);
            var out = Channels.newOutputStream(channel.position(0));
            out.write((String.join("\n", slowest) + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            return slowest;
        }
    }

    private static double seconds(String line) {
        return Double.parseDouble(line.trim().split("\\s+")[0]);
    }

    private void print(PrintStream out, List<String> lines) {
        out.println();
        out.printf(Locale.ROOT, "Slowest test classes (%d of %d; all in %s):%n", Math.min(SHOWN, lines.size()),
                lines.size(), file);
        lines.stream().limit(SHOWN).forEach(l -> out.println("  " + l));
    }

    /**
     * The CPU of this JVM and every process under it, in clock ticks, or -1 off Linux: each one's user
     * and system time with that of the children it reaped, so that the difference of two readings is
     * what the tree used between them, processes that ended meanwhile included (those that left the
     * tree, a daemon that detached, are not).
     */
    static long treeCpuTicks() {
        long self = ProcFs.cpuTicks(ProcessHandle.current().pid(), true);
        if (self < 0) {
            return -1;
        }
        return self + ProcessHandle.current().descendants().mapToLong(p -> Math.max(0, ProcFs.cpuTicks(p.pid(), true))).sum();
    }

    private static boolean isClass(TestIdentifier id) {
        return id.isContainer() && id.getSource().filter(ClassSource.class::isInstance).isPresent();
    }
}
