package org.dsload.plans;

import java.time.Duration;

import org.dsload.targets.EmbeddedRedis;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.commands.ProtocolCommand;

/**
 * Stalls a real redis-server once a load is running on it: waits until the server has answered
 * {@code warmupCommands} commands, then {@code lead} more time, then blocks it with
 * {@code DEBUG SLEEP} for {@code stall}. Runs beside a plan run, in a thread of its own.
 */
final class RedisStall implements AutoCloseable {
    private static final ProtocolCommand DEBUG = () -> "DEBUG".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private final Thread thread;
    private volatile String problem;
    private volatile boolean stalled;

    RedisStall(EmbeddedRedis redis, long warmupCommands, Duration lead, Duration stall) {
        thread = new Thread(() -> {
            try (Jedis jedis = new Jedis(redis.host(), redis.port(), (int) stall.toMillis() + 5000)) {
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                long base = processed(jedis);
                while (processed(jedis) < base + warmupCommands) {
                    if (System.nanoTime() > deadline) {
                        problem = "the load never reached " + warmupCommands + " commands";
                        return;
                    }
                    Thread.sleep(50);
                }
                Thread.sleep(lead.toMillis());
                jedis.sendCommand(DEBUG, "SLEEP", Double.toString(stall.toMillis() / 1000.0));
                stalled = true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                problem = e.toString();
            }
        }, "redis-stall");
        thread.setDaemon(true);
        thread.start();
    }

    private static long processed(Jedis jedis) {
        for (String line : jedis.info("stats").split("\r\n")) {
            if (line.startsWith("total_commands_processed:")) {
                return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        throw new IllegalStateException("no total_commands_processed in INFO stats");
    }

    /** Waits for the stall to have happened; fails with what went wrong otherwise. */
    void verify() throws InterruptedException {
        thread.join(30_000);
        if (!stalled) {
            throw new AssertionError("the server was not stalled: " + (problem == null ? "still waiting" : problem));
        }
    }

    @Override
    public void close() {
        thread.interrupt();
    }
}
