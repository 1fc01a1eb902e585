package org.dsload.gauges;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.apache.jmeter.util.JMeterUtils;
import org.dsload.core.format.RunProperties;
import org.dsload.process.Folders;
import org.dsload.report.RunSection;
import org.dsload.testing.JMeterRuntime;

/**
 * A run folder for a test that drives elements in this JVM, as the dsload runner gives one to a
 * JMeter process: set as {@code dsload.run_dir}, and deleted, when closed.
 */
public final class TestRunFolder implements AutoCloseable {
    private final Path dir;

    private TestRunFolder(Path dir) {
        this.dir = dir;
    }

    public static TestRunFolder create(String name) {
        JMeterRuntime.init();
        try {
            Path dir = Files.createTempDirectory("dsload-" + name);
            JMeterUtils.setProperty(RunProperties.RUN_DIR, dir.toString());
            return new TestRunFolder(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Path dir() {
        return dir;
    }

    /** The section's text, or "" when the run left nothing for it. */
    public String section(RunSection section) {
        try {
            return section.render(dir, null).orElse("");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String read(String file) {
        try {
            return Files.readString(dir.resolve(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether any file of the run holds the text (a password that must not be there). */
    public boolean anyFileContains(String text) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).anyMatch(f -> {
                try {
                    return new String(Files.readAllBytes(f), StandardCharsets.UTF_8).contains(text);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Unsets the property and deletes the folder. */
    @Override
    public void close() {
        JMeterUtils.getJMeterProperties().remove(RunProperties.RUN_DIR);
        try {
            Folders.deleteTree(dir);
        } catch (IOException e) {
            // a temporary folder: the system empties it in the end
        }
    }
}
