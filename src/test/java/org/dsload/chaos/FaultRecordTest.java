package org.dsload.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An applied fault kept on disk: all a revert needs comes back from the file alone. */
class FaultRecordTest {
    @TempDir
    Path dir;

    @Test
    void aRecordReadBackHoldsEveryFieldItWasWrittenWith() throws IOException {
        FaultRecord written = new FaultRecord("f-1", "fault:loss:node2", "loss", "node2", CommandDriver.NAME)
                .put("command.revert", "iptables -D INPUT -m comment --comment dsload-f-1 -j DROP")
                .put("command.prefix", "ssh\u001f10.0.0.2").put("ignored", null);
        Path file = dir.resolve("records/f-1.fault");
        written.write(file);

        FaultRecord read = FaultRecord.read(file);
        assertEquals(written.fields(), read.fields());
        assertEquals("f-1", read.id());
        assertEquals("fault:loss:node2", read.label());
        assertEquals(CommandDriver.NAME, read.driver());
        assertEquals("pid " + ProcessHandle.current().pid(), read.get(FaultRecord.APPLIED_BY));
        assertFalse(read.fields().containsKey("ignored"), "a field without a value is not kept");
        assertEquals(List.of("f-1.fault"), List.of(dir.resolve("records").toFile().list()), "no temporary file left");
    }

    @Test
    void aFieldARevertNeedsAndTheRecordLacksIsNamedWithTheRecord() {
        FaultRecord r = new FaultRecord("f-2", "fault:cpu:n1", "cpu", "n1", ProcessDriver.NAME);
        assertNull(r.get("hog.pid"));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> r.require("hog.pid"));
        assertEquals("fault record f-2 lacks 'hog.pid'", e.getMessage());
    }

    @Test
    void aFileThatIsNotAFaultRecordIsRefused() throws IOException {
        Path other = Files.writeString(dir.resolve("notes.fault"), "colour=blue\n");
        IOException e = assertThrows(IOException.class, () -> FaultRecord.read(other));
        assertTrue(e.getMessage().endsWith("is not a dsload fault record (no id or driver)"), e.getMessage());
    }
}
