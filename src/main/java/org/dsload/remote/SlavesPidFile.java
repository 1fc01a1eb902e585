package org.dsload.remote;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The slaves {@code dsload slaves start} left running, so a later {@code dsload slaves stop} (another
 * process) stops exactly those by PID. Each line records the process's start time too: a PID the
 * system has since given to another process is left alone.
 */
public final class SlavesPidFile {
    /** The file's name in the remote folder (beside the RMI keystore the slaves use). */
    public static final String FILE = "slaves.pid";

    private SlavesPidFile() {
    }

    /** The slaves of the file in {@code remoteDir} that still run. */
    public static List<Entry> running(Path remoteDir) throws IOException {
        return read(remoteDir.resolve(FILE)).stream().filter(e -> e.process().isPresent()).toList();
    }

    /** One slave of the file; {@code process} is empty when it is no longer running. */
    public record Entry(long pid, SlaveAddress address, Instant started, Path log, Path console) {
        public Optional<ProcessHandle> process() {
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                    .filter(h -> h.info().startInstant().map(i -> Math.abs(i.toEpochMilli() - started.toEpochMilli()) < 2000)
                            .orElse(true));
        }
    }

    public static void write(Path file, List<SlaveProcess> slaves) throws IOException {
        StringBuilder text = new StringBuilder("# pid\taddress\tstarted\tlog\tconsole (dsload slaves stop reads this)\n");
        for (SlaveProcess s : slaves) {
            Instant started = s.handle().info().startInstant().orElse(Instant.EPOCH);
            text.append(s.pid()).append('\t').append(s.address()).append('\t').append(started).append('\t')
                    .append(s.log()).append('\t').append(s.console()).append('\n');
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    public static List<Entry> read(Path file) throws IOException {
        List<Entry> entries = new ArrayList<>();
        if (!Files.isRegularFile(file)) {
            return entries;
        }
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t");
            if (f.length < 5) {
                throw new IOException(file + ": cannot read the line '" + line + "'");
            }
            entries.add(new Entry(Long.parseLong(f[0]), SlaveAddress.parse(f[1]), Instant.parse(f[2]), Path.of(f[3]),
                    Path.of(f[4])));
        }
        return entries;
    }
}
