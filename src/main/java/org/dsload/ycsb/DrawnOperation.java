package org.dsload.ycsb;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.random.RandomGenerator;

import org.dsload.core.Errors;
import org.dsload.core.Outcome;

/**
 * One operation drawn from a workload, ready to be sent: what it is, its key, fields, values and
 * scan length, drawn in YCSB's order from the thread's generator. Sent through a binding that
 * waits ({@link #call}) or one that does not ({@link #send}); the same draws either way.
 *
 * @param op          the operation; {@code null} for a load-phase insert
 * @param readField   the field a read or scan returns, -1 for all
 * @param writeField  the field an update writes, -1 for all
 * @param values      what an update or insert writes
 * @param scanLength  records a scan asks for
 * @param record      the record number of an insert, to acknowledge once it ended; -1 for other operations
 * @param attempt     1, or which attempt of a load-phase insert tried again after it failed ({@link #retried})
 */
public record DrawnOperation(Operation op, String key, int readField, int writeField, String[] values, int scanLength,
        long record, int attempt) {

    /** The next run-phase operation; an insert takes a record number to acknowledge when it ends. */
    static DrawnOperation draw(Workload w, RandomGenerator random) {
        Operation op = w.nextOperation(random);
        return switch (op) {
            case READ -> {
                String key = w.key(w.nextRecord(random));
                yield new DrawnOperation(op, key, readField(w, random), -1, null, 0, -1, 1);
            }
            case UPDATE -> {
                String key = w.key(w.nextRecord(random));
                int field = writeField(w, random);
                yield new DrawnOperation(op, key, -1, field, values(w, field < 0 ? w.spec().fieldCount() : 1, random), 0,
                        -1, 1);
            }
            case INSERT -> {
                long record = w.nextInsertRecord();
                yield new DrawnOperation(op, w.key(record), -1, -1, values(w, w.spec().fieldCount(), random), 0, record, 1);
            }
            case SCAN -> {
                String key = w.key(w.nextRecord(random));
                int length = w.nextScanLength(random);
                yield new DrawnOperation(op, key, readField(w, random), -1, null, length, -1, 1);
            }
            case READ_MODIFY_WRITE -> {
                String key = w.key(w.nextRecord(random));
                int read = readField(w, random);
                int write = writeField(w, random);
                yield new DrawnOperation(op, key, read, write, values(w, write < 0 ? w.spec().fieldCount() : 1, random),
                        0, -1, 1);
            }
        };
    }

    /** The load phase's insert of {@code record}. */
    static DrawnOperation load(Workload w, long record, RandomGenerator random) {
        return new DrawnOperation(null, w.key(record), -1, -1, values(w, w.spec().fieldCount(), random), 0, -1, 1);
    }

    /** The same insert (key and values), to be tried again after this attempt failed. */
    DrawnOperation retried() {
        return new DrawnOperation(op, key, readField, writeField, values, scanLength, record, attempt + 1);
    }

    private static int readField(Workload w, RandomGenerator random) {
        return w.spec().readAllFields() ? -1 : w.nextField(random);
    }

    private static int writeField(Workload w, RandomGenerator random) {
        return w.spec().writeAllFields() ? -1 : w.nextField(random);
    }

    private static String[] values(Workload w, int count, RandomGenerator random) {
        String[] values = new String[count];
        for (int i = 0; i < count; i++) {
            values[i] = w.nextValue(random);
        }
        return values;
    }

    /** The sample label: the operation's name, or {@value PhaseRunner#LOAD}. */
    public String label() {
        return op == null ? PhaseRunner.LOAD : op.label();
    }

    /** The request as the sample data shows it. */
    public String describe() {
        if (op == null) {
            return "INSERT " + key + (attempt > 1 ? " (attempt " + attempt + ")" : "");
        }
        return switch (op) {
            case READ -> "READ " + key + fieldName(readField);
            case UPDATE -> "UPDATE " + key + fieldName(writeField);
            case INSERT -> "INSERT " + key;
            case SCAN -> "SCAN " + key + " " + scanLength + fieldName(readField);
            case READ_MODIFY_WRITE -> "READ-MODIFY-WRITE " + key;
        };
    }

    private static String fieldName(int field) {
        return field < 0 ? "" : " field" + field;
    }

    /** Runs the operation on the calling thread; a defect in the binding becomes a failed outcome. */
    Outcome call(YcsbBinding binding) {
        try {
            if (op == null || op == Operation.INSERT) {
                return binding.insert(key, values);
            }
            return switch (op) {
                case READ -> binding.read(key, readField);
                case UPDATE -> binding.update(key, writeField, values);
                case SCAN -> binding.scan(key, scanLength, readField);
                default -> readModifyWrite(binding.read(key, readField), () -> binding.update(key, writeField, values));
            };
        } catch (RuntimeException e) {
            return defect(e);
        }
    }

    /** Sends the operation without waiting; the stage completes with its outcome, never exceptionally. */
    CompletionStage<Outcome> send(AsyncYcsbBinding binding) {
        CompletionStage<Outcome> sent;
        try {
            if (op == null || op == Operation.INSERT) {
                sent = binding.insertAsync(key, values);
            } else {
                sent = switch (op) {
                    case READ -> binding.readAsync(key, readField);
                    case UPDATE -> binding.updateAsync(key, writeField, values);
                    case SCAN -> binding.scanAsync(key, scanLength, readField);
                    default -> binding.readAsync(key, readField).thenCompose(read -> read.success()
                            ? binding.updateAsync(key, writeField, values).thenApply(write -> readModifyWrite(read,
                                    () -> write))
                            : CompletableFuture.completedFuture(readModifyWrite(read, null)));
                };
            }
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(defect(e));
        }
        return sent.exceptionally(DrawnOperation::defect);
    }

    /** The read and the update of one key as one outcome, as YCSB measures READ-MODIFY-WRITE; no update after a failed read. */
    private static Outcome readModifyWrite(Outcome read, java.util.function.Supplier<Outcome> update) {
        if (!read.success()) {
            return new Outcome(false, read.code(), "read: " + read.message(), read.sentBytes(), read.receivedBytes());
        }
        Outcome write = update.get();
        long sent = read.sentBytes() + write.sentBytes();
        long received = read.receivedBytes() + write.receivedBytes();
        return write.success() ? Outcome.ok(write.code(), "read " + read.message() + ", updated", sent, received)
                : Outcome.failed(write.code(), "write: " + write.message(), sent, received);
    }

    /** A binding answers with outcomes; this keeps a defect in one from escaping the sampler. */
    private static Outcome defect(Throwable e) {
        Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
        return Outcome.failed(cause.getClass().getSimpleName(), Errors.describe(cause), 0, 0);
    }
}
