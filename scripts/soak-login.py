#!/usr/bin/env python3
"""Load for `passim serve` that sends what a real client sends: the whole login and authorization flow.

Each virtual user keeps one keep-alive connection to the SP and one to the IdP and loops over the flow an
app with the SDK goes through (BEHAVIOR.md, facts §3-4):

  GET  SP  /config/REQ1
  GET  SP  /authenticate/saml?...            (a login session, an auto-post form to the IdP)
  POST IdP /sso                              (the login page)
  POST IdP /login  username, password         (an auto-post form with the SAML Response)
  POST SP  /sp/saml/SAMLAssertionConsumer     (302 to the app)
  POST SP  /sessionDevice                    (the authN token)
  POST SP  /authorizeDevice                  (the authZ token)
  POST SP  /deviceShortAuthorize             (the media token)

so the server creates login sessions, IdP sessions, tokens and log entries all the time, as it does for real
clients. Every answer is checked (status and the value the next step needs); a wrong one is an error.

  soak-login.py soak --sp URL --idp URL --pid PID [--connections 256] [--duration 600] [--interval 60]
      prints one line a interval: requests, errors, p50/p99 latency, the server's RSS; then a summary
      and, with --json FILE, all of it as JSON.
  soak-login.py isolation --sp URL --idp URL [--samples 200] [--body xml|json]
      the effect of the worst single request on another host: the IdP's latency (GET /sso) sampled
      while one client posts an attribute bomb (an 880 KB MRSS resource whose element carries 95,000
      attributes) to the SP's /preauthorize, against the same sampling without it. `--body json`:
      one JSON object of 90,000 keys (under 1 MB) posted to the SP's /indiv/devices instead.

Standard library only (asyncio); URLs are the live ones `passim serve` prints.
"""
import argparse
import asyncio
import html
import json
import re
import statistics
import sys
import time
import urllib.parse

import http1  # scripts/http1.py, beside this file
from procstat import pct  # scripts/procstat.py

FIELD = re.compile(r'<input type="hidden" name="([^"]*)" value="([^"]*)"/>')
ACTION = re.compile(r'<form action="([^"]*)"')


Failure = http1.Failure


class Connection(http1.KeepAlive):
    """One HTTP/1.1 keep-alive connection to a host of the world's live ports."""

    def __init__(self, base):
        parts = urllib.parse.urlsplit(base)
        self.host, self.port = parts.hostname, parts.port or 80
        self.base_path = parts.path.rstrip("/")

    async def open(self):
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    async def request(self, method, path, fields=None, cookie=None, body=None, content_type=None):
        head = [f"{method} {self.base_path}{path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        if cookie:
            head.append(f"Cookie: {cookie}")
        return await self.send(head, fields, body, content_type)


def form(page, what):
    action = ACTION.search(page)
    if not action:
        raise Failure(f"{what}: no form in the page")
    return html.unescape(action.group(1)), {html.unescape(k): html.unescape(v) for k, v in FIELD.findall(page)}


def path_of(url):
    return urllib.parse.urlsplit(url).path


def element(xml, name):
    m = re.search(rf"<{name}>(.*?)</{name}>", xml, re.S)
    return m and html.unescape(m.group(1))


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


async def timed(stats, conn, *args, expect=200, **kwargs):
    start = time.perf_counter()
    try:
        status, headers, body = await conn.request(*args, **kwargs)
    finally:
        stats.latencies.append(time.perf_counter() - start)
        stats.requests += 1
    if status != expect:
        raise Failure(f"{args[0]} {args[1]}: {status} (expected {expect}) {body[:120]!r}")
    return headers, body


async def login_flow(stats, sp, idp, user_index):
    device = f"soak-{user_index}"
    await timed(stats, sp, "GET", "/config/REQ1")
    query = urllib.parse.urlencode([
        ("domain_name", "adobe.com"), ("noflash", "true"), ("no_iframe", "true"), ("mso_id", "Comcast"),
        ("requestor_id", "REQ1"), ("redirect_url", "adobepass://ios.app"), ("client_type", "iOS"),
        ("client_version", "3.7"), ("device_id", device)])
    headers, page = await timed(stats, sp, "GET", "/authenticate/saml?" + query)
    cookie = headers.get("set-cookie", [""])[0].split(";")[0]
    action, fields = form(page, "authenticate/saml")
    _, page = await timed(stats, idp, "POST", path_of(action), fields=fields)
    action, fields = form(page, "the IdP's login page")
    fields.update(username="alice", password="secret")
    _, page = await timed(stats, idp, "POST", path_of(action), fields=fields)
    action, fields = form(page, "the IdP's answer")
    await timed(stats, sp, "POST", path_of(action), fields=fields, cookie=cookie, expect=302)
    _, xml = await timed(stats, sp, "POST", "/sessionDevice", cookie=cookie,
                         fields={"_method": "GET", "requestor_id": "REQ1", "device_id": device})
    # The tokens travel as escaped text inside the answers; the SDK sends them back as it got them.
    authn = element(xml, "authnToken")
    if not authn:
        raise Failure(f"sessionDevice: no token in {xml[:200]!r}")
    _, xml = await timed(stats, sp, "POST", "/authorizeDevice", fields={
        "resource_id": "CNN", "requestor_id": "REQ1", "mso_id": "Comcast", "device_id": device,
        "authentication_token": authn})
    authz = element(xml, "authzToken")
    guid = element(authn, "simpleTokenAuthenticationGuid")
    if not authz or not guid:
        raise Failure(f"authorizeDevice: no token in {xml[:200]!r}")
    await timed(stats, sp, "POST", "/deviceShortAuthorize", fields={"session_guid": guid, "authz_token": authz})
    stats.flows += 1


async def user(stats, sp_url, idp_url, index, deadline):
    sp, idp = Connection(sp_url), Connection(idp_url)
    while time.monotonic() < deadline:
        try:
            await login_flow(stats, sp, idp, index)
        except (Failure, OSError, asyncio.IncompleteReadError, ValueError, IndexError) as e:
            stats.error(str(e) or type(e).__name__)
            sp.close()
            idp.close()
            await asyncio.sleep(0.01)
    sp.close()
    idp.close()


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


async def soak(args):
    stats = Stats()
    deadline = time.monotonic() + args.duration
    users = [asyncio.create_task(user(stats, args.sp, args.idp, i, deadline)) for i in range(args.connections // 2)]
    rows = []
    start = time.monotonic()
    print(f"{'period':>6} {'requests':>9} {'req/s':>7} {'errors':>6} {'p50 ms':>7} {'p99 ms':>7} {'RSS MB':>7}", flush=True)
    while time.monotonic() < deadline:
        await asyncio.sleep(min(args.interval, max(0.0, deadline - time.monotonic())))
        latencies, stats.latencies = stats.latencies, []
        requests, errors = stats.requests, stats.errors
        stats.requests = stats.errors = 0
        elapsed = time.monotonic() - start
        start = time.monotonic()
        row = {"interval": len(rows) + 1, "requests": requests, "rps": requests / elapsed if elapsed else 0,
               "errors": errors, "p50_ms": pct(latencies, 0.5), "p99_ms": pct(latencies, 0.99),
               "rss_mb": rss_kb(args.pid) / 1024}
        rows.append(row)
        print(f"{row['interval']:>6} {requests:>9} {row['rps']:>7.0f} {errors:>6} {row['p50_ms']:>7.2f} "
              f"{row['p99_ms']:>7.2f} {row['rss_mb']:>7.1f}", flush=True)
    await asyncio.gather(*users)
    total = sum(r["requests"] for r in rows)
    errors = sum(r["errors"] for r in rows)
    flat = None
    if len(rows) >= 3:
        second, last = rows[1]["rss_mb"], rows[-1]["rss_mb"]
        flat = abs(last - second) <= 0.10 * second
        print(f"RSS: second interval {second:.1f} MB, last {last:.1f} MB: "
              f"{'flat (within 10%)' if flat else 'NOT flat'}")
    print(f"total: {total} requests, {errors} errors, {stats.flows} flows")
    for e in stats.first_errors:
        print("  error:", e)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rows": rows, "requests": total, "errors": errors, "flows": stats.flows, "flat": flat}, f)
    return 0 if errors == 0 and flat is not False else 1


async def sample(idp_url, samples, gap):
    """The IdP's GET /sso latency, `samples` times, `gap` seconds apart (405 is its answer: fine)."""
    conn = Connection(idp_url)
    out = []
    for _ in range(samples):
        start = time.perf_counter()
        await conn.request("GET", "/sso")
        out.append(time.perf_counter() - start)
        await asyncio.sleep(gap)
    conn.close()
    return out


def attribute_bomb():
    attributes = " ".join(f"a{i}=''" for i in range(95_000))
    resource = f"<rss {attributes}><channel><title>CNN</title></channel></rss>"
    # `=`, quotes and brackets left as they are (a form decoder splits a field at its first `=`): the
    # body stays under the server's 1 MB limit, as a hostile client would make sure it does.
    return b"requestor_id=REQ1&resource_id=" + urllib.parse.quote_plus(resource, safe="='<>/").encode()


def json_bomb():
    # The most keys that fit under the server's 1 MB body limit, then what the endpoint reads.
    return ("{" + "".join(f'"k{i}":0,' for i in range(90_000)) + '"fingerprint":"fp"}').encode()


async def isolation(args):
    body = json_bomb() if args.body == "json" else attribute_bomb()
    path, content_type = (("/indiv/devices", "application/json") if args.body == "json"
                          else ("/preauthorize", "application/x-www-form-urlencoded"))
    quiet = await sample(args.idp, args.samples, 0.005)
    bomb_conn = Connection(args.sp)

    async def bombs():
        answers = []
        for _ in range(args.bombs):
            start = time.perf_counter()
            status, _, text = await bomb_conn.request("POST", path, body=body, content_type=content_type)
            answers.append((status, time.perf_counter() - start, text[:160]))
        return answers

    bomb_task = asyncio.create_task(bombs())
    await asyncio.sleep(0)
    loaded = await sample(args.idp, args.samples, 0.005)
    answers = await bomb_task
    bomb_conn.close()
    print(f"{'JSON object' if args.body == 'json' else 'attribute bomb'}: {len(body)} bytes, {args.bombs} sent; answers: "
          + ", ".join(f"{s} in {t * 1000:.1f} ms" for s, t, _ in answers[:3]))
    print(f"  first answer: {answers[0][2]!r}")
    print(f"IdP GET latency without: p50 {pct(quiet, .5):.2f} ms, max {max(quiet) * 1000:.2f} ms")
    print(f"IdP GET latency during:  p50 {pct(loaded, .5):.2f} ms, max {max(loaded) * 1000:.2f} ms")
    added = max(loaded) * 1000 - statistics.median(quiet) * 1000
    print(f"worst added latency on the other host: {added:.1f} ms (target: at most 50 ms)")
    return 0 if added <= 50 else 1


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="mode", required=True)
    s = sub.add_parser("soak")
    s.add_argument("--sp", required=True)
    s.add_argument("--idp", required=True)
    s.add_argument("--pid", type=int, required=True)
    s.add_argument("--connections", type=int, default=256)
    s.add_argument("--duration", type=float, default=600)
    s.add_argument("--interval", type=float, default=60)
    s.add_argument("--json")
    i = sub.add_parser("isolation")
    i.add_argument("--sp", required=True)
    i.add_argument("--idp", required=True)
    i.add_argument("--samples", type=int, default=200)
    i.add_argument("--bombs", type=int, default=5)
    i.add_argument("--body", choices=["xml", "json"], default="xml")
    args = p.parse_args()
    return asyncio.run(soak(args) if args.mode == "soak" else isolation(args))


if __name__ == "__main__":
    sys.exit(main())
