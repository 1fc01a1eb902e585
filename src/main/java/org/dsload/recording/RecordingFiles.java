package org.dsload.recording;

import java.nio.file.Path;

/** Placeholder until the gathering service lands. */
final class RecordingFiles {
    private RecordingFiles() {
    }

    static void offer(Path root) {
        // filled in with the remote gathering service
    }
}
