package org.dsload.redis;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.dsload.core.Outcome;
import org.dsload.ycsb.YcsbBinding;

import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * YCSB on a Redis-protocol store, in the layout of YCSB's redis binding, so that data loaded by
 * either can be run by the other: each record is a hash under its key (HMSET key field0 v0 ...),
 * and a sorted set {@value #INDEX} holds every key, scored by the Java hash code of the key, for
 * scans (ZRANGEBYSCORE from the start key's score, then each record read). Commands go one after
 * another, as that binding sends them; a cluster client routes each by its key.
 */
public final class RedisYcsbBinding implements YcsbBinding {
    /** The sorted set of every record's key, YCSB's redis binding's index for scans. */
    static final String INDEX = "_indices";

    private final RedisClientHandle client;
    private final String[] fieldNames;

    public RedisYcsbBinding(RedisClientHandle client, int fieldCount) {
        this.client = client;
        this.fieldNames = new String[fieldCount];
        for (int i = 0; i < fieldCount; i++) {
            fieldNames[i] = "field" + i;
        }
    }

    public RedisClientHandle client() {
        return client;
    }

    /** A reply, or the error a command met, with the bytes each way. */
    private record Reply(Object value, RuntimeException error, long sent, long received) {
        boolean ok() {
            return error == null;
        }
    }

    private Reply send(CommandArguments command) {
        long sent = Resp.commandSize(command);
        try {
            Object value = client.execute(command);
            return new Reply(value, null, sent, Resp.replySize(value));
        } catch (RuntimeException e) {
            return new Reply(null, e, sent, e instanceof JedisDataException ? Resp.errorSize(e) : 0);
        }
    }

    private Outcome failed(Reply reply, long sent, long received) {
        return Outcome.failed(RedisErrors.code(reply.error()), RedisErrors.message(reply.error(), client), sent, received);
    }

    @Override
    public Outcome read(String key, int field) {
        Reply reply = send(readCommand(key, field));
        if (!reply.ok()) {
            return failed(reply, reply.sent(), reply.received());
        }
        if (!found(reply.value())) {
            return YcsbBinding.notFound(reply.sent(), reply.received());
        }
        return Outcome.ok(OK, "1 record", reply.sent(), reply.received());
    }

    private CommandArguments readCommand(String key, int field) {
        return field < 0 ? new CommandArguments(Protocol.Command.HGETALL).key(key)
                : new CommandArguments(Protocol.Command.HMGET).key(key).add(fieldNames[field]);
    }

    /** HGETALL answers an empty array for a missing key, HMGET a nil per field. */
    private static boolean found(Object value) {
        if (value instanceof List<?> list) {
            return list.stream().anyMatch(v -> v != null);
        }
        return value != null;
    }

    @Override
    public Outcome scan(String startKey, int count, int field) {
        Reply range = send(new CommandArguments(Protocol.Command.ZRANGEBYSCORE).key(INDEX).add(score(startKey))
                .add("+inf").add(Protocol.Keyword.LIMIT).add(0).add(count));
        if (!range.ok()) {
            return failed(range, range.sent(), range.received());
        }
        long sent = range.sent();
        long received = range.received();
        int records = 0;
        List<?> keys = range.value() instanceof List<?> list ? list : List.of();
        for (Object k : keys) {
            String key = k instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(k);
            Reply read = send(readCommand(key, field));
            sent += read.sent();
            received += read.received();
            if (!read.ok()) {
                return failed(read, sent, received);
            }
            records++;
        }
        return Outcome.ok(OK, records + (records == 1 ? " record" : " records"), sent, received);
    }

    @Override
    public Outcome update(String key, int field, String[] values) {
        Reply reply = send(hmset(key, field, values));
        return reply.ok() ? Outcome.ok(OK, OK, reply.sent(), reply.received())
                : failed(reply, reply.sent(), reply.received());
    }

    @Override
    public Outcome insert(String key, String[] values) {
        Reply hash = send(hmset(key, -1, values));
        if (!hash.ok()) {
            return failed(hash, hash.sent(), hash.received());
        }
        Reply index = send(new CommandArguments(Protocol.Command.ZADD).key(INDEX).add(score(key)).add(key));
        long sent = hash.sent() + index.sent();
        long received = hash.received() + index.received();
        return index.ok() ? Outcome.ok(OK, OK, sent, received) : failed(index, sent, received);
    }

    @Override
    public Outcome delete(String key) {
        Reply del = send(new CommandArguments(Protocol.Command.DEL).key(key));
        if (!del.ok()) {
            return failed(del, del.sent(), del.received());
        }
        Reply rem = send(new CommandArguments(Protocol.Command.ZREM).key(INDEX).add(key));
        long sent = del.sent() + rem.sent();
        long received = del.received() + rem.received();
        if (!rem.ok()) {
            return failed(rem, sent, received);
        }
        boolean gone = Long.valueOf(0).equals(del.value()) && Long.valueOf(0).equals(rem.value());
        return gone ? YcsbBinding.notFound(sent, received) : Outcome.ok(OK, OK, sent, received);
    }

    private CommandArguments hmset(String key, int field, String[] values) {
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

    @Override
    public boolean unrecoverable(Outcome failed) {
        return RedisErrors.unrecoverable(failed);
    }
}
