package org.dsload.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.dsload.chaos.proxy.FaultProxy;
import org.dsload.chaos.proxy.ProxyControl;
import org.dsload.process.Ports;
import org.dsload.targets.EmbeddedRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisConnectionException;

/** Network faults of the fault proxy, driven by the proxy driver, on a real redis-server behind it. */
@Timeout(120)
class FaultProxyIT {
    private static EmbeddedRedis redis;
    private static FaultProxy proxy;
    private static int listen;
    private static final ProxyDriver DRIVER = new ProxyDriver();
    private static final Target NODE = new Target("redis", Map.of());

    @BeforeAll
    static void start() throws Exception {
        redis = EmbeddedRedis.start();
        listen = Ports.free();
        proxy = FaultProxy.start(List.of(new FaultProxy.RouteSpec("redis", new InetSocketAddress("127.0.0.1", listen),
                new InetSocketAddress(redis.host(), redis.port()))), new InetSocketAddress("127.0.0.1", 0));
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    /** A test that failed half way must not leave its fault to the next one. */
    @AfterEach
    void clear() throws Exception {
        ProxyControl.send(proxy.controlAddress(), "REVERT redis all");
    }

    private static Jedis client(int timeoutMillis) {
        return new Jedis("127.0.0.1", listen, timeoutMillis);
    }

    private static FaultDriver.Applied apply(FaultKind kind, Map<String, String> params) throws Exception {
        return DRIVER.apply(Faults.spec(kind, NODE, params, Faults.proxySettings(proxy.controlAddress())));
    }

    @Test
    void delayRaisesTheMedianByAboutTheDelayAndTheRevertTakesItAway() throws Exception {
        try (Jedis jedis = client(5000)) {
            long before = Faults.medianPingMicros(jedis, 30);
            FaultDriver.Applied applied = apply(FaultKind.DELAY, Map.of("delay", "60ms"));
            long during = Faults.medianPingMicros(jedis, 15);
            DRIVER.revert(applied.record());
            long after = Faults.medianPingMicros(jedis, 30);
            // the proxy forwards a chunk no sooner than the delay after it came, so every delayed PING takes the
            // delay at least: that is the floor, not the median before plus the delay, as the median before can
            // be some milliseconds on a machine other test JVMs keep busy (once 50,398 µs added: 9.6 ms before, or more)
            assertTrue(during >= 60_000 && during - before <= 60_000 + 40_000, "a 60 ms delay: the median went from "
                    + before + " to " + during + " µs");
            assertTrue(after < before + 10_000, "after the revert the median is back: " + before + " -> " + after + " µs");
        }
    }

    @Test
    void freezeHoldsRequestsUntilTheClientTimesOutAndTheRevertReleasesTheConnection() throws Exception {
        try (Jedis jedis = client(800)) {
            assertEquals("PONG", jedis.ping());
            FaultDriver.Applied applied = apply(FaultKind.FREEZE, Map.of());
            long t = System.nanoTime();
            assertThrows(JedisConnectionException.class, jedis::ping, "a frozen route answers nothing");
            long waited = (System.nanoTime() - t) / 1_000_000;
            assertTrue(waited >= 700, "the request waited for the client's timeout, " + waited + " ms");
            DRIVER.revert(applied.record());
        }
        try (Jedis fresh = client(2000)) {
            assertEquals("PONG", fresh.ping());
        }
    }

    @Test
    void lossOfAllConnectionsTimesRequestsOutAndTheRevertLetsNewConnectionsThrough() throws Exception {
        FaultDriver.Applied applied = apply(FaultKind.LOSS, Map.of("loss", "100%"));
        assertThrows(JedisConnectionException.class, () -> {
            try (Jedis jedis = client(800)) {
                jedis.ping();
            }
        }, "every byte is dropped");
        DRIVER.revert(applied.record());
        try (Jedis jedis = client(2000)) {
            assertEquals("PONG", jedis.ping());
        }
        assertTrue(ProxyControl.send(proxy.controlAddress(), "STATE").contains("redis none"));
    }

    @Test
    void resetCutsOpenConnectionsAndRefusesNewOnesUntilReverted() throws Exception {
        Jedis open = client(2000);
        assertEquals("PONG", open.ping());
        FaultDriver.Applied applied = apply(FaultKind.RESET, Map.of());
        assertThrows(JedisConnectionException.class, open::ping, "the open connection was reset");
        assertThrows(JedisConnectionException.class, () -> client(2000).ping(), "a new connection is reset too");
        DRIVER.revert(applied.record());
        try {
            open.close();
        } catch (JedisConnectionException expected) {
            // its socket was reset: closing it cannot say goodbye
        }
        try (Jedis fresh = client(2000)) {
            assertEquals("PONG", fresh.ping());
        }
    }

    @Test
    void bandwidthLimitSlowsALargeReplyToTheRateAndTheRevertLiftsIt() throws Exception {
        byte[] value = new byte[256 * 1024];
        try (Jedis jedis = client(20_000)) {
            jedis.set("big".getBytes(), value);
            FaultDriver.Applied applied = apply(FaultKind.BANDWIDTH, Map.of("rate", "1mbit"));
            long t = System.nanoTime();
            assertEquals(value.length, jedis.get("big".getBytes()).length);
            long limited = (System.nanoTime() - t) / 1_000_000;
            DRIVER.revert(applied.record());
            t = System.nanoTime();
            jedis.get("big".getBytes());
            long free = (System.nanoTime() - t) / 1_000_000;
            // 256 KiB at 1 Mbit/s is 2.1 s
            assertTrue(limited >= 1500, "256 KiB at 1 mbit took " + limited + " ms");
            assertTrue(free < limited / 4, "after the revert it took " + free + " ms");
        }
    }

    @Test
    void closedProxyFreesItsPorts() throws Exception {
        int port = Ports.free();
        FaultProxy other = FaultProxy.start(List.of(new FaultProxy.RouteSpec("x", new InetSocketAddress("127.0.0.1", port),
                new InetSocketAddress(redis.host(), redis.port()))), new InetSocketAddress("127.0.0.1", 0));
        String control = other.controlAddress();
        assertTrue(Ports.open("127.0.0.1", port));
        other.close();
        // a listening socket goes once its accepting thread has woken up: allow each a moment
        assertTrue(Ports.awaitClosed("127.0.0.1", port, Duration.ofSeconds(3)), "the route's port is closed");
        int controlPort = Integer.parseInt(control.substring(control.lastIndexOf(':') + 1));
        assertTrue(Ports.awaitClosed("127.0.0.1", controlPort, Duration.ofSeconds(3)), "the control port is closed");
        assertThrows(java.io.IOException.class, () -> ProxyControl.send(control, "STATE"), "the control port is closed");
    }
}
