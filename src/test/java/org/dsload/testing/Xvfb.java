package org.dsload.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.dsload.process.ManagedProcess;
import org.dsload.targets.Checkout;

/**
 * An X server in memory (Debian's xvfb package) for tests of JMeter's GUI. It picks a free
 * display number itself ({@code -displayfd}), so tests running side by side never collide.
 */
public final class Xvfb implements AutoCloseable {
    private static final Duration READY = Duration.ofSeconds(20);

    private final ManagedProcess process;
    private final String display;

    private Xvfb(ManagedProcess process, String display) {
        this.process = process;
        this.display = display;
    }

    /** The Xvfb program on the PATH, if installed. */
    public static Optional<Path> executable() {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir, "Xvfb");
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    public static Xvfb start() {
        Path program = executable().orElseThrow(() -> new IllegalStateException("Xvfb is not installed"));
        Path dir = Checkout.work("xvfb-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
        Path log = dir.resolve("xvfb.log");
        ManagedProcess process = ManagedProcess.start("Xvfb", List.of(program.toString(), "-displayfd", "1",
                "-screen", "0", "1280x1024x24", "-nolisten", "tcp", "-noreset"), dir, log);
        // Xvfb writes the display number it chose to the given descriptor once it accepts clients.
        String[] number = new String[1];
        process.await(() -> {
            number[0] = displayNumber(log);
            return number[0] != null;
        }, READY, "Xvfb to report its display number");
        return new Xvfb(process, ":" + number[0]);
    }

    private static String displayNumber(Path log) {
        try {
            return Files.readAllLines(log, StandardCharsets.UTF_8).stream().map(String::trim)
                    .filter(l -> l.matches("\\d+")).findFirst().orElse(null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The value for DISPLAY, such as {@code :1}. */
    public String display() {
        return display;
    }

    @Override
    public void close() {
        process.stop(Duration.ofSeconds(5));
    }
}
