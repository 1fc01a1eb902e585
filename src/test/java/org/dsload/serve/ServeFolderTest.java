package org.dsload.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.dsload.process.Folders;
import org.dsload.process.Ports;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A serve's folder: kept or fresh, never shared with a running serve, its ports remembered for the next run. */
class ServeFolderTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream console = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(console, true, StandardCharsets.UTF_8);

    @Test
    void aDataFolderInUseIsRefusedUntilItsServeEnds() {
        Path data = dir.resolve("kept");
        ServeFolder first = ServeFolder.open(data, out);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ServeFolder.open(data, out));
        assertTrue(e.getMessage().startsWith("the data folder " + data + " is in use by another dsload serve (pid "
                + ProcessHandle.current().pid() + ")"), e.getMessage());
        first.close(true);
        assertTrue(Files.isDirectory(data), "a given folder is kept");
        ServeFolder.open(data, out).close(true);
    }

    @Test
    void aFreshFolderIsDeletedAfterACleanEndAndKeptAfterAFailure() throws Exception {
        ServeFolder clean = ServeFolder.open(null, out);
        assertFalse(clean.kept());
        assertTrue(clean.placement("redis").root().startsWith(clean.dir()));
        clean.close(true);
        assertFalse(Files.exists(clean.dir()));
        ServeFolder failed = ServeFolder.open(null, out);
        failed.close(false);
        assertTrue(Files.isDirectory(failed.dir()), "its logs say why");
        Folders.deleteTree(failed.dir());
    }

    @Test
    void aRememberedPortIsUsedAgainWhenFreeAndSkippedSayingSoWhenTaken() throws Exception {
        // free and reserved by no process: a port an earlier test of this JVM reserved is not
        int free = Ports.free();
        Ports.release(free);
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            Files.writeString(dir.resolve(RememberedPorts.FILE), "redis=" + free + "\nkairosdb.http=" + taken.getLocalPort()
                    + "\n");
            RememberedPorts ports = new RememberedPorts(dir, out);
            assertEquals(free, ports.pick("redis", "127.0.0.1"));
            int other = ports.pick("kairosdb.http", "127.0.0.1");
            assertNotEquals(taken.getLocalPort(), other);
            assertTrue(console.toString(StandardCharsets.UTF_8).contains("port " + taken.getLocalPort()
                    + " (kairosdb.http) is taken now; using another"), console.toString(StandardCharsets.UTF_8));
            int fresh = ports.pick("zookeeper.1.client", List.of("127.0.0.1"), 0);
            String file = Files.readString(dir.resolve(RememberedPorts.FILE), StandardCharsets.UTF_8);
            assertTrue(file.contains("kairosdb.http=" + other) && file.contains("zookeeper.1.client=" + fresh)
                    && file.contains("redis=" + free), file);
        }
    }
}
