package org.dsload.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The nodes of a schedule as written in its Targets field, and what a fault asks of them. */
class TargetTest {
    @TempDir
    Path dir;

    @Test
    void valuesMayBeQuotedAndPairsSeparatedBySpacesOrCommas() {
        assertEquals(Map.of("host", "10.0.0.3", "port", "9042", "start", "systemctl start cassandra", "log", ""),
                Target.keyValues(" host=10.0.0.3,port=9042  start=\"systemctl start cassandra\" log="));
        assertEquals(Map.of("url", "http://a/b?c=d"), Target.keyValues("url=http://a/b?c=d"), "the first = splits");
        assertEquals("unclosed quote in 'start=\"systemctl start'",
                assertThrows(IllegalArgumentException.class, () -> Target.keyValues("start=\"systemctl start"))
                        .getMessage());
        assertEquals("expected key=value, got '=9042'",
                assertThrows(IllegalArgumentException.class, () -> Target.keyValues("=9042")).getMessage());
    }

    @Test
    void aLineWithoutANameIsRefusedWithTheLine() {
        assertEquals("a target line is 'name: key=value ...', got 'host=10.0.0.3: port=1'",
                assertThrows(IllegalArgumentException.class, () -> Target.parseAll("host=10.0.0.3: port=1"))
                        .getMessage());
        assertEquals(0, Target.parseAll(null).size());
    }

    @Test
    void theProcessIdIsGivenOrReadFromItsFileAsItIsNow() throws Exception {
        assertEquals(42, new Target("a", Map.of("pid", " 42 ")).pid());
        Path pidfile = Files.writeString(dir.resolve("node.pid"), "4242\n");
        Target fromFile = new Target("b", Map.of("pidfile", pidfile.toString()));
        assertEquals(4242, fromFile.pid());
        Files.writeString(pidfile, "4343\n");
        assertEquals(4343, fromFile.pid(), "a restart writes a new pid");
        Files.writeString(pidfile, "starting");
        IllegalArgumentException unreadable = assertThrows(IllegalArgumentException.class, fromFile::pid);
        assertTrue(unreadable.getMessage().startsWith("target 'b': cannot read a process id from " + pidfile),
                unreadable.getMessage());
        assertEquals("target 'c' has no pidfile=...: process faults need pid=... or pidfile=...",
                assertThrows(IllegalArgumentException.class, () -> new Target("c", Map.of()).pid()).getMessage());
    }

    @Test
    void aBlankAttributeCountsAsMissing() {
        Target t = new Target("n", Map.of("prefix", " "));
        assertEquals("ssh {host}", t.get("prefix", "ssh {host}"));
        assertEquals("target 'n' has no start=...: a restart needs the command that starts the node",
                assertThrows(IllegalArgumentException.class,
                        () -> t.require("start", "a restart needs the command that starts the node")).getMessage());
    }
}
