#!/usr/bin/env python3
"""The slow-client attack on `passim serve`, replayed (docs/LIMITS.md, `peer-connections` and `body-rate`):
CONNECTIONS connections from the attacker's addresses each send the head of a REST v2 decisions request
announcing a large body, then trickle that body at RATE bytes a second (reading only to see how the
server ends it); when the server closes one, it is opened again at once (the attack renews itself).
Meanwhile probes, in a process of their own, open a new connection every PROBE_EVERY seconds from each
of their source addresses and ask the SP for `/config/REQ1`: is a new client served, and how fast?

  slow-clients.py --sp URL --pid PID [--attackers 127.0.0.1] [--probes 127.0.0.2,127.0.0.1]
                  [--connections 1100] [--rate 1] [--duration 60] [--probe-every 0.25]

--attackers: the source addresses the attack's connections are spread over, in turn (Linux loopback takes
any of 127.0.0.0/8 as a source); --probes: one probing client per address (an attacker's address among
them shows what a new client sharing the attacker's address gets). Every second: the attack's connections
open, and how the server ended the others so far (an answer naming its limit: `body-rate`, `connections`
(evicted to make room while its request arrived), `body-timeout`; or closed without an answer, `closed at
once` within 0.5 s of the connect (refused at accept, or evicted to make room before its head was read)
or later, `closed`); the probes' answers and latency. At the end, a summary per
outcome (count, first time, median lifetime) and per probe address (answered, failed, p50/p99/max). With
--pid, the server's RSS and open descriptors every second and its CPU time over the run.
Exit 1 when a probe from an address outside --attackers failed, or none ran. Standard library only.
"""
import argparse
import asyncio
import multiprocessing
import queue
import resource
import statistics
import sys
import time
import urllib.parse

from procstat import cpu_seconds, descriptors, pct, rss_mb  # scripts/procstat.py, beside this file

# How the server ended an attacking connection: an answer naming its limit, or a close without one
# (within 0.5 s of the connect, or later: an idle connection evicted to make room is closed silently).
OUTCOMES = ("body-rate", "connections", "body-timeout", "closed at once", "closed", "connect failed")


class Attack:
    def __init__(self, args, host, port, path):
        self.args, self.host, self.port, self.path = args, host, port, path
        self.open = 0
        self.opened = 0
        self.ended = {o: [] for o in OUTCOMES}  # outcome -> [(end time since start, lifetime)]
        self.start = time.monotonic()

    def head(self):
        return (f"POST {self.path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                "Content-Type: application/json\r\n"
                f"Content-Length: {self.args.body_bytes}\r\n\r\n").encode()

    async def one(self, source):
        """One attacking connection, from open to the server's close."""
        t0 = time.monotonic()
        try:
            reader, writer = await asyncio.open_connection(self.host, self.port, local_addr=(source, 0))
        except OSError:
            self.ended["connect failed"].append((t0 - self.start, 0.0))
            await asyncio.sleep(0.1)
            return
        self.open += 1
        self.opened += 1
        answer = bytearray()

        async def read():
            while True:
                data = await reader.read(4096)
                if not data:
                    return
                answer.extend(data)

        async def trickle():
            writer.write(self.head())
            sent, step = 0, max(1, int(self.args.rate))
            interval = step / self.args.rate
            while sent < self.args.body_bytes:
                await asyncio.sleep(interval)
                writer.write(b"x" * min(step, self.args.body_bytes - sent))
                sent += step
                await writer.drain()
            await asyncio.sleep(3600)  # the body is whole: wait for the answer

        reading, sending = asyncio.create_task(read()), asyncio.create_task(trickle())
        try:
            await asyncio.wait({reading, sending}, return_when=asyncio.FIRST_COMPLETED)
            # A failed write means the server closed: let the reader see the end of what it sent.
            if not reading.done():
                try:
                    await asyncio.wait_for(reading, 3)
                except (asyncio.TimeoutError, OSError):
                    pass
        finally:
            for t in (reading, sending):
                t.cancel()
            await asyncio.gather(reading, sending, return_exceptions=True)
            writer.close()
            self.open -= 1
        end = time.monotonic()
        text = answer.decode("latin-1")
        if "(limit: body-rate)" in text:
            outcome = "body-rate"
        elif "(limit: connections)" in text or "(limit: peer-connections)" in text:
            outcome = "connections"
        elif "(limit: body-timeout)" in text:
            outcome = "body-timeout"
        elif not answer and end - t0 < 0.5:
            outcome = "closed at once"
        else:
            outcome = "closed"
        self.ended[outcome].append((end - self.start, end - t0))

    async def run(self, k, deadline):
        source = self.args.attackers[k % len(self.args.attackers)]
        while time.monotonic() < deadline:
            await self.one(source)


class Probe:
    """One probing client, in a process of its own (`probe_process`): the attack's thousand connections
    slow the attacker's event loop, and would count in the probe's latency if both shared one."""

    def __init__(self, source, host, port, path, events):
        self.source, self.host, self.port, self.path, self.events = source, host, port, path, events

    async def once(self, timeout):
        t0 = time.monotonic()
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(self.host, self.port, local_addr=(self.source, 0)), timeout)
            try:
                writer.write(f"GET {self.path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n\r\n".encode())
                status = await asyncio.wait_for(reader.readline(), timeout)
                if b" 200 " not in status:
                    raise ConnectionError(f"answered {status.decode('latin-1').strip()!r}")
                length = 0
                while (line := await asyncio.wait_for(reader.readline(), timeout)) not in (b"\r\n", b""):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":")[1])
                await asyncio.wait_for(reader.readexactly(length), timeout)
            finally:
                writer.close()
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ConnectionError, ValueError) as e:
            self.events.put((self.source, time.monotonic(), None, f"{type(e).__name__}: {e}"))
            return
        self.events.put((self.source, time.monotonic(), time.monotonic() - t0, None))

    async def run(self, every, deadline):
        tasks = []
        while time.monotonic() < deadline:
            tasks.append(asyncio.create_task(self.once(timeout=10)))
            await asyncio.sleep(every)
        await asyncio.gather(*tasks)


def probe_process(sources, host, port, path, every, start, deadline, events):
    async def run():
        await asyncio.sleep(max(0.0, start - time.monotonic()))
        await asyncio.gather(*(Probe(a, host, port, path, events).run(every, deadline) for a in sources))
    asyncio.run(run())
    events.put(None)


async def main(args):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    sp = urllib.parse.urlsplit(args.sp)
    base = sp.path.rstrip("/")
    attack = Attack(args, sp.hostname, sp.port, base + "/api/v2/passimv2/decisions/authorize/Comcast")
    deadline = time.monotonic() + args.duration
    # Spawned, not forked, and before the attack: a forked child would hold the attack's sockets open.
    # Its probes start once the attack has had a second to fill the server.
    context = multiprocessing.get_context("spawn")
    events = context.Queue()
    prober = context.Process(target=probe_process, args=(
        args.probes, sp.hostname, sp.port, base + "/config/REQ1", args.probe_every, attack.start + 1, deadline,
        events))
    prober.start()
    cpu0 = cpu_seconds(args.pid) if args.pid else 0
    attackers = [asyncio.create_task(attack.run(k, deadline)) for k in range(args.connections)]
    results = {a: [] for a in args.probes}  # source -> [(end time since start, latency or None, failure)]
    window = {a: [] for a in args.probes}
    done = False

    def drain():
        nonlocal done
        while True:
            try:
                event = events.get_nowait()
            except queue.Empty:
                return
            if event is None:
                done = True
                return
            source, at, latency, failure = event
            results[source].append((at - attack.start, latency, failure))
            window[source].append(latency)

    def probes_line():
        parts = []
        for a in args.probes:
            ok = [l for l in window[a] if l is not None]
            worst = f"{max(ok) * 1000:.0f} ms" if ok else "-"
            parts.append(f"{a} {len(ok)}/{len(window[a])} (max {worst})")
            window[a] = []
        return "; ".join(parts)

    print(f"{'s':>4} {'open':>5} " + " ".join(f"{o:>14}" for o in OUTCOMES) + "  probes answered/ended (max latency)"
          + ("  server RSS, open descriptors" if args.pid else ""), flush=True)
    second = 1
    while time.monotonic() < deadline:
        await asyncio.sleep(max(0.0, attack.start + second + 1 - time.monotonic()))
        second += 1
        drain()
        counts = " ".join(f"{len(attack.ended[o]):>14}" for o in OUTCOMES)
        rss = f"  {rss_mb(args.pid):.1f} MB, {descriptors(args.pid)} fds" if args.pid else ""
        print(f"{second:>4} {attack.open:>5} {counts}  {probes_line()}{rss}", flush=True)
    for t in attackers:
        t.cancel()
    await asyncio.gather(*attackers, return_exceptions=True)
    cpu = cpu_seconds(args.pid) - cpu0 if args.pid else 0
    while not done and (prober.is_alive() or not events.empty()):
        drain()
        await asyncio.sleep(0.1)
    drain()
    prober.join()
    print(f"attack: {attack.opened} connections opened over {args.duration:.0f} s from "
          f"{', '.join(args.attackers)}, {args.connections} at a time, each trickling at {args.rate:g} B/s"
          + (f"; server CPU {cpu:.1f} s" if args.pid else ""))
    for o in OUTCOMES:
        ends = attack.ended[o]
        if ends:
            print(f"  {o}: {len(ends)}, the first at {min(e for e, _ in ends):.1f} s, median lifetime "
                  f"{statistics.median(l for _, l in ends):.2f} s")
    status = 0
    for a in args.probes:
        latencies = [l for _, l, _ in results[a] if l is not None]
        failures = [f for _, l, f in results[a] if l is None]
        print(f"probe from {a}{' (an attacker address)' if a in args.attackers else ''}: "
              f"{len(latencies)}/{len(results[a])} answered 200, p50 {pct(latencies, .5):.1f} ms, "
              f"p99 {pct(latencies, .99):.1f} ms, max {pct(latencies, 1):.1f} ms")
        for f in sorted(set(failures))[:5]:
            print(f"  failure ({failures.count(f)}): {f}")
        if a not in args.attackers and (failures or not latencies):
            status = 1
    return status


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sp", required=True, help="the SP's live URL passim serve prints")
    p.add_argument("--pid", type=int, help="the server's pid (its RSS each second)")
    p.add_argument("--attackers", type=lambda s: s.split(","), default=["127.0.0.1"])
    p.add_argument("--probes", type=lambda s: s.split(","), default=["127.0.0.2", "127.0.0.1"])
    p.add_argument("--connections", type=int, default=1100)
    p.add_argument("--rate", type=float, default=1.0, help="bytes a second each connection trickles")
    p.add_argument("--body-bytes", type=int, default=100_000, help="the Content-Length announced")
    p.add_argument("--duration", type=float, default=60)
    p.add_argument("--probe-every", type=float, default=0.25)
    sys.exit(asyncio.run(main(p.parse_args())))
