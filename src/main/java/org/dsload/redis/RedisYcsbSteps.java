package org.dsload.redis;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.dsload.core.Outcome;
import org.dsload.ycsb.YcsbBinding;

import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Protocol;

/**
 * One YCSB operation in YCSB's redis layout as the commands it sends, each chosen on the reply to
 * the one before, and the outcome they come to, with the bytes of all of them each way. The same
 * steps run one command after another on the calling thread ({@link RedisYcsbBinding}'s blocking
 * calls) or as a chain of callbacks with the operation in flight.
 */
abstract class RedisYcsbSteps {
    /** The sorted set of every record's key, YCSB's redis binding's index for scans. */
    static final String INDEX = "_indices";

    /** A reply, or the failure a command met (code and message), with the bytes each way. */
    record Reply(Object value, String code, String message, long sent, long received) {
        boolean ok() {
            return code == null;
        }

        /** The reply of a request in flight, from the outcome the event loop gave it. */
        static Reply of(Outcome outcome, Object value) {
            return outcome.success() ? new Reply(value, null, null, outcome.sentBytes(), outcome.receivedBytes())
                    : new Reply(null, outcome.code(), outcome.message(), outcome.sentBytes(), outcome.receivedBytes());
        }
    }

    private long sent;
    private long received;
    private Outcome outcome;

    /** The operation's first command. */
    abstract CommandArguments first();

    /** The next command on this reply, or null when the operation ended ({@link #end}). */
    protected abstract CommandArguments next(Reply reply);

    /**
     * Takes the reply to the command sent last.
     *
     * @return the next command to send, or null when {@link #outcome} is known
     */
    final CommandArguments step(Reply reply) {
        sent += reply.sent();
        received += reply.received();
        if (!reply.ok()) {
            return end(Outcome.failed(reply.code(), reply.message(), sent, received));
        }
        return next(reply);
    }

    /** What the operation came to; known once {@link #step} returned null. */
    final Outcome outcome() {
        return outcome;
    }

    protected final CommandArguments end(Outcome ended) {
        this.outcome = ended;
        return null;
    }

    protected final CommandArguments ok(String message) {
        return end(Outcome.ok(YcsbBinding.OK, message, sent, received));
    }

    protected final CommandArguments notFound() {
        return end(YcsbBinding.notFound(sent, received));
    }

    /** HGETALL of every field, or HMGET of one; {@code fieldNames} are field0 ... fieldN-1. */
    static CommandArguments readCommand(String[] fieldNames, String key, int field) {
        return field < 0 ? new CommandArguments(Protocol.Command.HGETALL).key(key)
                : new CommandArguments(Protocol.Command.HMGET).key(key).add(fieldNames[field]);
    }

    /** HMSET of every field ({@code field} -1, a value each) or of one. */
    static CommandArguments hmset(String[] fieldNames, String key, int field, String[] values) {
        CommandArguments command = new CommandArguments(Protocol.Command.HMSET).key(key);
        if (field < 0) {
            for (int i = 0; i < values.length; i++) {
                command.add(fieldNames[i]).add(values[i]);
            }
        } else {
            command.add(fieldNames[field]).add(values[0]);
        }
        return command;
    }

    /** The key's place in the index: its Java hash code, as YCSB's binding scores it. */
    static double score(String key) {
        return key.hashCode();
    }

    /** HGETALL answers an empty array for a missing key, HMGET a nil per field. */
    static boolean found(Object value) {
        if (value instanceof List<?> list) {
            return list.stream().anyMatch(v -> v != null);
        }
        return value != null;
    }

    /** One record read: NOT_FOUND when the record is missing. */
    static final class Read extends RedisYcsbSteps {
        private final CommandArguments command;

        Read(String[] fieldNames, String key, int field) {
            this.command = readCommand(fieldNames, key, field);
        }

        @Override
        CommandArguments first() {
            return command;
        }

        @Override
        protected CommandArguments next(Reply reply) {
            return found(reply.value()) ? ok("1 record") : notFound();
        }
    }

    /** One field or every field written over. */
    static final class Update extends RedisYcsbSteps {
        private final CommandArguments command;

        Update(String[] fieldNames, String key, int field, String[] values) {
            this.command = hmset(fieldNames, key, field, values);
        }

        @Override
        CommandArguments first() {
            return command;
        }

        @Override
        protected CommandArguments next(Reply reply) {
            return ok(YcsbBinding.OK);
        }
    }

    /** The record's hash, then its key in the index: both must succeed. */
    static final class Insert extends RedisYcsbSteps {
        private final String[] fieldNames;
        private final String key;
        private final String[] values;
        private boolean hashed;

        Insert(String[] fieldNames, String key, String[] values) {
            this.fieldNames = fieldNames;
            this.key = key;
            this.values = values;
        }

        @Override
        CommandArguments first() {
            return hmset(fieldNames, key, -1, values);
        }

        @Override
        protected CommandArguments next(Reply reply) {
            if (hashed) {
                return ok(YcsbBinding.OK);
            }
            hashed = true;
            return new CommandArguments(Protocol.Command.ZADD).key(INDEX).add(score(key)).add(key);
        }
    }

    /** The record's hash, then its key in the index; NOT_FOUND when neither was there. */
    static final class Delete extends RedisYcsbSteps {
        private final String key;
        private boolean hashDeleted;
        private Object deleted;

        Delete(String key) {
            this.key = key;
        }

        @Override
        CommandArguments first() {
            return new CommandArguments(Protocol.Command.DEL).key(key);
        }

        @Override
        protected CommandArguments next(Reply reply) {
            if (!hashDeleted) {
                hashDeleted = true;
                deleted = reply.value();
                return new CommandArguments(Protocol.Command.ZREM).key(INDEX).add(key);
            }
            boolean gone = Long.valueOf(0).equals(deleted) && Long.valueOf(0).equals(reply.value());
            return gone ? notFound() : ok(YcsbBinding.OK);
        }
    }

    /**
     * Up to {@code count} keys from the start key's score on (ZRANGEBYSCORE ... LIMIT 0 count),
     * then each of those records read, one after another.
     */
    static final class Scan extends RedisYcsbSteps {
        private final String[] fieldNames;
        private final String startKey;
        private final int count;
        private final int field;
        private List<?> keys;
        private int records;

        Scan(String[] fieldNames, String startKey, int count, int field) {
            this.fieldNames = fieldNames;
            this.startKey = startKey;
            this.count = count;
            this.field = field;
        }

        @Override
        CommandArguments first() {
            return new CommandArguments(Protocol.Command.ZRANGEBYSCORE).key(INDEX).add(score(startKey)).add("+inf")
                    .add(Protocol.Keyword.LIMIT).add(0).add(count);
        }

        @Override
        protected CommandArguments next(Reply reply) {
            if (keys == null) {
                keys = reply.value() instanceof List<?> list ? list : List.of();
            } else {
                records++;
            }
            if (records == keys.size()) {
                return ok(records + (records == 1 ? " record" : " records"));
            }
            Object k = keys.get(records);
            String key = k instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(k);
            return readCommand(fieldNames, key, field);
        }
    }
}
