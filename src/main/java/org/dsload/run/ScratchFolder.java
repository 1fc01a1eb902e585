package org.dsload.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

import org.dsload.process.Folders;
import org.dsload.process.ProcessTree;

/**
 * A run's scratch folder in the machine's temporary folder: the properties and log configuration
 * JMeter reads, which may hold a password given literally by -J, readable by its owner alone and
 * deleted when the run ends. A runner killed outright (SIGKILL) cannot delete its own, so each
 * names its owner (pid and start time), and the next run deletes those whose owner is gone.
 */
final class ScratchFolder {
    static final String PREFIX = "dsload-run-";
    static final String OWNER = "owner";

    private ScratchFolder() {
    }

    /** A new scratch folder owned by this process, after deleting those of owners that are gone. */
    static Path create() throws IOException {
        sweep(Path.of(System.getProperty("java.io.tmpdir")));
        Path scratch = Files.createTempDirectory(PREFIX);
        Files.writeString(scratch.resolve(OWNER), ProcessTree.owner(ProcessHandle.current().pid()), StandardCharsets.UTF_8);
        return scratch;
    }

    /** Deletes the scratch folders in {@code tmp} whose owner has ended; folders with no owner named are left. */
    static int sweep(Path tmp) {
        int deleted = 0;
        try (DirectoryStream<Path> folders = Files.newDirectoryStream(tmp, PREFIX + "*")) {
            for (Path folder : folders) {
                if (ownerGone(folder)) {
                    try {
                        Folders.deleteTree(folder);
                        deleted++;
                    } catch (IOException notOurs) {
                        // another user's, or being deleted by its own runner: left alone
                    }
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            // a temporary folder that cannot be listed: nothing to sweep
        }
        return deleted;
    }

    /** Whether the folder names an owner ({@link ProcessTree#owner}) that no longer runs: a PID reused since counts as gone. */
    private static boolean ownerGone(Path folder) {
        try {
            return ProcessTree.Owner.parse(Files.readString(folder.resolve(OWNER), StandardCharsets.UTF_8))
                    .map(owner -> !owner.runs()).orElse(false);
        } catch (IOException noOwner) {
            return false;
        }
    }
}
