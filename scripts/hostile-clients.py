#!/usr/bin/env python3
"""Hostile clients against a running SchedSim (issue 36 items 1, 2, 6, 7), driven by scripts/hostile-clients.sh.

usage: hostile-clients.py PORT ALICE_KEY BOB_KEY ROOT_KEY

Throughout, a prober asks GET /actuator/health every 200 ms on a new connection from 127.0.0.1, with a 1 s
timeout, and counts per phase the answers that were not 200 within 1 s. The hostile clients come from other
loopback addresses (127.0.0.x: the service bounds connections per address), so that what is shown is what the
service does for everyone else. Phases:

 1. slow unread bodies: 250 connections (127.0.0.20) send GET /actuator/health or an unauthenticated POST with
    Content-Length: 100000 and then a byte a second for 10 s: how each was answered and whether it was closed;
 2. header trickle: 1 200 connections (300 from each of 127.0.0.10-13) send a request line and then a header byte
    every 3 s for 20 s: how many the service refused at once (429), how many it closed, the longest any lived;
 3. 50 parallel submissions by alice against her queue limit of 10 (the worker busy with root's long run);
 4. one client's slow uploads: alice starts 40 slow bodies (a byte a second), then bob submits 5 simulations.

All loops are bounded in count and time; only 127.0.0.0/8 is contacted.
"""
import json
import multiprocessing
import queue
import socket
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

PORT = int(sys.argv[1])
ALICE, BOB, ROOT = sys.argv[2], sys.argv[3], sys.argv[4]
HOST = "127.0.0.1"

SMALL = json.dumps({"topology": {"preset": "validation-2c"},
                    "cgroups": [{"path": "/a", "cpuMax": "50000 100000"}],
                    "workloads": [{"name": "w", "cgroup": "/a", "type": "cpu-bound", "threads": 2}],
                    "durationMs": 200})
LONG = json.dumps({"name": "occupies-the-worker", "topology": {"preset": "gnr-2s-snc3-smt2"},
                   "cgroups": [{"path": "/web", "cpuWeight": 200}, {"path": "/svc"}],
                   "workloads": [{"name": "web", "cgroup": "/web", "type": "periodic", "threads": 2000,
                                  "runUs": 2000, "sleepUs": 8000},
                                 {"name": "svc", "cgroup": "/svc", "type": "request-response", "pairs": 500,
                                  "serviceUs": 50, "thinkUs": 20}],
                   "durationMs": 600000})


def connect(source=None, timeout=5.0, connect_timeout=None):
    """A connection (from `source`, a loopback address) whose reads wait `timeout`; its connect may wait longer
    (`connect_timeout`): 250 connects at once overflow the listen backlog, and the kernel retries a SYN after 1 s."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(connect_timeout or timeout)
    if source:
        s.bind((source, 0))
    s.connect((HOST, PORT))
    s.settimeout(timeout)
    return s


def request(method, path, body=None, key=None, timeout=30.0, source=None):
    """One request on its own connection: (status, body) or (None, error)."""
    head = f"{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
    if key:
        head += f"Authorization: Bearer {key}\r\n"
    data = b""
    if body is not None:
        data = body.encode()
        head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
    try:
        s = connect(source, timeout)
        s.sendall(head.encode() + b"\r\n" + data)
        got = read_all(s)
        s.close()
        status = int(got.split(b" ", 2)[1]) if got.startswith(b"HTTP/") else None
        head, _, body = got.partition(b"\r\n\r\n")
        if b"transfer-encoding: chunked" in head.lower():
            body = dechunk(body)
        return status, body.decode(errors="replace")
    except OSError as e:
        return None, str(e)


def dechunk(data):
    out = b""
    while data:
        size, _, rest = data.partition(b"\r\n")
        n = int(size.split(b";")[0] or b"0", 16)
        if n == 0:
            break
        out += rest[:n]
        data = rest[n + 2:]
    return out


def read_all(s):
    chunks = []
    try:
        while True:
            b = s.recv(65536)
            if not b:
                break
            chunks.append(b)
    except ConnectionResetError:
        pass
    return b"".join(chunks)


def probe(samples, stop):
    """Its own process (no share of the hostile clients' interpreter): GET /actuator/health every 200 ms with a
    1 s timeout; each probe's (start, seconds, status)."""
    while not stop.is_set():
        t0 = time.monotonic()
        status, _ = request("GET", "/actuator/health", timeout=1.0)
        dt = time.monotonic() - t0
        samples.put((t0, dt, status))
        stop.wait(max(0.0, 0.2 - dt))


class Prober:
    """Per phase: probes, the late (over 1 s) or failed ones, the slowest."""

    def __init__(self):
        self.samples = multiprocessing.Queue()
        self.stop = multiprocessing.Event()
        self.process = multiprocessing.Process(target=probe, args=(self.samples, self.stop), daemon=True)
        self.phases = []

    def start(self):
        self.process.start()

    def phase(self, name):
        self.phases.append((time.monotonic(), name))

    def finish(self):
        self.stop.set()
        stats = {}
        while True:
            try:
                t0, dt, status = self.samples.get(timeout=3)
            except queue.Empty:
                break
            name = "before"
            for start, n in self.phases:
                if start <= t0:
                    name = n
            st = stats.setdefault(name, {"probes": 0, "late_or_failed": 0, "slowest_ms": 0})
            st["probes"] += 1
            if status != 200 or dt > 1.0:
                st["late_or_failed"] += 1
            st["slowest_ms"] = max(st["slowest_ms"], round(dt * 1000))
        self.process.join(5)
        return stats


def slow_unread_bodies(n=250, seconds=10):
    """Phase 1: each connection: its answer's status and whether the service closed it before we stopped."""
    results = []

    def one(i):
        if i % 2 == 0:
            head = "GET /actuator/health HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000\r\n\r\n"
        else:
            head = ("POST /api/v1/simulations HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    "Content-Length: 100000\r\n\r\n")
        try:
            s = connect("127.0.0.20", timeout=1.0, connect_timeout=10.0)
        except OSError:
            return ("connect failed", False)
        status, closed, got = None, False, b""
        try:
            s.sendall(head.encode())
            end = time.monotonic() + seconds
            while time.monotonic() < end and not closed:
                try:
                    b = s.recv(65536)
                    if not b:
                        closed = True
                    got += b
                except socket.timeout:
                    pass
                except OSError:
                    closed = True
                if not closed:
                    try:
                        s.send(b"x")
                    except OSError:
                        closed = True
        finally:
            s.close()
        if got.startswith(b"HTTP/"):
            status = int(got.split(b" ", 2)[1])
        return (status, closed)

    with ThreadPoolExecutor(n) as pool:
        results = list(pool.map(one, range(n)))
    return results


def header_trickle(per_address=300, addresses=4, seconds=20, every=3.0):
    """Phase 2: refused at once (429), closed by the service, still open at the end; the longest lifetime."""
    socks = []
    refused = 0
    failed = 0
    opened = {}
    for a in range(addresses):
        for i in range(per_address):
            try:
                s = connect(f"127.0.0.{10 + a}", timeout=2.0, connect_timeout=10.0)
                s.sendall(b"GET /actuator/health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
                s.setblocking(False)
                socks.append(s)
                opened[s] = time.monotonic()
            except OSError:
                failed += 1
    closed_at = {}
    answers = {}
    end = time.monotonic() + seconds
    next_byte = time.monotonic() + every
    while time.monotonic() < end and len(closed_at) < len(socks):
        now = time.monotonic()
        for s in socks:
            if s in closed_at:
                continue
            try:
                b = s.recv(4096)
                if b:
                    answers[s] = answers.get(s, b"") + b
                else:
                    closed_at[s] = now
            except BlockingIOError:
                pass
            except OSError:
                closed_at[s] = now
        if now >= next_byte:
            for s in socks:
                if s not in closed_at:
                    try:
                        s.send(b"a")
                    except OSError:
                        closed_at[s] = now
            next_byte += every
        time.sleep(0.1)
    for s in socks:
        if answers.get(s, b"").startswith(b"HTTP/1.1 429"):
            refused += 1
    still_open = len(socks) - len(closed_at)
    lived = [closed_at[s] - opened[s] for s in socks if s in closed_at
             and not answers.get(s, b"").startswith(b"HTTP/1.1 429")]
    for s in socks:
        s.close()
    return {"connections": len(socks) + failed, "connect_failed": failed, "refused_429": refused,
            "closed_by_service": len(closed_at) - refused, "still_open_after_s": still_open,
            "longest_lived_s": round(max(lived), 1) if lived else None, "trickle_s": seconds}


def parallel(n, fn):
    with ThreadPoolExecutor(n) as pool:
        return list(pool.map(lambda i: fn(i), range(n)))


def counts(statuses):
    out = {}
    for s in statuses:
        out[str(s)] = out.get(str(s), 0) + 1
    return dict(sorted(out.items()))


def main():
    prober = Prober()
    prober.start()
    report = {}

    prober.phase("1 slow unread bodies")
    r = slow_unread_bodies()
    report["1 slow unread bodies (250, a byte a second, 10 s)"] = {
        "answers": counts(s for s, _ in r), "closed_by_service": sum(1 for _, c in r if c)}

    prober.phase("2 header trickle")
    report["2 header trickle (1200 from 4 addresses, a byte every 3 s)"] = header_trickle()

    prober.phase("3 burst against a queue limit")
    status, body = request("POST", "/api/v1/simulations", LONG, ROOT)
    long_id = json.loads(body).get("id") if status == 202 else None
    for _ in range(100):  # until the worker has it (it then holds everything after it in the queue)
        s, b = request("GET", f"/api/v1/simulations/{long_id}", key=ROOT)
        if s == 200 and json.loads(b).get("status") == "RUNNING":
            break
        time.sleep(0.2)
    statuses = parallel(50, lambda i: request("POST", "/api/v1/simulations", SMALL, ALICE)[0])
    report["3 50 parallel submissions, queue limit 10"] = {"long run": status, "answers": counts(statuses),
                                                           "accepted": statuses.count(202)}

    prober.phase("4 one client's slow uploads")
    slow = []

    def slow_upload(i):
        head = (f"POST /api/v1/simulations HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer {ALICE}\r\n"
                "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
        try:
            s = connect("127.0.0.30", timeout=1.0, connect_timeout=10.0)
            s.sendall(head.encode())
            slow.append(s)
            got = b""
            end = time.monotonic() + 12
            while time.monotonic() < end:
                try:
                    b = s.recv(65536)
                    if not b:
                        break
                    got += b
                    if b"\r\n\r\n" in got:
                        break
                except socket.timeout:
                    pass
                try:
                    s.send(b" ")
                except OSError:
                    break
            return int(got.split(b" ", 2)[1]) if got.startswith(b"HTTP/") else None
        except OSError:
            return None

    with ThreadPoolExecutor(40) as pool:
        alice = [pool.submit(slow_upload, i) for i in range(40)]
        time.sleep(2)  # all forty sent their headers and are trickling
        bob = [request("POST", "/api/v1/simulations", SMALL, BOB)[0] for _ in range(5)]
        alice_statuses = [f.result() for f in alice]
    for s in slow:
        s.close()
    report["4 alice's 40 slow uploads, then bob's 5 submissions"] = {
        "alice": counts(alice_statuses), "bob": counts(bob), "bob accepted": bob.count(202)}

    if long_id:
        request("POST", f"/api/v1/simulations/{long_id}/cancel", "", ROOT)
    prober.phase("end")
    stats = prober.finish()
    report["health (every 200 ms, 1 s timeout, from 127.0.0.1)"] = stats
    late = sum(v["late_or_failed"] for k, v in stats.items())
    report["health answered within 1 s throughout"] = late == 0
    print(json.dumps(report, indent=1))
    return 0 if late == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
