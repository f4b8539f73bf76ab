"""Sends requests whose bodies the server does not read, from clients that keep their end of the
connection open, and checks the server lets go of every connection anyway: `Connection: close`
requests with a 1 MB body to paths that do not read it (a 404, a GET, a refused content type).
Fails when the server's open sockets or RSS do not come back near the baseline.

usage: unread_bodies.py PORT PID [REQUESTS]
"""
import os
import socket
import sys
import time

port, pid = int(sys.argv[1]), int(sys.argv[2])
requests = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
batch = 200
body = b"x" * (1024 * 1024)
paths = [b"POST /no-such-path", b"GET /health/live", b"POST /oauth/token", b"POST /bankid/orders", b"PUT /"]


def server_sockets():
    count = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:"):
                count += 1
        except OSError:
            pass
    return count


def rss_mb():
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def send(request_line):
    """Sends one request and reads the status line; returns the socket, still open."""
    s = socket.create_connection(("127.0.0.1", port), timeout=3)
    head = request_line + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n"
    head += b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body)
    try:
        s.sendall(head + body)
    except (BrokenPipeError, ConnectionResetError, socket.timeout):
        pass  # the server may answer and close before it reads the body: that is the point
    try:
        status = s.recv(64)
    except (ConnectionResetError, socket.timeout):
        status = b""
    if status.startswith(b"HTTP/1.1 5"):
        sys.exit(f"{request_line.decode()}: server error {status!r}")
    return s


def settle(limit, seconds=10):
    deadline = time.time() + seconds
    while time.time() < deadline and server_sockets() > limit:
        time.sleep(0.25)
    return server_sockets()


for i in range(20):  # warm-up, so allocator pools exist before the baseline
    send(paths[i % len(paths)]).close()
time.sleep(1)
base_sockets, base_rss = server_sockets(), rss_mb()
start, worst = time.time(), base_sockets
for first in range(0, requests, batch):
    held = [send(paths[i % len(paths)]) for i in range(first, min(first + batch, requests))]
    worst = max(worst, settle(base_sockets + 2))  # measured while the clients still hold their ends
    for s in held:
        s.close()
elapsed = time.time() - start
after_sockets, after_rss = settle(base_sockets + 2), rss_mb()
print(f"{requests} Connection: close requests with unread 1 MB bodies, clients holding their ends, in {elapsed:.1f} s: "
      f"server sockets {base_sockets} -> at most {worst} while held -> {after_sockets}; RSS {base_rss:.1f} -> {after_rss:.1f} MB")
if worst > base_sockets + 2 or after_sockets > base_sockets + 2:
    sys.exit("the server kept connections the client had been told were closing")
if after_rss > base_rss + 40:
    sys.exit("RSS did not return near the baseline")
