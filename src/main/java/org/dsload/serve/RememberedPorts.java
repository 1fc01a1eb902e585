package org.dsload.serve;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Properties;

import org.dsload.process.Ports;
import org.dsload.targets.PortChoice;

/**
 * The ports of targets served with a data folder, kept in {@code ports.properties} there: a
 * target started again gets the ports it had, so the -J properties of the last run still hold. A
 * remembered port that is taken now (by anything, or reserved by another dsload process) is
 * skipped, saying so, for a free one.
 */
final class RememberedPorts implements PortChoice {
    static final String FILE = "ports.properties";

    private final Path file;
    private final PrintStream console;
    private final Properties ports = new Properties();

    RememberedPorts(Path dataFolder, PrintStream console) {
        this.file = dataFolder.resolve(FILE);
        this.console = console;
        if (Files.isRegularFile(file)) {
            try (InputStream in = Files.newInputStream(file)) {
                ports.load(in);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
            }
        }
    }

    @Override
    public synchronized int pick(String name, List<String> addresses, int companionOffset) {
        String remembered = ports.getProperty(name);
        if (remembered != null) {
            int port = Integer.parseInt(remembered.trim());
            if (Ports.claim(addresses, port, companionOffset)) {
                return port;
            }
            console.println("dsload: port " + port + " (" + name + ") is taken now; using another");
        }
        int port = Ports.freeOnAll(addresses, companionOffset);
        ports.setProperty(name, Integer.toString(port));
        save();
        return port;
    }

    private void save() {
        Path partial = file.resolveSibling(FILE + ".partial");
        try (OutputStream out = Files.newOutputStream(partial)) {
            ports.store(out, "ports of the targets served with this data folder; dsload serve uses them again when free");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + partial + ": " + e.getMessage(), e);
        }
        try {
            Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
