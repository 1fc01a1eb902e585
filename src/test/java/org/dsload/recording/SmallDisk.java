package org.dsload.recording;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/** A size-limited tmpfs for tests of a full disk (needs root: see HostPrivileges). */
final class SmallDisk implements AutoCloseable {
    private final Path at;

    private SmallDisk(Path at) {
        this.at = at;
    }

    static SmallDisk mount(Path at, String size) throws Exception {
        run(List.of("mount", "-t", "tmpfs", "-o", "size=" + size, "dsload-full-disk", at.toString()));
        return new SmallDisk(at);
    }

    private static void run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectInput(new File("/dev/null")).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + out.strip());
        }
    }

    @Override
    public void close() throws Exception {
        run(List.of("umount", at.toString()));
    }
}
