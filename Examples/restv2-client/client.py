"""A reference REST API v2 client for a TV app, written from Adobe's public pages (Python, `requests`).

What it does, in the order a TV app does it (docs/V2-CLIENTS.md walks through it, with the lint rule
that checks each point):

1. Registers once with Dynamic Client Registration (`POST /o/client/register` with the programmer's
   software statement) and keeps the client credentials; asks for an access token
   (`POST /o/client/token`) and reuses it until it expires; with `--state FILE` both survive a restart.
2. Reads the configuration (`GET /api/v2/{sp}/configuration`) once, to let the user pick an MVPD.
3. Creates an authentication session (`POST sessions`), shows the code, and polls
   `GET profiles/code/{code}` every 5 seconds (Adobe: every 3-5 s) until the profile comes, the code's
   `notAfter` passes, or the answer is an error. A second screen logs the user in meanwhile
   (`--second-screen`: a command run with the code, e.g. `passim login`).
4. Asks preauthorization decisions for a list of resources (content filtering, never playback), then an
   authorization decision before playing each: a denied resource shows the MVPD's message and the app
   moves on to another resource; a decision whose error says `action: retry` is asked again at most twice.
5. Logs out when the user asks (`GET logout/{mvpd}?redirectUrl=`), then watches with a TempPass
   (`POST sessions` with the TempPass MVPD, `GET profiles/{mvpd}`, `POST decisions/authorize/{mvpd}`).

Every call carries `Authorization: Bearer`, `AP-Device-Identifier: fingerprint ...` (one identifier for
the device, always the same) and `X-Device-Info`. The client stays inside Adobe's throttle (a burst of
10 calls, then 1 a second, counted here before each call), waits what `Retry-After` says after a 429 or
a 503, and fetches a new access token once after a 401.

    client.py --base https://sp.auth.adobe.com --requestor ID --statement S --mvpd ID --user-hint NAME
              [--proxy URL --ca FILE] [--second-screen COMMAND] [--state FILE] [--clock-admin URL]

`--clock-admin URL` is for tests against `passim serve`: each wait advances the server's clock (`POST
/admin/clock`, token from $PASSIM_ADMIN_TOKEN) instead of sleeping, so a run takes seconds.
"""

import argparse
import base64
import hashlib
import json
import os
import shlex
import subprocess
import sys
import time

import requests

POLL_SECONDS = 5  # Adobe: poll every 3-5 seconds (checklist, "Polling Mechanism Configuring")
RETRY_ACTION_TIMES = 2  # Adobe: retry an action=retry error at most 2-3 times
THROTTLE_BURST = 10  # Adobe's throttle: a burst of 10 calls, then one a second
THROTTLE_RATE = 1.0
RETRY_AFTER_TIMES = 3  # how many 429/503 in a row one call waits out before giving up


class ApiError(Exception):
    """A refusal: the HTTP status and, for an enhanced error, its code, action and message."""

    def __init__(self, status, body):
        self.status = status
        self.body = body if isinstance(body, dict) else {}
        self.code = self.body.get("code")
        self.action = self.body.get("action")
        self.details = self.body.get("details") or self.body.get("message") or ""
        super().__init__(f"HTTP {status} {self.code or ''} (action {self.action}): {self.details}".strip())


class Clock:
    """The app's clock: `now` in seconds since the epoch, and `sleep`."""

    def now(self):
        return time.time()

    def sleep(self, seconds):
        time.sleep(seconds)


class Throttle:
    """Adobe's token bucket seen from the client: `take` waits until a call may go."""

    def __init__(self, clock, burst=THROTTLE_BURST, rate=THROTTLE_RATE):
        self.clock, self.burst, self.rate = clock, burst, rate
        self.tokens, self.at = float(burst), clock.now()

    def take(self):
        now = self.clock.now()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            wait = (1 - self.tokens) / self.rate
            self.clock.sleep(wait)
            self.at = self.clock.now()
            self.tokens = 1.0
        self.tokens -= 1


def device_info():
    """`X-Device-Info`: Base64 of JSON with the keys Adobe marks required, restricted values as listed."""
    info = {"primaryHardwareType": "SetTopBox", "model": "PassimBox", "version": "1.0", "manufacturer": "Passim",
            "osName": "Linux", "osVersion": "6.1", "connectionType": "LAN", "applicationId": "passim-reference",
            "applicationVersion": "1.0"}
    return base64.b64encode(json.dumps(info, separators=(",", ":")).encode()).decode()


def device_identifier(device_id):
    """`AP-Device-Identifier`: `fingerprint` and the Base64 of the SHA-256 of the device's own id."""
    return "fingerprint " + base64.b64encode(hashlib.sha256(device_id.encode()).digest()).decode()


class Client:
    """One device's REST API v2 client for one programmer (`requestor`, Adobe's `serviceProvider`)."""

    def __init__(self, base, requestor, statement, device_id, session=None, clock=None, state=None, say=print):
        self.base = base.rstrip("/")
        self.requestor = requestor
        self.statement = statement
        self.http = session or requests.Session()
        self.clock = clock or Clock()
        self.throttle = Throttle(self.clock)
        self.state_file = state
        self.say = say
        self.headers = {"AP-Device-Identifier": device_identifier(device_id), "X-Device-Info": device_info()}
        self.credentials = None  # {client_id, client_secret}: kept for good
        self.token = None  # {access_token, expires_at}: kept until it expires
        self._load()

    # --- persistent storage: client credentials and the access token (checklist, Registration Phase)

    def _load(self):
        if self.state_file and os.path.exists(self.state_file):
            with open(self.state_file) as f:
                kept = json.load(f)
            self.credentials, self.token = kept.get("credentials"), kept.get("token")

    def _save(self):
        if self.state_file:
            with open(self.state_file, "w") as f:
                json.dump({"credentials": self.credentials, "token": self.token}, f)

    # --- sending

    def _send(self, method, path, *, bearer=True, **kwargs):
        """One call: within the throttle, `Retry-After` waited out, a new token once after a 401."""
        renewed = False
        waits = 0
        extra = kwargs.pop("headers", {})
        while True:
            headers = dict(self.headers)
            headers.update(extra)
            if bearer:
                headers["Authorization"] = "Bearer " + self._access_token()
            self.throttle.take()
            r = self.http.request(method, self.base + path, headers=headers, timeout=15, **kwargs)
            if r.status_code in (429, 503) and waits < RETRY_AFTER_TIMES:
                waits += 1
                wait = max(int(r.headers.get("Retry-After", "1") or 1), 1)  # at least 1 s after a 429
                self.say(f"  throttled ({r.status_code}): waiting {wait} s as Retry-After says")
                self.clock.sleep(wait)
                continue
            if r.status_code == 401 and bearer and not renewed:
                renewed = True  # an access token refused: ask for a new one, once
                self.token = None
                continue
            if r.status_code >= 400:
                raise ApiError(r.status_code, _json(r))
            return r

    # --- Dynamic Client Registration

    def _access_token(self):
        if self.token and self.token["expires_at"] > self.clock.now() + 60:
            return self.token["access_token"]
        if not self.credentials:
            r = self._send("POST", "/o/client/register", bearer=False, json={"software_statement": self.statement})
            body = r.json()
            self.credentials = {"client_id": body["client_id"], "client_secret": body["client_secret"]}
            self.say("registered the application (client credentials kept)")
            self._save()
        r = self._send("POST", "/o/client/token", bearer=False, data={
            "client_id": self.credentials["client_id"], "client_secret": self.credentials["client_secret"],
            "grant_type": "client_credentials"})
        body = r.json()
        self.token = {"access_token": body["access_token"],
                      "expires_at": self.clock.now() + int(body.get("expires_in", 3600))}
        self._save()
        return self.token["access_token"]

    # --- REST API v2

    def _v2(self, rest):
        return f"/api/v2/{self.requestor}/{rest}"

    def configuration(self):
        return self._send("GET", self._v2("configuration")).json()

    def create_session(self, mvpd, domain_name, redirect_url):
        return self._send("POST", self._v2("sessions"),
                          data={"mvpd": mvpd, "domainName": domain_name, "redirectUrl": redirect_url}).json()

    def profile_for_code(self, code):
        return self._send("GET", self._v2(f"profiles/code/{code}")).json().get("profiles") or {}

    def profile(self, mvpd):
        return self._send("GET", self._v2(f"profiles/{mvpd}")).json().get("profiles") or {}

    def wait_for_profile(self, code, not_after_ms, between=None):
        """Polls the code every POLL_SECONDS: the profile (stop at success), or None once the code has
        expired (stop at its notAfter). `between` runs once, after the first poll (the second screen)."""
        polls = 0
        # A session's notAfter is milliseconds since the epoch, written as a string in Adobe's samples.
        deadline = int(not_after_ms) / 1000 if not_after_ms else None
        while True:
            profiles = self.profile_for_code(code)
            polls += 1
            if profiles:
                return polls, profiles
            if deadline is not None and self.clock.now() + POLL_SECONDS > deadline:
                return polls, None
            if between and polls == 1:
                between()
            self.clock.sleep(POLL_SECONDS)

    def decisions(self, kind, mvpd, resources):
        """`kind` authorize or preauthorize: the decisions, asked again (at most twice) while every
        refusal among them says action retry."""
        for attempt in range(RETRY_ACTION_TIMES + 1):
            body = self._send("POST", self._v2(f"decisions/{kind}/{mvpd}"), json={"resources": resources}).json()
            decisions = body.get("decisions") or []
            retry = [d for d in decisions if not d.get("authorized") and (d.get("error") or {}).get("action") == "retry"]
            if not retry or attempt == RETRY_ACTION_TIMES:
                return decisions
            self.say(f"  {kind}: {retry[0]['error'].get('code')} says retry: asking again")
            self.clock.sleep(1)
        return decisions

    def logout(self, mvpd, redirect_url):
        body = self._send("GET", self._v2(f"logout/{mvpd}"), params={"redirectUrl": redirect_url}).json()
        return (body.get("logouts") or {}).get(mvpd) or {}


def _json(r):
    try:
        return r.json()
    except ValueError:
        return {}


def refusal(decision):
    e = decision.get("error") or {}
    return f"{e.get('code')} (action {e.get('action')}): {e.get('details') or e.get('message') or ''}".strip()


def run(client, mvpd, allowed, denied, temppass, redirect_url, domain_name, second_screen=None, watch_seconds=60):
    """The TV app's journey. Returns 0 when every step went as the app expects."""
    say = client.say
    config = client.configuration()
    mvpds = [m.get("id") for m in (config.get("requestor") or {}).get("mvpds", [])]
    say(f"configuration: {len(mvpds)} MVPDs to pick from; the user picks {mvpd}")
    if mvpd not in mvpds:
        say(f"FAIL {mvpd} is not in the configuration")
        return 1

    # Authentication on a second screen.
    session = client.create_session(mvpd, domain_name, redirect_url)
    if session.get("actionName") != "authenticate":
        say(f"FAIL the session answered {session.get('actionName')}, not authenticate")
        return 1
    code = session["code"]
    say(f"code {code}: go to {client.base}{session.get('url')} on another device")
    polls, profiles = client.wait_for_profile(
        code, session.get("notAfter"), between=(lambda: second_screen(code, session)) if second_screen else None)
    if not profiles:
        say(f"FAIL no profile after {polls} polls: the code expired")
        return 1
    profile = profiles.get(mvpd) or next(iter(profiles.values()))
    say(f"signed in with {mvpd} after {polls} polls ({profile.get('type')} profile)")

    # Preauthorization filters the catalogue; authorization before each playback.
    pre = client.decisions("preauthorize", mvpd, allowed + denied)
    shown = [d["resource"] for d in pre if d.get("authorized")]
    say(f"preauthorized: {', '.join(shown) or 'none'}; not: "
        + (", ".join(d["resource"] for d in pre if not d.get("authorized")) or "none"))
    # The user tries a resource outside the package first: the app shows why, then plays another one.
    for resource in denied + allowed:
        decision = client.decisions("authorize", mvpd, [resource])[0]
        if decision.get("authorized"):
            token = (decision.get("token") or {}).get("serializedToken")
            say(f"play {resource}: authorized, media token of {len(base64.b64decode(token or ''))} bytes")
        else:
            say(f"play {resource}: denied, the app shows the MVPD's message: {refusal(decision)}")
        if decision.get("authorized") != (resource in allowed):
            say(f"FAIL {resource}: the decision was not what the user's package says")
            return 1

    # The user watches for a while, then asks to log out (never on a deny).
    client.clock.sleep(watch_seconds)
    logout = client.logout(mvpd, redirect_url)
    say(f"logged out of {mvpd}: {logout.get('actionName')}" + (f", the MVPD's page: {logout['url']}" if logout.get("url") else ""))

    # Temporary access needs no configuration and no code.
    if temppass:
        session = client.create_session(temppass, domain_name, redirect_url)
        say(f"TempPass session: {session.get('actionName')} ({session.get('reasonType')})")
        profiles = client.profile(temppass)
        decision = client.decisions("authorize", temppass, allowed[:1])[0]
        if not profiles or not decision.get("authorized"):
            say(f"FAIL TempPass: profile {bool(profiles)}, decision {refusal(decision)}")
            return 1
        say(f"play {allowed[0]} with a TempPass: authorized ({decision.get('source')})")
    return 0


class AdminClock(Clock):
    """Tests against `passim serve`: a wait advances the server's clock instead of sleeping."""

    def __init__(self, admin, token):
        self.admin, self.token, self.offset = admin.rstrip("/"), token, 0.0
        self.http = requests.Session()
        self.http.trust_env = False  # the admin endpoint is on loopback: never through a proxy

    def now(self):
        return time.time() + self.offset

    def sleep(self, seconds):
        ms = max(int(round(seconds * 1000)), 1)
        r = self.http.post(self.admin + "/admin/clock", json={"advance": f"{ms}ms"}, timeout=10,
                           headers={"Authorization": "Bearer " + self.token})
        r.raise_for_status()
        self.offset += ms / 1000


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--base", default="https://sp.auth.adobe.com", help="REST API v2's origin")
    p.add_argument("--requestor", required=True, help="the programmer's id, Adobe's serviceProvider")
    p.add_argument("--statement", required=True, help="the programmer's software statement (DCR)")
    p.add_argument("--mvpd", required=True, help="the MVPD the user picks")
    p.add_argument("--allowed", default="passimtv", help="resources the user may watch, comma-separated")
    p.add_argument("--denied", default="passimtv-ppv", help="resources the user may not watch, comma-separated")
    p.add_argument("--temppass", help="a TempPass MVPD to watch with after the logout")
    p.add_argument("--device-id", default="passim-reference-tv-1", help="the device's own stable id")
    p.add_argument("--redirect-url", default="https://tv.example/activated")
    p.add_argument("--domain-name", default="tv.example")
    p.add_argument("--proxy", help="send every call through this proxy (passim serve --proxy)")
    p.add_argument("--ca", help="trust this CA (passim serve's ca line)")
    p.add_argument("--state", help="keep the client credentials and access token in this file")
    p.add_argument("--second-screen", help="a command run once the code is shown; {code} and {url} are replaced")
    p.add_argument("--clock-admin", help="passim serve's admin URL: waits advance its clock ($PASSIM_ADMIN_TOKEN)")
    p.add_argument("--watch-seconds", type=int, default=60, help="how long the user watches before logging out")
    args = p.parse_args(argv)

    http = requests.Session()
    if args.proxy:
        http.trust_env = False
        http.proxies = {"http": args.proxy, "https": args.proxy}
    if args.ca:
        http.verify = args.ca
    clock = AdminClock(args.clock_admin, os.environ.get("PASSIM_ADMIN_TOKEN", "")) if args.clock_admin else Clock()
    client = Client(args.base, args.requestor, args.statement, args.device_id, session=http, clock=clock,
                    state=args.state, say=lambda line: print(line, flush=True))

    def second_screen(code, session):
        url = client.base + (session.get("url") or "")
        if not args.second_screen:
            print(f"enter {code} at {url}, then wait", flush=True)
            return
        command = [part.replace("{code}", code).replace("{url}", url) for part in shlex.split(args.second_screen)]
        done = subprocess.run(command, capture_output=True, text=True)
        print(f"second screen: {done.stdout.strip() or done.stderr.strip()}", flush=True)

    split = lambda text: [r for r in text.split(",") if r]  # noqa: E731
    return run(client, args.mvpd, split(args.allowed), split(args.denied), args.temppass, args.redirect_url,
               args.domain_name, second_screen, args.watch_seconds)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (ApiError, requests.RequestException, KeyError, ValueError) as error:
        print(f"FAIL {type(error).__name__}: {error}")
        sys.exit(1)
