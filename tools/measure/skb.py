#!/usr/bin/env python3
"""What one hackbench message costs in an AF_UNIX stream socket, measured directly.

Opens N socketpairs, writes 100-byte messages into each (non-blocking) until the send
buffer refuses one, and prints: the messages that fit, the bytes SIOCOUTQ reports in
flight (for AF_UNIX this is sk_wmem_alloc: the sum of the skbs' truesize), hence the
truesize of one message, the send-buffer limit (SO_SNDBUF), and the slab caches and
/proc/meminfo Slab delta per skb in flight. data/measured/skb.txt is one run.

usage: tools/measure/skb.py [SOCKETS] [MSG_SIZE]     (default 50 100)
"""
import fcntl
import os
import socket
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

SIOCOUTQ = 0x5411


def outq(s):
    return struct.unpack("i", fcntl.ioctl(s.fileno(), SIOCOUTQ, b"\0\0\0\0"))[0]


def main():
    common.need_root()
    nsock = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    size = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    print("# uname %s" % " ".join(os.uname()))
    with open("/proc/sys/net/core/wmem_default") as f:
        print("wmem_default %s" % f.read().strip())
    pairs = [socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM) for _ in range(nsock)]
    print("SO_SNDBUF %d" % pairs[0][0].getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF))
    a, _ = pairs[0]
    a.send(b"-" * size)
    print("one message of %d bytes: SIOCOUTQ %d" % (size, outq(a)))
    a.send(b"-" * size)
    print("two messages: SIOCOUTQ %d" % outq(a))
    m0, s0 = common.meminfo(), common.slabinfo()
    total = 2
    counts = []
    for i, (a, _) in enumerate(pairs):
        a.setblocking(False)
        n = 2 if i == 0 else 0
        while True:
            try:
                a.send(b"-" * size)
                n += 1
            except BlockingIOError:
                break
        counts.append(n)
        total += n - (2 if i == 0 else 0)
    print("messages until the send buffer is full: per socket min %d max %d" %
          (min(counts), max(counts)))
    print("full socket SIOCOUTQ %d (truesize per message %.1f)" %
          (outq(pairs[1][0]), outq(pairs[1][0]) / counts[1]))
    m1, s1 = common.meminfo(), common.slabinfo()
    print("skbs in flight %d" % (total))
    common.print_delta("per_skb", m0, m1, s0, s1, per=total)


if __name__ == "__main__":
    main()
