package org.dsload.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.NoSuchElementException;

import org.junit.jupiter.api.Test;

import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;

class RedisErrorsTest {

    @Test
    void errorRepliesAreCodedByTheServersErrorClass() {
        assertEquals("WRONGTYPE", RedisErrors.code(new JedisDataException(
                "WRONGTYPE Operation against a key holding the wrong kind of value")));
        assertEquals("ERR", RedisErrors.code(new JedisDataException("ERR unknown command 'FOO'")));
        assertEquals("NOSCRIPT", RedisErrors.code(new JedisDataException("NOSCRIPT No matching script.")));
    }

    @Test
    void errorRepliesWithoutAClassWordKeepTheExceptionName() {
        assertEquals("JedisDataException", RedisErrors.code(new JedisDataException("value is not an integer")));
    }

    @Test
    void exhaustedPoolHasItsOwnCode() {
        assertEquals("POOL_EXHAUSTED", RedisErrors.code(new JedisException("Could not get a resource from the pool",
                new NoSuchElementException("Pool exhausted"))));
    }

    @Test
    void transportFailuresAreCodedByJedisClass() {
        assertEquals("JedisConnectionException", RedisErrors.code(new JedisConnectionException("Unexpected end of stream.")));
    }
}
