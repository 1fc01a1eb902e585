package org.dsload.run;

/** How a run ended, most telling first when several apply; the command line turns it into its exit code. */
public enum Ending {
    /** Stopped by a signal (Ctrl-C, SIGTERM); the summary covers what was recorded until then. */
    INTERRUPTED,
    /**
     * Refused at its start, so the load did not run as planned: slaves that cannot be reached, an
     * element that refused its configuration (a sample with response code CONFIG stopped the test),
     * or refused the test (a {@code refused} line in run-verdict).
     */
    REFUSED,
    /** Ran without a single successful sample: nothing it measured is a measurement of the server. */
    NO_SUCCESS,
    /** Ran and failed: no results, JMeter failed or ran out of time, an element found the run failed ... */
    FAILED,
    /**
     * Ran, and an engine stopped it early: a stop condition ({@code dsload.stop_when}, {@code run
     * --stop-when}) was broken.
     */
    LIMITS_BROKEN,
    /**
     * Ran, but the store stopped answering for a while (or the test gave up on it) or failed most
     * requests, and the run did not expect it: the figures are not those of a working store.
     */
    STORE_FAILED,
    /** Ran, but not the load the plan asked for: scheduled arrivals went unsent, a slave was lost or stalled. */
    LOAD_INCOMPLETE,
    /** Finished with results, and nothing found it failed. */
    OK
}
