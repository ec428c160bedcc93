#!/usr/bin/env python3
"""Load for `passim serve` from REST API v2 clients (BENCHMARKS.md, "REST API v2 on `passim serve`"): what a v2 app and
its user agent send, checked answer by answer, with the server's CPU time and RSS read from /proc.

  restv2-load.py authorize --sp URL --idp URL --pid PID [--devices 1] [--connections 32] [--duration 20]
      logs DEVICES devices in (the v2 flow below, once each), then on CONNECTIONS keep-alive connections
      sends `POST /api/v2/passimv2/decisions/authorize/Comcast` for DURATION seconds, the devices taken in
      turn; prints decisions per CPU-second of the server (its user+system time over the measured window).
  restv2-load.py flow --sp URL --idp URL --pid PID [--connections 32] [--duration 20]
      CONNECTIONS/2 users each loop over the whole v2 flow, a new device each time:
        POST SP  /api/v2/passimv2/sessions                    (mvpd, redirectUrl, domainName: authenticate)
        GET  SP  /api/v2/authenticate/passimv2/{code}          (the user agent: to the IdP's login page,
        POST IdP ... login form, SAML back to the SP ...        its form, the SAML Response, the SP, and
        ...      until the 302 to redirectUrl                    the redirect to the programmer)
        GET  SP  /api/v2/passimv2/profiles/code/{code}         (the profile the login made)
        POST SP  /api/v2/passimv2/decisions/authorize/Comcast  (authorized, with a media token)
      and prints flows and requests per CPU-second of the server.
  restv2-load.py soak --proxy URL --ca FILE --pid PID [--admin URL --admin-token T] [--connections 256]
                      [--duration 300] [--interval 60]
      through the forward proxy (CONNECT and TLS, as a real client behind a proxy): half the users loop
      over the v2 flow above, half over the legacy SDK flow (scripts/soak-login.py: config, authenticate/saml,
      the IdP, the assertion consumer, sessionDevice, authorizeDevice, deviceShortAuthorize); one line a
      interval with requests, errors, p50/p99, the server's RSS and its requests per CPU-second over the
      interval (whether a request costs it more as the run goes on). With --admin, each interval also reads
      `GET /admin/stores` and says how many stores are full and which are still filling (below 99% of
      their count cap, and more entries than an interval before); the run is flat when, from the first
      interval after which no store is still filling, no later interval's RSS is more than 10% above or
      below that interval's.
      Without --admin (or if a store is still filling at the end), flat is the last interval within 10%
      of the second, which says nothing of the steady state. Exit 1 on an error or RSS not flat.

Every run stops by itself after its duration. The world is the one scripts/bench-restv2.sh writes (requestor
`passimv2` with software statement `bench-statement`, REQ1 without, MVPD Comcast, user alice/secret allowed
CNN, `rest-v2 throttling off`); --sp and --idp are the live URLs `passim serve` prints. Standard library only.
"""
import argparse
import asyncio
import base64
import html
import json
import re
import ssl
import sys
import time
import urllib.parse
import urllib.request

import http1  # scripts/http1.py, beside this file
from procstat import cpu_seconds, pct, rss_mb  # scripts/procstat.py

SP_ORIGIN = "https://sp.auth.adobe.com"
IDP_ORIGIN = "https://comcast.idp.test"
REQUESTOR = "passimv2"
STATEMENT = "bench-statement"
MVPD = "Comcast"
REDIRECT = "https://programmer.example/done"
DEVICE_INFO = base64.b64encode(json.dumps({
    "model": "Bench", "version": "1.0", "osName": "tvOS", "osVersion": "17.0", "connectionType": "WiFi",
    "primaryHardwareType": "SetTopBox"}).encode()).decode()
FIELD = re.compile(r'<input type="hidden" name="([^"]*)" value="([^"]*)"/>')
ACTION = re.compile(r'<form action="([^"]*)"')
METHOD = re.compile(r'<form[^>]* method="([^"]*)"', re.I)


Failure = http1.Failure


class Connection(http1.KeepAlive):
    """One HTTP/1.1 keep-alive connection to one host of the world: straight to its live port, or through the
    proxy (CONNECT, then TLS as that host, verified with the server's CA). Answers carry Content-Length."""

    def __init__(self, origin, live=None, proxy=None, ssl_context=None):
        self.origin = origin
        self.world_host = urllib.parse.urlsplit(origin).hostname
        self.live = urllib.parse.urlsplit(live) if live else None
        self.proxy = urllib.parse.urlsplit(proxy) if proxy else None
        self.ssl_context = ssl_context

    async def open(self):
        if self.proxy is None:
            self.reader, self.writer = await asyncio.open_connection(self.live.hostname, self.live.port)
            return
        self.reader, self.writer = await asyncio.open_connection(self.proxy.hostname, self.proxy.port)
        target = f"{self.world_host}:443"
        self.writer.write(f"CONNECT {target} HTTP/1.1\r\nHost: {target}\r\n\r\n".encode())
        status = await self.reader.readline()
        while (await self.reader.readline()) not in (b"\r\n", b""):
            pass
        if b" 200" not in status:
            self.close()
            raise Failure(f"CONNECT {target}: {status!r}")
        await self.writer.start_tls(self.ssl_context, server_hostname=self.world_host)

    async def request(self, method, path, headers=None, fields=None, body=None, content_type=None):
        host = self.world_host if self.proxy else f"{self.live.hostname}:{self.live.port}"
        head = [f"{method} {path} HTTP/1.1", f"Host: {host}"]
        head += [f"{name}: {value}" for name, value in (headers or {}).items()]
        return await self.send(head, fields, body, content_type)


class Network:
    """Where each world origin is reached: its live URL, or through the proxy."""

    def __init__(self, args):
        self.args = args
        self.ssl_context = None
        if getattr(args, "proxy", None):
            self.ssl_context = ssl.create_default_context(cafile=args.ca)

    def connection(self, origin):
        if getattr(self.args, "proxy", None):
            return Connection(origin, proxy=self.args.proxy, ssl_context=self.ssl_context)
        live = {SP_ORIGIN: self.args.sp, IDP_ORIGIN: self.args.idp}[origin]
        parts = urllib.parse.urlsplit(live)
        return Connection(origin, live=f"{parts.scheme}://{parts.netloc}")


class Stats:
    def __init__(self):
        self.latencies = []
        self.requests = 0
        self.errors = 0
        self.flows = 0
        self.first_errors = []

    def error(self, message):
        self.errors += 1
        if len(self.first_errors) < 5:
            self.first_errors.append(message)


class Client:
    """One virtual user: a keep-alive connection per host, the app's v2 client and its user agent."""

    def __init__(self, network, stats):
        self.network = network
        self.stats = stats
        self.connections = {}

    def conn(self, origin):
        if origin not in self.connections:
            self.connections[origin] = self.network.connection(origin)
        return self.connections[origin]

    def close(self):
        for c in self.connections.values():
            c.close()

    async def send(self, method, url, expect=200, **kwargs):
        parts = urllib.parse.urlsplit(url)
        origin = f"{parts.scheme}://{parts.netloc}"
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        start = time.perf_counter()
        try:
            status, headers, body = await self.conn(origin).request(method, path, **kwargs)
        finally:
            self.stats.latencies.append(time.perf_counter() - start)
            self.stats.requests += 1
        if expect is not None and status != expect:
            raise Failure(f"{method} {path}: {status} (expected {expect}) {body[:160]!r}")
        return status, headers, body

    # -- REST API v2 ------------------------------------------------------------------------------

    async def register(self):
        _, _, body = await self.send("POST", SP_ORIGIN + "/o/client/register", expect=201,
                                     body=json.dumps({"software_statement": STATEMENT}).encode(),
                                     content_type="application/json")
        client = json.loads(body)
        query = urllib.parse.urlencode({"client_id": client["client_id"], "client_secret": client["client_secret"],
                                        "grant_type": "client_credentials"})
        # 201 as Adobe's DCR page answers it (200 before the mock followed the page).
        status, _, body = await self.send("POST", SP_ORIGIN + "/o/client/token?" + query, expect=None)
        if status not in (200, 201):
            raise Failure(f"POST /o/client/token: {status} {body[:160]!r}")
        return json.loads(body)["access_token"]

    @staticmethod
    def headers(token, device):
        return {"Authorization": "Bearer " + token,
                "AP-Device-Identifier": "fingerprint " + base64.b64encode(device.encode()).decode(),
                "X-Device-Info": DEVICE_INFO}

    async def login(self, token, device):
        """The v2 basic flow up to the profile: a session, the user agent through the IdP, the profile."""
        h = self.headers(token, device)
        _, _, body = await self.send("POST", f"{SP_ORIGIN}/api/v2/{REQUESTOR}/sessions", expect=None, headers=h,
                                     fields={"mvpd": MVPD, "redirectUrl": REDIRECT, "domainName": "programmer.example"})
        session = json.loads(body)
        if session.get("actionName") == "authorize" and session.get("reasonType") == "authenticated":
            return  # the device has its profile already (an earlier round)
        if session.get("actionName") != "authenticate" or "code" not in session:
            raise Failure(f"sessions: {body[:200]!r}")
        await self.user_agent(SP_ORIGIN + session["url"])
        _, _, body = await self.send("GET", f"{SP_ORIGIN}/api/v2/{REQUESTOR}/profiles/code/{session['code']}",
                                     headers={"Authorization": "Bearer " + token})
        if MVPD not in json.loads(body).get("profiles", {}):
            raise Failure(f"profiles/code: no profile in {body[:200]!r}")

    async def user_agent(self, url):
        """A browser from the authenticate URL to the programmer's redirect: redirects followed, the one
        form of each page submitted (the login form with alice's name and password), cookies kept."""
        cookies = {}
        method, fields = "GET", None
        for _ in range(10):
            origin = "{0.scheme}://{0.netloc}".format(urllib.parse.urlsplit(url))
            jar = cookies.setdefault(origin, {})
            h = {"Cookie": "; ".join(f"{k}={v}" for k, v in jar.items())} if jar else None
            status, headers, page = await self.send(method, url, expect=None, headers=h, fields=fields)
            for c in headers.get("set-cookie", []):
                name, _, value = c.split(";")[0].partition("=")
                jar[name.strip()] = value.strip()
            if 300 <= status < 400:
                url = urllib.parse.urljoin(url, headers.get("location", [""])[0])
                if url.startswith(REDIRECT):
                    return
                method, fields = "GET", None
                continue
            action = ACTION.search(page)
            if status != 200 or not action:
                raise Failure(f"user agent: {url} answered {status} without a form {page[:160]!r}")
            m = METHOD.search(page)
            method = (m.group(1) if m else "POST").upper()
            fields = {html.unescape(k): html.unescape(v) for k, v in FIELD.findall(page)}
            if 'name="username"' in page:
                fields.update(username="alice", password="secret")
            url = urllib.parse.urljoin(url, html.unescape(action.group(1)))
        raise Failure("user agent: more than 10 pages")

    async def authorize(self, token, device):
        _, _, body = await self.send("POST", f"{SP_ORIGIN}/api/v2/{REQUESTOR}/decisions/authorize/{MVPD}",
                                     headers=self.headers(token, device),
                                     body=b'{"resources":["CNN"]}', content_type="application/json")
        decision = json.loads(body)["decisions"][0]
        if decision.get("authorized") is not True or not decision.get("token", {}).get("serializedToken"):
            raise Failure(f"authorize: {body[:200]!r}")

    async def v2_flow(self, token, device):
        await self.login(token, device)
        await self.authorize(token, device)
        self.stats.flows += 1

    # -- the legacy SDK flow (scripts/soak-login.py) -------------------------------------------------

    async def legacy_flow(self, device):
        base = SP_ORIGIN + "/adobe-services"
        await self.send("GET", base + "/config/REQ1")
        query = urllib.parse.urlencode([
            ("domain_name", "adobe.com"), ("noflash", "true"), ("no_iframe", "true"), ("mso_id", MVPD),
            ("requestor_id", "REQ1"), ("redirect_url", "adobepass://ios.app"), ("client_type", "iOS"),
            ("client_version", "3.7"), ("device_id", device)])
        _, headers, page = await self.send("GET", base + "/authenticate/saml?" + query)
        cookie = headers.get("set-cookie", [""])[0].split(";")[0]
        action, fields = form(page)
        _, _, page = await self.send("POST", action, fields=fields)
        action, fields = form(page)
        fields.update(username="alice", password="secret")
        _, _, page = await self.send("POST", action, fields=fields)
        action, fields = form(page)
        await self.send("POST", action, fields=fields, headers={"Cookie": cookie}, expect=302)
        _, _, xml = await self.send("POST", base + "/sessionDevice", headers={"Cookie": cookie},
                                    fields={"_method": "GET", "requestor_id": "REQ1", "device_id": device})
        authn = element(xml, "authnToken")
        if not authn:
            raise Failure(f"sessionDevice: no token in {xml[:200]!r}")
        _, _, xml = await self.send("POST", base + "/authorizeDevice", fields={
            "resource_id": "CNN", "requestor_id": "REQ1", "mso_id": MVPD, "device_id": device,
            "authentication_token": authn})
        authz, guid = element(xml, "authzToken"), element(authn, "simpleTokenAuthenticationGuid")
        if not authz or not guid:
            raise Failure(f"authorizeDevice: no token in {xml[:200]!r}")
        await self.send("POST", base + "/deviceShortAuthorize", fields={"session_guid": guid, "authz_token": authz})
        self.stats.flows += 1


def form(page):
    action = ACTION.search(page)
    if not action:
        raise Failure(f"no form in the page {page[:160]!r}")
    return html.unescape(action.group(1)), {html.unescape(k): html.unescape(v) for k, v in FIELD.findall(page)}


def element(xml, name):
    m = re.search(rf"<{name}>(.*?)</{name}>", xml, re.S)
    return m and html.unescape(m.group(1))


def stores(admin, token):
    """`GET /admin/stores`: {store: its line} (count, capacity, bytes, maxBytes, full)."""
    request = urllib.request.Request(admin.rstrip("/") + "/admin/stores",
                                     headers={"Authorization": "Bearer " + token})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return {line["store"]: line for line in map(json.loads, answer.read().decode().splitlines())}


def occupancy(row):
    """A store as `count/capacity`, with its bytes when it is capped in bytes."""
    text = f"{row['count']}/{row['capacity']}"
    if "maxBytes" in row:
        text += f" ({row['bytes'] / 1048576:.1f}/{row['maxBytes'] / 1048576:.0f} MiB)"
    return text


RECOVERABLE = (Failure, OSError, asyncio.IncompleteReadError, ValueError, KeyError, IndexError, ssl.SSLError)


async def loop(client, deadline, body):
    i = 0
    while time.monotonic() < deadline:
        try:
            await body(i)
        except RECOVERABLE as e:
            client.stats.error(f"{type(e).__name__}: {e}")
            client.close()
            await asyncio.sleep(0.01)
        i += 1
    client.close()


def report(stats, cpu, wall, what):
    per_cpu = stats.requests / cpu if cpu else 0
    print(f"{what}: {stats.requests} requests in {wall:.1f} s ({stats.requests / wall:.0f}/s wall), "
          f"{stats.errors} errors, p50 {pct(stats.latencies, .5):.2f} ms, p99 {pct(stats.latencies, .99):.2f} ms")
    print(f"server CPU {cpu:.2f} s: {per_cpu:.0f} requests per CPU-second ({1e6 / per_cpu if per_cpu else 0:.0f} µs each)")
    for e in stats.first_errors:
        print("  error:", e)


async def authorize(args):
    network, setup = Network(args), Stats()
    first = Client(network, setup)
    token = await first.register()
    devices = [f"bench-device-{i}" for i in range(args.devices)]
    # Log the devices in, 16 at a time.
    clients = [Client(network, setup) for _ in range(min(16, len(devices)))]

    async def log_in(k):
        for d in devices[k::len(clients)]:
            await clients[k].login(token, d)
    try:
        await asyncio.gather(*(log_in(k) for k in range(len(clients))))
    except RECOVERABLE as e:
        print(f"setup failed: {type(e).__name__}: {e}")
        return 1
    finally:
        for c in clients + [first]:
            c.close()
    print(f"setup: {len(devices)} devices logged in ({setup.requests} requests)")
    stats = Stats()
    users = [Client(network, stats) for _ in range(args.connections)]
    cpu0, t0 = cpu_seconds(args.pid), time.monotonic()
    deadline = t0 + args.duration

    async def run(k):
        async def one(i):
            await users[k].authorize(token, devices[(k + i * args.connections) % len(devices)])
        await loop(users[k], deadline, one)
    await asyncio.gather(*(run(k) for k in range(args.connections)))
    cpu, wall = cpu_seconds(args.pid) - cpu0, time.monotonic() - t0
    report(stats, cpu, wall, f"decisions/authorize, {args.devices} device(s), {args.connections} connections")
    return 1 if stats.errors else 0


async def flow(args):
    network, stats = Network(args), Stats()
    first = Client(network, Stats())
    token = await first.register()
    first.close()
    users = [Client(network, stats) for _ in range(max(1, args.connections // 2))]
    run = time.time_ns()  # new devices in every run: a device with a profile would skip the login
    cpu0, t0 = cpu_seconds(args.pid), time.monotonic()
    deadline = t0 + args.duration

    async def run(k):
        async def one(i):
            await users[k].v2_flow(token, f"flow-{run}-{k}-{i}")
        await loop(users[k], deadline, one)
    await asyncio.gather(*(run(k) for k in range(len(users))))
    cpu, wall = cpu_seconds(args.pid) - cpu0, time.monotonic() - t0
    report(stats, cpu, wall, f"the v2 flow, {len(users)} users")
    print(f"flows: {stats.flows} complete, {stats.flows / cpu if cpu else 0:.0f} per CPU-second "
          f"({stats.requests / stats.flows if stats.flows else 0:.1f} requests each)")
    return 1 if stats.errors else 0


def at_cap(r):
    """Full, or within 1% of its count: a store whose entries also end or are taken (an SP login
    session once its login completes) stays just under its cap once it has reached it."""
    return r["full"] or r["count"] >= 0.99 * r["capacity"]


def filling(rows, i):
    """The stores in use below their cap at interval `i` that grew in it: the ones still filling."""
    now, before = rows[i]["stores"], rows[i - 1]["stores"] if i else {}
    return [name for name, r in sorted(now.items())
            if r["count"] and not at_cap(r) and r["count"] > before.get(name, {"count": 0})["count"]]


def filled_flat(rows):
    """Whether RSS stays within 10% of its value at the interval the stores filled (the first interval
    from which no store in use is still filling: each is full, or no longer grows), every interval
    after it; None (no verdict) when the admin could not be read, or no interval follows the filling."""
    if not rows or any(r.get("stores") is None for r in rows):
        return None
    final = rows[-1]["stores"]
    used = sorted(name for name, r in final.items() if r["count"])
    print("stores at the end: " + ", ".join(
        f"{name} {occupancy(final[name])}{' full' if final[name]['full'] else ''}" for name in used))
    still = filling(rows, len(rows) - 1)
    if still:
        print(f"RSS: stores still filling in the last interval ({', '.join(still)}): run longer")
        return None
    filled = next(i for i in range(len(rows)) if all(not filling(rows, j) for j in range(i, len(rows))))
    after = rows[filled + 1:]
    if not after:
        print(f"RSS: the stores filled only in the last interval ({rows[filled]['interval']}): run longer")
        return None
    base = rows[filled]["rss_mb"]
    low, high = min(r["rss_mb"] for r in after), max(r["rss_mb"] for r in after)
    flat = base * 0.9 <= low and high <= base * 1.1
    print(f"RSS: the stores filled by interval {rows[filled]['interval']} ({base:.1f} MB); the {len(after)} "
          f"intervals after it {low:.1f}-{high:.1f} MB: {'flat (within 10%)' if flat else 'NOT flat'}")
    return flat


async def soak(args):
    network, stats = Network(args), Stats()
    first = Client(network, Stats())
    token = await first.register()
    first.close()
    users = [Client(network, stats) for _ in range(max(2, args.connections // 2))]
    run = time.time_ns()
    start = t0 = time.monotonic()
    cpu0 = cpu_seconds(args.pid)
    deadline = t0 + args.duration

    async def run(k):
        async def one(i):
            if k % 2 == 0:
                await users[k].v2_flow(token, f"soak-v2-{run}-{k}-{i}")
            else:
                await users[k].legacy_flow(f"soak-legacy-{k}")
        await loop(users[k], deadline, one)
    tasks = [asyncio.create_task(run(k)) for k in range(len(users))]
    rows = []
    print(f"{'minute':>6} {'requests':>9} {'req/s':>7} {'errors':>6} {'p50 ms':>7} {'p99 ms':>7} {'RSS MB':>7} "
          f"{'req/CPU-s':>9}" + (" stores: how many full; those still filling, with their count" if args.admin else ""), flush=True)
    cpu_mark = cpu0
    while time.monotonic() < deadline - 1:
        await asyncio.sleep(min(args.interval, max(0.0, deadline - time.monotonic())))
        latencies, stats.latencies = stats.latencies, []
        requests, errors = stats.requests, stats.errors
        stats.requests = stats.errors = 0
        elapsed, start = time.monotonic() - start, time.monotonic()
        # The server's CPU over the interval: whether a request costs it more as the run goes on,
        # which req/s alone cannot tell on a machine whose other load changes.
        cpu_now = cpu_seconds(args.pid)
        interval_cpu, cpu_mark = cpu_now - cpu_mark, cpu_now
        row = {"interval": len(rows) + 1, "requests": requests, "rps": requests / elapsed, "errors": errors,
               "p50_ms": pct(latencies, .5), "p99_ms": pct(latencies, .99), "rss_mb": rss_mb(args.pid),
               "per_cpu": requests / interval_cpu if interval_cpu else 0}
        fill = ""
        if args.admin:
            try:
                row["stores"] = await asyncio.to_thread(stores, args.admin, args.admin_token)
            except (OSError, ValueError, KeyError) as e:
                row["stores"] = None
                fill = f"  (GET /admin/stores: {e})"
        rows.append(row)
        if row["stores"] is not None and all(r.get("stores") is not None for r in rows):
            current = row["stores"]
            full = sum(1 for r in current.values() if r["count"] and r["full"])
            growing = [f"{name} {current[name]['count']}" for name in filling(rows, len(rows) - 1)]
            fill = f" {full:>2} full; filling: " + (", ".join(growing) or "none")
        print(f"{row['interval']:>6} {requests:>9} {row['rps']:>7.0f} {errors:>6} {row['p50_ms']:>7.2f} "
              f"{row['p99_ms']:>7.2f} {row['rss_mb']:>7.1f} {row['per_cpu']:>9.0f}{fill}", flush=True)
    await asyncio.gather(*tasks)
    cpu = cpu_seconds(args.pid) - cpu0
    total, errors = sum(r["requests"] for r in rows), sum(r["errors"] for r in rows)
    flat = filled_flat(rows) if args.admin else None
    if flat is None and len(rows) >= 3:
        second, last = rows[1]["rss_mb"], rows[-1]["rss_mb"]
        flat = abs(last - second) <= 0.10 * second
        print(f"RSS: second interval {second:.1f} MB, last {last:.1f} MB: {'flat (within 10%)' if flat else 'NOT flat'}")
    print(f"total: {total} requests, {errors} errors, {stats.flows} flows; server CPU {cpu:.1f} s "
          f"({total / cpu if cpu else 0:.0f} requests per CPU-second)")
    for e in stats.first_errors:
        print("  error:", e)
    return 0 if errors == 0 and flat is not False else 1


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="mode", required=True)
    for name in ("authorize", "flow"):
        s = sub.add_parser(name)
        s.add_argument("--sp", required=True)
        s.add_argument("--idp", required=True)
        s.add_argument("--pid", type=int, required=True)
        s.add_argument("--connections", type=int, default=32)
        s.add_argument("--duration", type=float, default=20)
        if name == "authorize":
            s.add_argument("--devices", type=int, default=1)
    s = sub.add_parser("soak")
    s.add_argument("--proxy", required=True)
    s.add_argument("--ca", required=True)
    s.add_argument("--pid", type=int, required=True)
    s.add_argument("--admin", help="the admin URL passim serve prints (reads GET /admin/stores)")
    s.add_argument("--admin-token", help="the admin-token passim serve prints")
    s.add_argument("--connections", type=int, default=256)
    s.add_argument("--duration", type=float, default=300)
    s.add_argument("--interval", type=float, default=60)
    args = p.parse_args()
    return asyncio.run({"authorize": authorize, "flow": flow, "soak": soak}[args.mode](args))


if __name__ == "__main__":
    sys.exit(main())
