package org.dsload.chaos.proxy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** One listening port of the proxy and the server it forwards to, with the faults in force on it. */
final class Route implements AutoCloseable {
    private static final int CONNECT_TIMEOUT_MS = 5000;

    private final String name;
    private final InetSocketAddress upstream;
    private final ServerSocket server;
    private final RouteFaults faults = new RouteFaults();
    private final Set<Link> links = ConcurrentHashMap.newKeySet();
    private final Thread acceptor;
    private volatile boolean closed;

    Route(String name, InetSocketAddress listen, InetSocketAddress upstream) throws IOException {
        this.name = name;
        this.upstream = upstream;
        this.server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(listen, 512);
        this.acceptor = new Thread(this::accept, "dsload-proxy-accept-" + name);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                if (closed) {
                    return;
                }
                continue;
            }
            if (faults.resetting) {
                reset(client);
                continue;
            }
            Socket up = new Socket();
            try {
                client.setTcpNoDelay(true);
                up.setTcpNoDelay(true);
                up.connect(upstream, CONNECT_TIMEOUT_MS);
                Link link = new Link(this, client, up);
                links.add(link);
                link.start();
            } catch (IOException e) {
                // the server is down: the client sees its connection reset, as it would without the proxy
                reset(client);
                closeQuietly(up);
            }
        }
    }

    private static void reset(Socket s) {
        try {
            s.setSoLinger(true, 0);
        } catch (IOException e) {
            // closing anyway
        }
        closeQuietly(s);
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // nothing to do
        }
    }

    String apply(String kind, java.util.Map<String, String> params) {
        String state = faults.apply(kind, params);
        if (kind.equals("reset")) {
            List.copyOf(links).forEach(l -> l.close(true));
        } else if (kind.equals("loss")) {
            links.forEach(Link::redrawLoss);
        }
        return state;
    }

    String revert(String kind) {
        String state = faults.revert(kind);
        if (kind.equals("loss") || kind.equals("all")) {
            // their data was dropped mid-stream: the connection cannot carry on, the client must reconnect
            List.copyOf(links).stream().filter(Link::blackholed).forEach(l -> l.close(true));
        }
        return state;
    }

    RouteFaults faults() {
        return faults;
    }

    void forget(Link link) {
        links.remove(link);
    }

    String name() {
        return name;
    }

    int connections() {
        return links.size();
    }

    InetSocketAddress listenAddress() {
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    InetSocketAddress upstream() {
        return upstream;
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            // closing anyway
        }
        List.copyOf(links).forEach(l -> l.close(false));
    }
}
