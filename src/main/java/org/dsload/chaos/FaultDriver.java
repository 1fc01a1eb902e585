package org.dsload.chaos;

/**
 * Applies faults of some kinds and undoes them. A revert works from the {@link FaultRecord}
 * alone, so that it can run in another process after the one that applied the fault died.
 */
public interface FaultDriver {

    /** The name plans and records use: proxy, process, command. */
    String name();

    boolean supports(FaultKind kind);

    /**
     * Applies the fault and returns once it is in force (a killed process is gone, a hog is
     * running ...).
     *
     * @return the record to keep until the revert, with a message in {@link Applied#message()}
     * @throws Exception with a message a person can act on; nothing is left applied then
     */
    Applied apply(FaultSpec spec) throws Exception;

    /**
     * Undoes a fault and returns once it is gone (a restarted node accepts connections again ...).
     *
     * @return what was done
     */
    String revert(FaultRecord record) throws Exception;

    /** An applied fault: its record, and what was done, for the sample's message. */
    record Applied(FaultRecord record, String message) {
    }
}
