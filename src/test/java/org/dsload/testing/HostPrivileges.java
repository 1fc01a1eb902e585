package org.dsload.testing;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Kernel faults (iptables rules, size-limited tmpfs volumes) need root and a few host packages.
 * A developer's machine may have neither: the tests that need them skip there, saying what is
 * missing, unless {@code DSLOAD_FAULT_TESTS=required} (set by .ci/run) makes the absence a failure.
 */
public final class HostPrivileges {
    public static final String REQUIRED_ENV = "DSLOAD_FAULT_TESTS";
    private static final List<String> SYSTEM_DIRS = List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin");

    private HostPrivileges() {
    }

    /** Returns when this runs as root with every command installed; otherwise skips or fails the test. */
    public static void require(String purpose, String... commands) {
        List<String> missing = new ArrayList<>();
        if (!root()) {
            missing.add("root");
        }
        for (String command : commands) {
            if (!installed(command)) {
                missing.add(command);
            }
        }
        if (missing.isEmpty()) {
            return;
        }
        Prerequisites.missing(purpose + " needs " + String.join(", ", missing), REQUIRED_ENV, "required");
    }

    private static boolean root() {
        try {
            Process p = new ProcessBuilder("id", "-u").redirectErrorStream(true)
                    .redirectInput(new File("/dev/null")).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return p.waitFor(10, TimeUnit.SECONDS) && "0".equals(out);
        } catch (Exception e) {
            return false;
        }
    }

    private static boolean installed(String command) {
        List<String> dirs = new ArrayList<>(SYSTEM_DIRS);
        String path = System.getenv("PATH");
        if (path != null) {
            dirs.addAll(List.of(path.split(File.pathSeparator)));
        }
        return dirs.stream().anyMatch(d -> !d.isEmpty() && Files.isExecutable(Path.of(d, command)));
    }
}
