package org.dsload.ycsb;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import java.util.random.RandomGenerator;

import org.dsload.core.Payloads;

/**
 * A workload's shared state during a test: the load phase's next record, the run phase's insert
 * counter and operation count, and the choosers. Thread-safe; every random draw uses the calling
 * thread's own generator, so a thread's sequence of operations and keys follows from the seed.
 */
public final class Workload implements AutoCloseable {
    /** Attempts to draw a record that exists before falling back to a uniform pick among those that do. */
    private static final int DRAWS = 1000;

    private final WorkloadSpec spec;
    private final OperationMix mix;
    private final AtomicLong loadNext;
    private final long loadEnd;
    private final AcknowledgedCounter inserts;
    private final KeyChooser keys;
    private final AtomicLong operations = new AtomicLong();
    private final Zipfian fieldLengths;
    private final Zipfian scanLengths;

    public Workload(WorkloadSpec spec) {
        this.spec = spec;
        this.mix = new OperationMix(spec.proportions());
        this.loadNext = new AtomicLong(spec.insertStart());
        this.loadEnd = spec.insertStart() + spec.insertCount();
        this.inserts = new AcknowledgedCounter(spec.recordCount());
        long first = spec.insertStart();
        long last = spec.insertStart() + spec.insertCount() - 1;
        this.keys = switch (spec.requestDistribution()) {
            case "uniform" -> KeyChoosers.uniform(first, last);
            case "zipfian" -> {
                // Room for the records a run inserts, so that they do not shift which keys are popular.
                long expectedInserts = (long) (spec.operationCount() * spec.proportion(Operation.INSERT) * 2.0);
                yield KeyChoosers.scrambledZipfian(first, last + expectedInserts);
            }
            case "latest" -> KeyChoosers.latest(inserts);
            case "hotspot" -> KeyChoosers.hotspot(first, last, spec.hotspotDataFraction(), spec.hotspotOpnFraction());
            case "sequential" -> KeyChoosers.sequential(first, last);
            default -> throw new IllegalArgumentException("requestDistribution:unknown distribution '"
                    + spec.requestDistribution() + "'");
        };
        this.fieldLengths = spec.fieldLengthDistribution().equals("zipfian")
                ? new Zipfian(spec.minFieldLength(), spec.fieldLength()) : null;
        this.scanLengths = spec.scanLengthDistribution().equals("zipfian")
                ? new Zipfian(spec.minScanLength(), spec.maxScanLength()) : null;
    }

    public WorkloadSpec spec() {
        return spec;
    }

    public OperationMix mix() {
        return mix;
    }

    /** The next record for the load phase to insert, or -1 when all are in. */
    public long nextLoadRecord() {
        long n = loadNext.getAndIncrement();
        return n < loadEnd ? n : -1;
    }

    /** Claims one run-phase operation; false once the operation count is reached (never without one). */
    public boolean claimOperation() {
        return spec.operationCount() == 0 || operations.incrementAndGet() <= spec.operationCount();
    }

    public Operation nextOperation(RandomGenerator random) {
        return mix.next(random);
    }

    /** A record for a read, update, scan or read-modify-write: one that has been written. */
    public long nextRecord(RandomGenerator random) {
        long newest = inserts.lastValue();
        for (int i = 0; i < DRAWS; i++) {
            long n = keys.next(random);
            if (n <= newest) {
                return n;
            }
        }
        return spec.insertStart() + random.nextLong(Math.max(1, newest - spec.insertStart() + 1));
    }

    /** A record number for a run-phase insert; acknowledge it when the insert is done or failed. */
    public long nextInsertRecord() {
        return inserts.next();
    }

    public void acknowledgeInsert(long record) {
        inserts.acknowledge(record);
    }

    public String key(long record) {
        String number = Long.toString(spec.orderedInserts() ? record : Fnv.hash64(record));
        StringBuilder key = new StringBuilder("user");
        for (int i = number.length(); i < spec.zeroPadding(); i++) {
            key.append('0');
        }
        return key.append(number).toString();
    }

    /** The field a single-field read or update works on. */
    public int nextField(RandomGenerator random) {
        return random.nextInt(spec.fieldCount());
    }

    public int nextScanLength(RandomGenerator random) {
        if (scanLengths != null) {
            return (int) scanLengths.next(random);
        }
        return spec.minScanLength() + random.nextInt(spec.maxScanLength() - spec.minScanLength() + 1);
    }

    /** A field value: random printable characters of the configured length. */
    public String nextValue(RandomGenerator random) {
        int length = switch (spec.fieldLengthDistribution()) {
            case "uniform" -> spec.minFieldLength() + random.nextInt(spec.fieldLength() - spec.minFieldLength() + 1);
            case "zipfian" -> (int) fieldLengths.next(random);
            default -> spec.fieldLength();
        };
        return new String(Payloads.of(length, random), StandardCharsets.US_ASCII);
    }

    @Override
    public void close() {
        // nothing held outside the heap
    }
}
