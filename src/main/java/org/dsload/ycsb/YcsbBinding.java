package org.dsload.ycsb;

import org.dsload.core.Outcome;

/**
 * A data store as the YCSB workload drives it, after YCSB's {@code DB}: one call per operation,
 * each answering with the request's {@link Outcome} (never an exception), whose time the caller
 * measures. Records are a key and the fields field0 ... fieldN-1 of text values.
 *
 * <p>A binding is used by one thread at a time (each sampler clone has its own); the client it
 * wraps is the shared one of its connection element.
 */
public interface YcsbBinding {
    /** Response code of a read that found no record, as YCSB counts it. */
    String NOT_FOUND = "NOT_FOUND";
    /** Response code of an operation the store answered without error. */
    String OK = "OK";

    /**
     * What the load phase's first sample does before any record is written (create a missing
     * table), while the other load threads wait; null when this store needs nothing.
     */
    default SetUp setUp() {
        return null;
    }

    /** A set-up step: what it will do, for the sample's request data, and the doing. */
    interface SetUp {
        String describe();

        Outcome run();
    }

    /** @param field the field to read, or -1 for every field; NOT_FOUND when the record is missing */
    Outcome read(String key, int field);

    /** Up to {@code count} records from {@code startKey} on, in the store's order. */
    Outcome scan(String startKey, int count, int field);

    /** @param values one value for {@code field}, or one per field when it is -1 */
    Outcome update(String key, int field, String[] values);

    /** @param values one per field */
    Outcome insert(String key, String[] values);

    Outcome delete(String key);

    /** Whether a failed outcome of this store would fail again however often it is retried. */
    boolean unrecoverable(Outcome failed);

    /**
     * Whether a failed outcome says the client could reach no server (it failed the operation
     * without sending it): the thread then waits out a back-off before the next, so that a store
     * that is down is not asked at machine speed.
     */
    boolean unreachable(Outcome failed);

    /** The sample of a read that found nothing; the key is in the request data. */
    static Outcome notFound(long sent, long received) {
        return Outcome.failed(NOT_FOUND, "no such record: the load phase did not insert it, or failed to", sent,
                received);
    }
}
