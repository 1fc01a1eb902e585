package org.dsload.process;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A server whose owner is killed outright (SIGKILL, no shutdown hook) is stopped by the owner's reaper. */
class OrphansTest {

    @Test
    void theServersOfAKilledOwnerAreStopped(@TempDir Path dir) throws Exception {
        long server;
        // the owner's folder is this test's: the killed owner cannot delete one of its own
        try (ChildJvm owner = ChildJvm.start(Owner.class, dir.toString())) {
            server = Long.parseLong(owner.readLine());
            assertTrue(ProcessTree.alive(server).isPresent(), "the owner's server runs");
            owner.process().destroyForcibly();
            owner.process().waitFor();
        }
        assertTrue(Deadline.await(() -> ProcessTree.alive(server).isEmpty(), Duration.ofSeconds(30), Duration.ofMillis(100)),
                "server " + server + " outlived its killed owner");
    }

    /** Starts a server (a sleep) in the folder it is given, prints its pid, and waits to be killed. */
    public static final class Owner {
        public static void main(String[] args) throws Exception {
            Path dir = Path.of(args[0]);
            ManagedProcess sleep = ManagedProcess.start("sleep", List.of("sleep", "300"), dir, dir.resolve("sleep.log"));
            System.out.println(sleep.pid());
            System.out.flush();
            Thread.sleep(300_000);
        }
    }
}
