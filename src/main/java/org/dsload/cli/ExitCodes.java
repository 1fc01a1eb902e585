package org.dsload.cli;

/**
 * The exit codes of every dsload command, in one place (docs/cli.md lists them too). Scripts and
 * CI steps branch on them, so a code keeps its meaning once published.
 */
public final class ExitCodes {
    /** The command did what was asked: the run finished with results, the check passed. */
    public static final int OK = 0;
    /** The command ran but failed: a limit not kept, a run that failed, a file that cannot be read. */
    public static final int FAILED = 1;
    /** The command line itself is wrong: an unknown option, a missing or malformed value. */
    public static final int USAGE = 2;
    /**
     * Reserved for {@code run}: the run was refused at its start (a plan that does not load, slaves
     * that cannot be reached), so no load was generated.
     */
    public static final int REFUSED_AT_START = 3;
    /** Reserved for {@code run}: the run ended without a single successful sample. */
    public static final int NO_SUCCESSFUL_SAMPLE = 4;
    /** Stopped by an interrupt (Ctrl-C), as shells report it: 128 + SIGINT. */
    public static final int INTERRUPTED = 130;

    /** Help-footer lines shared by every command; each command adds what 1 means for it. */
    static final String HEADING = "%nExit codes:%n";
    static final String OK_LINE = "  0:done";
    static final String USAGE_LINE = "  2:usage error: unknown option, missing or malformed value";
    static final String INTERRUPTED_LINE = "130:interrupted";

    private ExitCodes() {
    }
}
