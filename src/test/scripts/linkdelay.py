#!/usr/bin/env python3
"""Holds each packet of an NFQUEUE queue for a delay (with jitter), then lets it go, in arrival order.

   linkdelay.py --queue N --delay-ms D [--jitter-ms J] [--seed S]

Talks nfnetlink_queue over a raw netlink socket (no library): binds the queue, asks for the
packets' metadata only, and answers each with NF_ACCEPT once it is due. Each packet is due at its
arrival + D + a uniform draw in [-J, J], never before the packet ahead of it (a link does not
reorder). Prints one line "ready" once bound, and on SIGTERM the packets held and their count."""
import argparse, heapq, os, random, select, signal, socket, struct, sys, time

NETLINK_NETFILTER = 12
NFNL_SUBSYS_QUEUE = 3
NFQNL_MSG_PACKET, NFQNL_MSG_VERDICT, NFQNL_MSG_CONFIG = 0, 1, 2
NFQA_CFG_CMD, NFQA_CFG_PARAMS, NFQA_CFG_QUEUE_MAXLEN = 1, 2, 3
NFQNL_CFG_CMD_BIND = 1
NFQNL_COPY_META = 1
NFQA_PACKET_HDR, NFQA_VERDICT_HDR = 1, 2
NF_ACCEPT = 1
NLM_F_REQUEST, NLM_F_ACK = 1, 4
NLMSG_ERROR = 2


def attr(kind, payload):
    length = 4 + len(payload)
    return struct.pack("=HH", length, kind) + payload + b"\0" * ((4 - length % 4) % 4)


def message(kind, queue, attrs, seq, flags=NLM_F_REQUEST):
    body = struct.pack("=BBH", socket.AF_UNSPEC, 0, socket.htons(queue)) + b"".join(attrs)
    return struct.pack("=IHHII", 16 + len(body), (NFNL_SUBSYS_QUEUE << 8) | kind, flags, seq, 0) + body


def attrs_of(data):
    out = {}
    i = 0
    while i + 4 <= len(data):
        length, kind = struct.unpack_from("=HH", data, i)
        if length < 4:
            break
        out[kind & 0x7fff] = data[i + 4:i + length]
        i += (length + 3) & ~3
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--queue", type=int, required=True)
    p.add_argument("--delay-ms", type=float, required=True)
    p.add_argument("--jitter-ms", type=float, default=0.0)
    p.add_argument("--seed", type=int, default=None)
    a = p.parse_args()
    rnd = random.Random(a.seed)
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_NETFILTER)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
    s.bind((0, 0))
    seq = 1
    for attrs in ([attr(NFQA_CFG_CMD, struct.pack("=BxH", NFQNL_CFG_CMD_BIND, 0))],
                  [attr(NFQA_CFG_PARAMS, struct.pack(">IB", 0, NFQNL_COPY_META))],
                  [attr(NFQA_CFG_QUEUE_MAXLEN, struct.pack(">I", 65536))]):
        s.send(message(NFQNL_MSG_CONFIG, a.queue, attrs, seq, NLM_F_REQUEST | NLM_F_ACK))
        reply = s.recv(65536)
        length, kind = struct.unpack_from("=IH", reply, 0)
        if kind == NLMSG_ERROR:
            err = struct.unpack_from("=i", reply, 16)[0]
            if err != 0:
                sys.stderr.write("linkdelay: queue %d: configuring it failed: %s\n" % (a.queue, os.strerror(-err)))
                return 1
        seq += 1
    held = []  # (due, order, packet id)
    state = {"passed": 0, "stop": False, "last_due": 0.0, "order": 0}
    signal.signal(signal.SIGTERM, lambda *_: state.__setitem__("stop", True))
    signal.signal(signal.SIGINT, lambda *_: state.__setitem__("stop", True))
    print("ready", flush=True)
    delay = a.delay_ms / 1000.0
    jitter = a.jitter_ms / 1000.0
    while not state["stop"]:
        now = time.monotonic()
        wait = max(0.0, held[0][0] - now) if held else 0.2
        try:
            readable, _, _ = select.select([s], [], [], wait)
        except InterruptedError:
            continue
        if readable:
            while True:
                try:
                    data = s.recv(1 << 16, socket.MSG_DONTWAIT)
                except BlockingIOError:
                    break
                now = time.monotonic()
                i = 0
                while i + 16 <= len(data):
                    length, kind = struct.unpack_from("=IH", data, i)
                    if length < 16:
                        break
                    if kind == (NFNL_SUBSYS_QUEUE << 8) | NFQNL_MSG_PACKET:
                        hdr = attrs_of(data[i + 20:i + length]).get(NFQA_PACKET_HDR)
                        if hdr is not None:
                            pid = struct.unpack_from(">I", hdr, 0)[0]
                            due = max(now + delay + rnd.uniform(-jitter, jitter), state["last_due"])
                            state["last_due"] = due
                            state["order"] += 1
                            heapq.heappush(held, (due, state["order"], pid))
                    i += (length + 3) & ~3
        now = time.monotonic()
        while held and held[0][0] <= now:
            _, _, pid = heapq.heappop(held)
            s.send(message(NFQNL_MSG_VERDICT, a.queue, [attr(NFQA_VERDICT_HDR, struct.pack(">II", NF_ACCEPT, pid))], 0))
            state["passed"] += 1
    for _, _, pid in held:
        s.send(message(NFQNL_MSG_VERDICT, a.queue, [attr(NFQA_VERDICT_HDR, struct.pack(">II", NF_ACCEPT, pid))], 0))
    print("passed %d packets" % (state["passed"] + len(held)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
