package org.dsload.chaos.proxy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A TCP proxy in front of data store nodes that injects network faults on command: delay,
 * bandwidth limit, freeze, reset, and connection-level loss. It needs no privileges and works on
 * any system, the way toxiproxy does: one listening port (a route) per node, and a control port
 * that takes one-line commands, so the engine that runs a fault schedule can drive a proxy that
 * every load generator goes through.
 *
 * <p>Control commands (one per connection, answered by one line starting with OK or ERR):
 * <pre>
 * APPLY &lt;route&gt; &lt;kind&gt; [key=value ...]   kind: delay (delay=200ms direction=up|down|both),
 *                                        bandwidth (rate=1mbit), freeze, reset, loss (loss=50%)
 * REVERT &lt;route&gt; &lt;kind|all&gt;
 * STATE                                  the faults in force and connections, per route
 * ROUTES                                 name=listen&gt;upstream per route
 * </pre>
 */
public final class FaultProxy implements AutoCloseable {
    private final Map<String, Route> routes = new LinkedHashMap<>();
    private final ServerSocket control;
    private final Thread controller;
    private volatile boolean closed;

    /** A route to open: its name, where it listens, where it forwards to. */
    public record RouteSpec(String name, InetSocketAddress listen, InetSocketAddress upstream) {
        /** Parses {@code name=listenHost:port>upstreamHost:port}. */
        public static RouteSpec parse(String text) {
            int eq = text.indexOf('=');
            int gt = text.indexOf('>');
            if (eq <= 0 || gt < eq) {
                throw new IllegalArgumentException("a route is name=listen_host:port>server_host:port, got '" + text + "'");
            }
            return new RouteSpec(text.substring(0, eq).trim(), address(text.substring(eq + 1, gt)),
                    address(text.substring(gt + 1)));
        }
    }

    static InetSocketAddress address(String hostPort) {
        String t = hostPort.trim();
        int colon = t.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("expected host:port, got '" + t + "'");
        }
        try {
            return new InetSocketAddress(t.substring(0, colon), Integer.parseInt(t.substring(colon + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected host:port, got '" + t + "'");
        }
    }

    private FaultProxy(ServerSocket control) {
        this.control = control;
        this.controller = new Thread(this::serve, "dsload-proxy-control");
        controller.setDaemon(true);
    }

    /**
     * Opens the routes and the control port (port 0 picks a free one).
     *
     * @throws IOException if a port cannot be bound; nothing is left open then
     */
    public static FaultProxy start(List<RouteSpec> specs, InetSocketAddress controlAddress) throws IOException {
        ServerSocket control = new ServerSocket();
        control.setReuseAddress(true);
        control.bind(controlAddress, 50);
        FaultProxy proxy = new FaultProxy(control);
        try {
            for (RouteSpec spec : specs) {
                if (proxy.routes.containsKey(spec.name())) {
                    throw new IllegalArgumentException("two routes are named '" + spec.name() + "'");
                }
                proxy.routes.put(spec.name(), new Route(spec.name(), spec.listen(), spec.upstream()));
            }
        } catch (IOException | RuntimeException e) {
            proxy.close();
            throw e;
        }
        proxy.controller.start();
        return proxy;
    }

    /** host:port of the control port. */
    public String controlAddress() {
        return control.getInetAddress().getHostAddress() + ":" + control.getLocalPort();
    }

    /** host:port where the named route listens. */
    public String listenAddress(String route) {
        InetSocketAddress a = route(route).listenAddress();
        return a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    private Route route(String name) {
        Route r = routes.get(name);
        if (r == null) {
            throw new IllegalArgumentException("no route '" + name + "' (routes: " + String.join(", ", routes.keySet()) + ")");
        }
        return r;
    }

    /** Runs one control command, as the control port would. */
    public String command(String line) {
        String[] words = line.trim().split("\\s+");
        try {
            switch (words[0].toUpperCase(java.util.Locale.ROOT)) {
                case "APPLY" -> {
                    if (words.length < 3) {
                        return "ERR usage: APPLY <route> <kind> [key=value ...]";
                    }
                    Map<String, String> params = new LinkedHashMap<>();
                    for (int i = 3; i < words.length; i++) {
                        int eq = words[i].indexOf('=');
                        if (eq <= 0) {
                            return "ERR expected key=value, got '" + words[i] + "'";
                        }
                        params.put(words[i].substring(0, eq), words[i].substring(eq + 1));
                    }
                    return "OK " + words[1] + ": " + route(words[1]).apply(words[2], params);
                }
                case "REVERT" -> {
                    if (words.length != 3) {
                        return "ERR usage: REVERT <route> <kind|all>";
                    }
                    return "OK " + words[1] + ": " + route(words[1]).revert(words[2]);
                }
                case "STATE" -> {
                    List<String> parts = new ArrayList<>();
                    routes.values().forEach(r -> parts.add(r.name() + " " + r.faults().describe() + " "
                            + r.connections() + " connections"));
                    return "OK " + String.join("; ", parts);
                }
                case "ROUTES" -> {
                    List<String> parts = new ArrayList<>();
                    routes.values().forEach(r -> parts.add(r.name() + "=" + hostPort(r.listenAddress()) + ">"
                            + hostPort(r.upstream())));
                    return "OK " + String.join(" ", parts);
                }
                default -> {
                    return "ERR unknown command '" + words[0] + "' (APPLY, REVERT, STATE, ROUTES)";
                }
            }
        } catch (IllegalArgumentException e) {
            return "ERR " + e.getMessage();
        }
    }

    /** Whether any route has a fault in force. */
    public boolean anyFault() {
        return routes.values().stream().anyMatch(r -> r.faults().any());
    }

    private static String hostPort(InetSocketAddress a) {
        return (a.getAddress() != null ? a.getAddress().getHostAddress() : a.getHostString()) + ":" + a.getPort();
    }

    private void serve() {
        while (!closed) {
            try (Socket s = control.accept()) {
                s.setSoTimeout(5000);
                BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
                Writer out = new OutputStreamWriter(s.getOutputStream(), StandardCharsets.UTF_8);
                String line = in.readLine();
                out.write((line == null ? "ERR empty command" : command(line)) + "\n");
                out.flush();
            } catch (IOException e) {
                // a client that went away; the next one is served
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            control.close();
        } catch (IOException e) {
            // closing anyway
        }
        routes.values().forEach(Route::close);
    }
}
