package org.dsload.cli;

import org.dsload.run.Ending;

/**
 * The exit codes of every dsload command, in one place (docs/cli.md lists them too). Scripts and
 * CI steps branch on them, so a code keeps its meaning once published.
 */
public final class ExitCodes {
    /** The command did what was asked: the run finished with results, the check passed. */
    public static final int OK = 0;
    /**
     * The command ran but failed: a limit not kept, a label of {@code compare} that regressed beyond the
     * noise, a run that failed (a slave's recordings that could not be fetched after it among the
     * reasons: a result of the run is lost), a file that cannot be read.
     */
    public static final int FAILED = 1;
    /**
     * The command line itself is wrong: an unknown option, a missing or malformed value; or what it names
     * cannot be judged: for {@code compare} a run without results or runs without a label in common, for
     * {@code check} such a baseline.
     */
    public static final int USAGE = 2;
    /**
     * {@code run}: the run was refused at its start, so the load did not run as planned: an element
     * refused its configuration (the test stopped at a sample with response code CONFIG) or the
     * test, slaves could not be reached (fewer than {@code --min-slaves}), a metrics port in use, a
     * setting the summary cannot work with.
     */
    public static final int REFUSED_AT_START = 7;
    /** {@code run}: the run ended without a single successful sample. */
    public static final int NO_SUCCESSFUL_SAMPLE = 4;
    /**
     * {@code run}: the store failed during the run, which did not expect it: it stopped answering for
     * a while (or the test stopped early as nothing succeeded), or most requests failed.
     */
    public static final int STORE_FAILED = 5;
    /**
     * {@code run}: the load was not the plan's: scheduled arrivals went unsent, a slave was lost or stalled, or
     * answered nothing for a while (its link cut) and came back.
     */
    public static final int LOAD_INCOMPLETE = 6;
    /** {@code run}, {@code find-max}: a stop condition ({@code --stop-when}) was broken, so the run was ended early. */
    public static final int LIMITS_BROKEN = 3;
    /** Stopped by an interrupt (Ctrl-C), as shells report it: 128 + SIGINT. */
    public static final int INTERRUPTED = 130;
    /** Stopped by SIGTERM, as shells report it: 128 + SIGTERM. */
    public static final int TERMINATED = 143;

    /** Help-footer lines shared by every command; each command adds what 1 means for it. */
    static final String HEADING = "%nExit codes:%n";
    static final String OK_LINE = "  0:done";
    static final String USAGE_LINE = "  2:usage error: unknown option, missing or malformed value";
    static final String INTERRUPTED_LINE = "130:interrupted (Ctrl-C); 143 after SIGTERM";
    static final String REFUSED_LINE = "  7:the run was refused at its start: a configuration or the test refused, slaves"
            + " unreachable (fewer than --min-slaves)";
    static final String NO_SUCCESS_LINE = "  4:the run ended without a single successful sample";
    static final String STORE_FAILED_LINE = "  5:the store stopped answering or failed most requests during the run, which"
            + " did not expect it (--expect-faults)";
    static final String LOAD_INCOMPLETE_LINE = "  6:not the planned load: scheduled arrivals went unsent, a slave was lost or"
            + " stalled";

    static final String LIMITS_BROKEN_LINE = "  3:a --stop-when condition was broken, so the run was ended early";

    private ExitCodes() {
    }

    /** The code of a run that ended so; {@code signalCode} is the code of the signal that interrupted it, if one did. */
    static int of(Ending ending, int signalCode) {
        return switch (ending) {
            case OK -> OK;
            case FAILED -> FAILED;
            case REFUSED -> REFUSED_AT_START;
            case NO_SUCCESS -> NO_SUCCESSFUL_SAMPLE;
            case STORE_FAILED -> STORE_FAILED;
            case LOAD_INCOMPLETE -> LOAD_INCOMPLETE;
            case LIMITS_BROKEN -> LIMITS_BROKEN;
            case INTERRUPTED -> signalCode > 0 ? signalCode : INTERRUPTED;
        };
    }
}
