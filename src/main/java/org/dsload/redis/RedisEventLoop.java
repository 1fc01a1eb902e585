package org.dsload.redis;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.dsload.core.Errors;
import org.dsload.core.Outcome;
import org.dsload.core.PreciseWait;
import org.dsload.core.SelectorAlarm;
import org.dsload.core.inflight.Replies;
import org.dsload.core.inflight.Transport;

import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Protocol;

/**
 * The connections of one JMeter thread that keeps Redis requests in flight, run by that thread
 * itself: its own selector, polled when the window waits, so a reply goes from the socket to the
 * results without changing threads (the way redis-benchmark runs one event loop). At most
 * {@code depth} requests wait on a connection (1 unless a pipeline depth is set), so N in flight
 * open up to N / depth connections per server, on demand, each with the Redis Connection's
 * handshake (AUTH, SELECT, CLIENT SETNAME) and timeouts. A connection that cannot be made backs
 * off ({@link org.dsload.core.Backoff}), and each attempt fails the requests it carried. Cluster
 * mode routes by slot from the connection element's view of the cluster and follows MOVED and
 * ASK.
 */
final class RedisEventLoop implements Transport<RedisRequest> {
    private final RedisEndpoint endpoint;
    private final Selector selector;
    private final SelectorAlarm alarm;
    private final int depth;
    private final int linksPerNode;
    private final long timeoutNanos;
    private final long connectTimeoutNanos;
    private final RedisReplyOutcomes outcomes;
    private final byte[] handshake;
    private final int handshakeCommands;
    private final ClusterSlots clusterSlots;
    private final RedisNode[] slotOwners;
    private final Map<String, RedisNode> nodes = new HashMap<>();
    /** The same nodes, to go through without an iterator. */
    private final List<RedisNode> nodeList = new ArrayList<>();
    private final RedisNode first;
    private final List<RedisLink> connecting = new ArrayList<>();
    private final RespReader reader = new RespReader();
    private final RespReply reply = new RespReply();
    private final Consumer<SelectionKey> onReady = this::onKey;
    /** Connections with output that waits for {@link #flush} (pipelines: one write for several requests). */
    private final List<RedisLink> unwritten = new ArrayList<>();
    /** Requests on connections (sent, or waiting for the connection to be made). */
    private int onLinks;
    private static final byte[] ASKING = RespWriter.encode(new CommandArguments(Protocol.Command.ASKING));
    private Replies<RedisRequest> replies;
    /** Commands put on the wire since {@link #takeSent}, redirections not counted again. */
    private int sentCommands;
    private int events;

    /**
     * @param inFlight  requests outstanding at most
     * @param depth     requests waiting on one connection at most
     * @param slots     the cluster's slot owners, or null in standalone mode
     */
    RedisEventLoop(RedisEndpoint endpoint, int inFlight, int depth, boolean nilFails, int textLimit, CommandPlan plan,
            ClusterSlots slots) throws IOException {
        this.endpoint = endpoint;
        this.selector = Selector.open();
        this.alarm = new SelectorAlarm(selector);
        this.depth = depth;
        this.linksPerNode = (inFlight + depth - 1) / depth;
        this.timeoutNanos = endpoint.socketTimeoutMillis() * 1_000_000L;
        this.connectTimeoutNanos = endpoint.connectTimeoutMillis() * 1_000_000L;
        this.outcomes = new RedisReplyOutcomes(endpoint, nilFails, textLimit, plan);
        List<byte[]> commands = endpoint.handshake();
        this.handshakeCommands = commands.size();
        ByteBuffer encoded = ByteBuffer.allocate(commands.stream().mapToInt(c -> c.length).sum());
        commands.forEach(encoded::put);
        this.handshake = encoded.array();
        this.first = node(endpoint.hosts().get(0).host(), endpoint.hosts().get(0).port());
        this.clusterSlots = slots;
        this.slotOwners = slots == null ? null : new RedisNode[ClusterSlots.SLOTS];
    }

    @Override
    public RedisRequest newRequest() {
        return new RedisRequest();
    }

    /**
     * A row gathers replies for up to 1 ms, or until nothing is outstanding (see
     * {@link Transport#gatherNanos}). A row of whatever replies one read found made JMeter a sample of
     * every 1.9 GETs at a fixed 91,000/s (`redis-get-rate.jmx`); gathering made one of every 18 to 21,
     * and the raw p99 of those runs was 0.71-0.76 ms against 0.92-0.95 ms alternating with them on
     * one redis-server (500 µs and 2 ms: the same rows, the same p99). At 107,000/s, rows of about 97
     * (the places fill before nothing is outstanding): raw p99 0.62-0.89 ms (median 0.79) against
     * 0.86-1.04 ms (median 0.87) in five pairs.
     */
    static final long GATHER_NANOS = 1_000_000L;

    @Override
    public long gatherNanos() {
        return GATHER_NANOS;
    }

    @Override
    public long timeoutNanos() {
        return timeoutNanos;
    }

    @Override
    public long readyAt(long nowNanos) {
        if (slotOwners == null) {
            return readyAt(first, nowNanos);
        }
        long earliest = Long.MAX_VALUE;
        for (int i = 0; i < nodeList.size(); i++) {
            long at = readyAt(nodeList.get(i), nowNanos);
            if (at - nowNanos <= 0) {
                return nowNanos;
            }
            earliest = Math.min(earliest, at);
        }
        return earliest;
    }

    private long readyAt(RedisNode node, long nowNanos) {
        node.revive(nowNanos);
        if (node.free(depth) != null || node.links.size() < linksPerNode) {
            return nowNanos;
        }
        return node.backoffEnd();
    }

    @Override
    public void send(RedisRequest request, Replies<RedisRequest> replies) {
        send(request, request.sendNanos(), replies);
    }

    /** Sends a request that no window has timed: {@code nowNanos} is its send time. */
    void send(RedisRequest request, long nowNanos, Replies<RedisRequest> replies) {
        this.replies = replies;
        if (slotOwners != null) {
            request.slot = ClusterSlots.slotOf(request.command);
        }
        dispatch(route(request), request, nowNanos);
    }

    private RedisNode route(RedisRequest request) {
        if (slotOwners == null || request.slot < 0) {
            return first;
        }
        RedisNode owner = slotOwners[request.slot];
        if (owner == null) {
            String address = clusterSlots.owner(request.slot);
            owner = address == null ? first : node(address);
            slotOwners[request.slot] = owner;
        }
        return owner;
    }

    private RedisNode node(String address) {
        int colon = address.lastIndexOf(':');
        return node(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1)));
    }

    private RedisNode node(String host, int port) {
        return nodes.computeIfAbsent(host + ":" + port, k -> {
            RedisNode node = new RedisNode(host, port);
            nodeList.add(node);
            return node;
        });
    }

    /**
     * Standalone: the connections of the places in flight, opened and logged in before the first arrival.
     * Made as places were first used, 100 of them at 107,000 GETs/s opened within the measured window's
     * first millisecond, and its first arrivals went out 10-20 ms late. A connection not made and logged
     * in by the deadline is dropped, so that a server that refuses, hangs or rejects the login fails the
     * requests that need it, as before, each with its message. A cluster's connections follow its slots,
     * as requests need them.
     */
    @Override
    public boolean openAhead(int places, long deadlineNanos, Replies<RedisRequest> replies) {
        if (slotOwners != null) {
            return false;
        }
        int links = Math.min(linksPerNode, (places + depth - 1) / depth);
        long now = System.nanoTime();
        first.revive(now);
        while (first.links.size() < links) {
            connect(first.addLink(), now);
        }
        this.replies = replies;
        while (deadlineNanos - now > 0 && first.links.stream().anyMatch(
                l -> l.state == RedisLink.State.CONNECTING || l.state == RedisLink.State.HANDSHAKE)) {
            await(deadlineNanos, false, replies);
            now = System.nanoTime();
        }
        for (RedisLink link : List.copyOf(first.links)) {
            if (link.state != RedisLink.State.READY) {
                close(link);
                first.forget(link);
            }
        }
        return true;
    }

    /** Puts a request on a connection of the node with room, or has it wait for one. */
    private void dispatch(RedisNode node, RedisRequest request, long nowNanos) {
        request.server = node.address;
        node.revive(nowNanos);
        RedisLink link = node.free(depth);
        if (link == null && node.links.size() < linksPerNode) {
            link = node.addLink();
        }
        if (link == null) {
            request.waitingOn = node;
            node.waiting.addLast(request);
            return;
        }
        enqueue(link, request, nowNanos);
    }

    private void enqueue(RedisLink link, RedisRequest request, long nowNanos) {
        request.link = link;
        request.waitingOn = null;
        link.requests++;
        onLinks++;
        if (request.asking) {
            link.replies.addLast(RedisLink.ASKING_REPLY);
        }
        link.replies.addLast(request);
        switch (link.state) {
            case READY -> {
                encode(link, request);
                if (depth == 1) {
                    write(link); // at once: the request's send time is when it goes out
                } else if (!link.unwritten) {
                    link.unwritten = true;
                    unwritten.add(link);
                }
            }
            case CLOSED -> connect(link, nowNanos);
            default -> {
                // written once the connection is made and logged in
            }
        }
    }


    private void encode(RedisLink link, RedisRequest request) {
        int before = link.out.position();
        if (request.asking) {
            link.out = RespWriter.append(link.out, ASKING);
            request.asking = false;
        }
        link.out = RespWriter.append(link.out, request.command);
        request.sentBytes(request.sentBytes() + link.out.position() - before);
        request.encoded = true;
        if (request.redirects == 0) {
            sentCommands++;
        }
    }

    private void connect(RedisLink link, long nowNanos) {
        try {
            SocketChannel channel = SocketChannel.open();
            link.channel = channel;
            endpoint.openConnections().incrementAndGet();
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            InetSocketAddress address = link.node.socket.isUnresolved()
                    ? new InetSocketAddress(link.node.socket.getHostString(), link.node.socket.getPort())
                    : link.node.socket;
            if (address.isUnresolved()) {
                throw new java.net.UnknownHostException(link.node.socket.getHostString());
            }
            boolean connected = channel.connect(address);
            link.key = channel.register(selector, connected ? SelectionKey.OP_READ : SelectionKey.OP_CONNECT, link);
            if (connected) {
                loggingIn(link);
            } else {
                link.state = RedisLink.State.CONNECTING;
                link.connectDeadlineNanos = nowNanos + connectTimeoutNanos;
                connecting.add(link);
            }
        } catch (IOException | RuntimeException e) {
            failConnect(link, e, System.nanoTime());
        }
    }

    /** The connection is made: send the handshake, or the requests if there is none. */
    private void loggingIn(RedisLink link) {
        connecting.remove(link);
        link.key.interestOps(SelectionKey.OP_READ);
        if (handshakeCommands == 0) {
            ready(link);
            return;
        }
        link.state = RedisLink.State.HANDSHAKE;
        link.handshakeLeft = handshakeCommands;
        for (int i = 0; i < handshakeCommands; i++) {
            link.replies.addFirst(RedisLink.HANDSHAKE_REPLY);
        }
        link.out = RespWriter.append(link.out, handshake);
        write(link);
    }

    /** Logged in: the requests that waited for it go out. */
    private void ready(RedisLink link) {
        link.state = RedisLink.State.READY;
        link.backoff.succeeded();
        for (Object waiting : link.replies) {
            if (waiting instanceof RedisRequest request && !request.encoded) {
                encode(link, request);
            }
        }
        write(link);
    }

    private void write(RedisLink link) {
        if (link.out.position() == 0 || link.channel == null) {
            return;
        }
        try {
            link.out.flip();
            link.channel.write(link.out);
            link.out.compact();
            int interest = link.out.position() > 0 ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ;
            if (link.key.interestOps() != interest) {
                link.key.interestOps(interest);
            }
        } catch (IOException e) {
            fail(link, errorCode(e), "cannot send to " + link.node.address + ": " + Errors.describe(e), true,
                    System.nanoTime());
        }
    }

    @Override
    public void flush(Replies<RedisRequest> replies) {
        this.replies = replies;
        for (int i = 0; i < unwritten.size(); i++) {
            RedisLink link = unwritten.get(i);
            link.unwritten = false;
            write(link);
        }
        unwritten.clear();
    }

    @Override
    public void await(long deadlineNanos, boolean precise, Replies<RedisRequest> replies) {
        this.replies = replies;
        events = 0;
        long now = System.nanoTime();
        long until = Math.min(deadlineNanos, service(now));
        try {
            long left = until - now;
            long margin = precise ? PreciseWait.marginNanos(until) : 0;
            if (left <= 0) {
                selector.selectNow(onReady);
            } else if (!precise) {
                selector.select(onReady, Math.max(1, (left + 999_999) / 1_000_000));
            } else if (onLinks == 0) {
                PreciseWait.until(until);
            } else if (left > margin) {
                // replies may come while the thread waits for the instant, so it waits in the selector:
                // the alarm ends the wait a margin before the instant, closer than the selector times one
                long target = until - margin;
                alarm.set(target);
                selector.select(onReady, (left + 999_999) / 1_000_000 + 1);
                alarm.cancel();
                if (events == 0) {
                    PreciseWait.wokeAfterPark(target);
                }
            } else {
                while (selector.selectNow(onReady) == 0 && events == 0 && until - System.nanoTime() > 0
                        && !Thread.currentThread().isInterrupted()) {
                    Thread.onSpinWait();
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("the selector of this thread's Redis connections failed", e);
        }
        service(System.nanoTime());
        flush(replies);
    }

    /**
     * Fails connections whose connect timeout passed and gives waiting requests the connections
     * that have room again.
     *
     * @return when to look again (a connect timeout, the end of a back-off), or Long.MAX_VALUE
     */
    private long service(long nowNanos) {
        long next = Long.MAX_VALUE;
        for (int i = connecting.size() - 1; i >= 0 && i < connecting.size(); i--) {
            RedisLink link = connecting.get(i);
            if (link.connectDeadlineNanos - nowNanos <= 0) {
                failConnect(link, new java.net.SocketTimeoutException("connect timed out after "
                        + endpoint.connectTimeoutMillis() + " ms (Connect timeout)"), nowNanos);
            } else {
                next = Math.min(next, link.connectDeadlineNanos);
            }
        }
        for (int i = 0; i < nodeList.size(); i++) {
            RedisNode node = nodeList.get(i);
            if (!node.waiting.isEmpty()) {
                serveWaiting(node, nowNanos);
                if (!node.waiting.isEmpty()) {
                    next = Math.min(next, node.backoffEnd());
                }
            }
        }
        return next;
    }

    private void serveWaiting(RedisNode node, long nowNanos) {
        node.revive(nowNanos);
        while (!node.waiting.isEmpty()) {
            RedisLink link = node.free(depth);
            if (link == null) {
                return;
            }
            enqueue(link, node.waiting.pollFirst(), nowNanos);
        }
    }

    private void onKey(SelectionKey key) {
        events++;
        RedisLink link = (RedisLink) key.attachment();
        if (!key.isValid()) {
            return;
        }
        int ready = key.readyOps();
        if ((ready & SelectionKey.OP_CONNECT) != 0) {
            try {
                if (link.channel.finishConnect()) {
                    loggingIn(link);
                }
            } catch (IOException e) {
                failConnect(link, e, System.nanoTime());
                return;
            }
        }
        if ((ready & SelectionKey.OP_READ) != 0 && link.open()) {
            read(link);
        }
        if ((ready & SelectionKey.OP_WRITE) != 0 && link.open()) {
            write(link);
        }
    }

    private void read(RedisLink link) {
        int n;
        try {
            n = link.channel.read(link.in);
        } catch (IOException e) {
            fail(link, errorCode(e), "connection to " + link.node.address + " failed: " + Errors.describe(e), true,
                    System.nanoTime());
            return;
        }
        long now = System.nanoTime();
        if (n < 0) {
            fail(link, RedisErrors.CONNECTION_CLOSED, "the server " + link.node.address
                    + " closed the connection before replying", true, now);
            return;
        }
        ByteBuffer in = link.in;
        byte[] bytes = in.array();
        int at = 0;
        int limit = in.position();
        try {
            while (at < limit && link.open()) {
                Object head = link.replies.peekFirst();
                if (head == null) {
                    throw new RespReader.ProtocolException("a reply came with no request waiting for it");
                }
                boolean keep = head instanceof RedisRequest request && (request.keepValue || outcomes.keepsText());
                int end = reader.read(bytes, at, limit, reply, keep);
                if (end == RespReader.INCOMPLETE) {
                    break;
                }
                at = end;
                link.replies.pollFirst();
                answered(link, head, now);
            }
        } catch (RespReader.ProtocolException e) {
            fail(link, RedisErrors.PROTOCOL_ERROR, "unreadable reply from " + link.node.address + ": " + e.getMessage(),
                    false, now);
            return;
        }
        if (!link.open()) {
            return;
        }
        in.position(at);
        in.limit(limit);
        in.compact();
        if (!in.hasRemaining()) {
            ByteBuffer bigger = ByteBuffer.allocate(in.capacity() * 2);
            in.flip();
            bigger.put(in);
            link.in = bigger;
        }
    }

    private void answered(RedisLink link, Object head, long now) {
        if (head == RedisLink.HANDSHAKE_REPLY) {
            if (reply.kind == RespReply.Kind.ERROR) {
                // the server's message names the problem; the password is never in it
                fail(link, RedisErrors.errorClass(reply.error), "logging in to " + link.node.address
                        + " failed: " + reply.error + " (check ACL user, Password and Database of the Redis Connection)",
                        true, now);
            } else if (--link.handshakeLeft == 0) {
                ready(link);
            }
            return;
        }
        if (head == RedisLink.ASKING_REPLY) {
            return; // +OK; an error would show in the command's own reply
        }
        RedisRequest request = (RedisRequest) head;
        request.link = null;
        link.requests--;
        onLinks--;
        if (link.hasRoom(depth)) {
            link.node.offer(link);
        }
        if (reply.kind == RespReply.Kind.ERROR && slotOwners != null && redirected(request, now)) {
            serveWaiting(link.node, now);
            return;
        }
        if (request.keepValue) {
            request.value = reply.value;
        }
        replies.complete(request, outcomes.of(request, reply), now, outcomes.shown(request, reply));
        if (!link.node.waiting.isEmpty()) {
            serveWaiting(link.node, now);
        }
    }

    /** Follows MOVED and ASK up to the cluster's max attempts. */
    private boolean redirected(RedisRequest request, long now) {
        String error = reply.error;
        boolean moved = error.startsWith("MOVED ");
        if (!moved && !error.startsWith("ASK ") || request.redirects + 1 >= endpoint.clusterMaxAttempts()) {
            return false;
        }
        String[] parts = error.split(" ");
        if (parts.length < 3) {
            return false;
        }
        RedisNode target = node(parts[2]);
        if (moved) {
            try {
                slotOwners[Integer.parseInt(parts[1])] = target;
            } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
                return false;
            }
        }
        request.redirects++;
        request.asking = !moved;
        request.encoded = false;
        dispatch(target, request, now);
        return true;
    }

    private void failConnect(RedisLink link, Throwable error, long now) {
        Throwable root = Errors.rootCause(error);
        String detail = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        fail(link, root.getClass().getSimpleName(), "cannot connect to " + link.node.address + ": " + detail, true, now);
    }

    /**
     * The connection failed: every request on it fails with this code (each attempt counts), and
     * the connection is tried again after its back-off.
     */
    private void fail(RedisLink link, String code, String message, boolean backOff, long now) {
        close(link);
        if (backOff) {
            link.backoff.failed(now);
            link.state = RedisLink.State.BACKOFF;
            link.node.backingOff.add(link);
        }
        String said = backOff ? message + "; this connection tries again in " + link.backoff.pauseMillis(now) + " ms"
                : message;
        List<RedisRequest> failed = new ArrayList<>(link.requests);
        for (Object waiting : link.replies) {
            if (waiting instanceof RedisRequest request) {
                failed.add(request);
            }
        }
        link.replies.clear();
        onLinks -= link.requests;
        link.requests = 0;
        for (RedisRequest request : failed) {
            request.link = null;
            replies.complete(request, Outcome.failed(code, said, request.sentBytes(), 0), now,
                    outcomes.unanswered(request));
        }
    }

    private void close(RedisLink link) {
        connecting.remove(link);
        if (link.channel != null) {
            if (link.key != null) {
                link.key.cancel();
            }
            try {
                link.channel.close();
            } catch (IOException e) {
                // closing is all that is left to do with it
            }
            endpoint.openConnections().decrementAndGet();
        }
        link.channel = null;
        link.key = null;
        link.state = RedisLink.State.CLOSED;
        link.out.clear();
        link.in.clear();
        link.handshakeLeft = 0;
        link.unwritten = false;
    }

    private static String errorCode(IOException e) {
        return Errors.rootCause(e).getClass().getSimpleName();
    }

    /**
     * A request the window gives up. Its connection is closed: a reply still on its way would
     * otherwise be taken for the next request's. Requests that waited on the same connection stay
     * outstanding and end at their own timeout.
     */
    @Override
    public void abandon(RedisRequest request) {
        if (request.waitingOn != null) {
            request.waitingOn.waiting.remove(request);
            request.waitingOn = null;
            return;
        }
        RedisLink link = request.link;
        if (link == null) {
            return;
        }
        for (Object waiting : link.replies) {
            if (waiting instanceof RedisRequest other) {
                other.link = null;
                other.orphaned = other != request;
            }
        }
        link.replies.clear();
        onLinks -= link.requests;
        link.requests = 0;
        close(link);
        link.node.offer(link);
    }

    @Override
    public Outcome timedOut(RedisRequest request) {
        return outcomes.timedOut(request);
    }

    /** The commands sent since the last call, for the connection's count of what was sent. */
    int takeSent() {
        int sent = sentCommands;
        sentCommands = 0;
        return sent;
    }

    @Override
    public void wakeup() {
        selector.wakeup();
    }

    @Override
    public void close() {
        for (RedisNode node : nodeList) {
            for (RedisLink link : node.links) {
                close(link);
            }
        }
        alarm.cancel(); // before the selector closes: the alarm's thread must not wake a closed one
        try {
            selector.close();
        } catch (IOException e) {
            // nothing is left open
        }
    }
}
