package org.dsload.ycsb;

import java.util.random.RandomGenerator;

/** Picks the number of the record a run-phase operation works on (YCSB's request distribution). */
public interface KeyChooser {
    /** The next record number; the random generator is the calling thread's own. */
    long next(RandomGenerator random);
}
