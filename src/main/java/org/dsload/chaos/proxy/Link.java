package org.dsload.chaos.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One client connection and its upstream connection. Each direction has a reader, which stamps
 * every chunk with the time it arrived, and a writer, which forwards it once the route's delay
 * has passed since then, at the route's bandwidth, and not while the route is frozen. Stamping on
 * arrival keeps the added latency equal to the delay however many requests share the connection.
 */
final class Link {
    private static final int CHUNK = 64 * 1024;
    private static final int BANDWIDTH_CHUNK = 4 * 1024;
    /** Chunks waiting per direction; a full queue stops the reader, which pushes back on the sender. */
    private static final int QUEUE = 512;
    private static final Chunk END = new Chunk(new byte[0], 0);

    private final Route route;
    private final Socket client;
    private final Socket upstream;
    private volatile boolean blackholed;
    private volatile boolean closed;

    private record Chunk(byte[] data, long arrivedNanos) {
    }

    Link(Route route, Socket client, Socket upstream) {
        this.route = route;
        this.client = client;
        this.upstream = upstream;
    }

    void start() throws IOException {
        blackholed = route.faults().drawLoss();
        direction("up", client.getInputStream(), upstream.getOutputStream(), true);
        direction("down", upstream.getInputStream(), client.getOutputStream(), false);
    }

    private void direction(String name, InputStream in, OutputStream out, boolean up) {
        BlockingQueue<Chunk> queue = new ArrayBlockingQueue<>(QUEUE);
        String id = route.name() + "-" + client.getPort() + "-" + name;
        Thread reader = new Thread(() -> read(in, queue), "dsload-proxy-read-" + id);
        Thread writer = new Thread(() -> write(out, queue, up), "dsload-proxy-write-" + id);
        reader.setDaemon(true);
        writer.setDaemon(true);
        reader.start();
        writer.start();
    }

    private void read(InputStream in, BlockingQueue<Chunk> queue) {
        byte[] buffer = new byte[CHUNK];
        try {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                if (blackholed) {
                    continue; // the data is lost, as packets are on a black hole
                }
                if (n > 0) {
                    queue.put(new Chunk(Arrays.copyOf(buffer, n), System.nanoTime()));
                }
            }
        } catch (IOException e) {
            // the connection ended
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            try {
                queue.put(END);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void write(OutputStream out, BlockingQueue<Chunk> queue, boolean up) {
        RouteFaults faults = route.faults();
        long nextFree = System.nanoTime();
        try {
            while (!closed) {
                Chunk chunk = queue.poll(200, TimeUnit.MILLISECONDS);
                if (chunk == null) {
                    continue;
                }
                if (chunk == END) {
                    break;
                }
                long due = chunk.arrivedNanos() + (up ? faults.upDelayNanos : faults.downDelayNanos);
                waitUntil(due);
                while (faults.frozen && !closed) {
                    Thread.sleep(5);
                }
                if (blackholed || closed) {
                    continue;
                }
                long rate = faults.bytesPerSecond;
                if (rate <= 0) {
                    out.write(chunk.data());
                    out.flush();
                    nextFree = System.nanoTime();
                    continue;
                }
                for (int off = 0; off < chunk.data().length && !closed; off += BANDWIDTH_CHUNK) {
                    int len = Math.min(BANDWIDTH_CHUNK, chunk.data().length - off);
                    nextFree = Math.max(nextFree, System.nanoTime() - 50_000_000L);
                    waitUntil(nextFree);
                    out.write(chunk.data(), off, len);
                    out.flush();
                    nextFree += len * 1_000_000_000L / rate;
                }
            }
        } catch (IOException e) {
            // the other side ended
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            close(false);
        }
    }

    private static void waitUntil(long nanoTime) throws InterruptedException {
        long left;
        while ((left = nanoTime - System.nanoTime()) > 0) {
            if (left > 2_000_000) {
                Thread.sleep((left - 1_000_000) / 1_000_000);
            } else {
                LockSupport.parkNanos(left);
            }
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
    }

    boolean blackholed() {
        return blackholed;
    }

    /** Draws again whether this connection loses its data, when a loss fault starts. */
    void redrawLoss() {
        if (!blackholed) {
            blackholed = route.faults().drawLoss();
        }
    }

    /**
     * Closes both sockets; with {@code reset} the client gets a TCP reset instead of an orderly
     * end (SO_LINGER 0), as a fault that cuts connections would give it.
     */
    void close(boolean reset) {
        if (closed) {
            return;
        }
        closed = true;
        for (Socket s : new Socket[] {client, upstream}) {
            try {
                if (reset) {
                    s.setSoLinger(true, 0);
                }
                s.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
        route.forget(this);
    }
}
