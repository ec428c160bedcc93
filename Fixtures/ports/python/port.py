#!/usr/bin/env python3
"""pyport: a small, independent port of the Adobe Pass AccessEnabler SDK (iOS flavour).

It speaks the passim driver protocol, version 1 (docs/PORTING.md): one JSON object a line on stdin
and stdout. The harness owns the world, the network, the browser and the clock; this process is only
the engine. Scope: startup (setRequestor, setOptions, the call queue), classic authentication
(getAuthentication, checkAuthentication, setSelectedProvider, handleExternalURL), getSelectedProvider
and cancel. Anything else is answered with `unimplemented`.

Both networks of the protocol: on the harness network a request is a `request` line and its answer a
`response` message; on the live network (`--live`) the port sends each request itself with
http.client to the loopback listener `hello.hosts` names, reports it as `fetched`, and hands the
kept answer to the engine when the harness writes `deliver`. Only the transport differs.

Standard library only. The behaviour follows the project's BEHAVIOR.md and the choices of
docs/CONFORMANCE.md; the comments say why where the code alone would not.
"""

import hashlib
import json
import sys
import traceback
import urllib.parse
import xml.etree.ElementTree as ET

PROTOCOL_VERSION = 1
IMPLEMENTATION = "pyport 1.0 (Python AccessEnabler port: startup, classic authN, cancel)"

# Constants with their iOS values (BEHAVIOR.md, "Constants"). The harness maps plain values back to
# the symbols, so the port sends what the iOS SDK would really deliver.
STATUS_SUCCESS = 1
STATUS_ERROR = 0
USER_AUTHENTICATED = ""
USER_NOT_AUTHENTICATED_ERROR = "User Not Authenticated Error"
PROVIDER_NOT_SELECTED_ERROR = "Provider Not Selected Error"
GENERIC_AUTHENTICATION_ERROR = "Generic Authentication Error"
ADOBEPASS_REDIRECT_URL = "adobepass://ios.app"
TRACKING_AUTHENTICATION = 0
TRACKING_GET_SELECTED_PROVIDER = 2

# CONFORMANCE.md choice 4: every request (the configuration fetch included) gives up after 30 s.
REQUEST_TIMEOUT_MS = 30_000
DEFAULT_SVC_SCHEME = "adbe.u-passim://adobe.com"
# The port has no real device; every app of the one simulated device shares this id.
DEVICE_ID = "pyport-device"
CLIENT_VERSION = "3.7.1"

# Calls that wait for a configuration (BEHAVIOR.md, Startup: "Queueing").
QUEUED_CALLS = {"checkAuthentication", "getAuthentication", "checkAuthorization", "getAuthorization",
                "checkPreauthorizedResources", "getMetadata", "logout"}
# Calls outside this port's scope: answered `unimplemented` at once, queued or not.
UNIMPLEMENTED_CALLS = {"checkAuthorization", "getAuthorization", "checkPreauthorizedResources",
                       "getMetadata", "logout"}


class ProtocolError(Exception):
    """The harness sent something this port cannot read; answered with an `error` message."""


class Unimplemented(Exception):
    """The input asks for something outside the port's scope; answered with `unimplemented`."""


# ----------------------------------------------------------------------------------------------
# Wire helpers

def form_encode(fields):
    """`application/x-www-form-urlencoded`, escaping everything but RFC 3986's unreserved bytes."""
    return "&".join(urllib.parse.quote(k, safe="") + "=" + urllib.parse.quote(v, safe="") for k, v in fields)


def json_text(value):
    """Compact JSON, the form the SDK puts in `generic_data` and in non-string option headers."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def normalize_sp(url):
    """`serviceProviders` entries may lack a scheme: the SDK prepends https:// (facts §1)."""
    if "://" not in url:
        url = "https://" + url
    return url.rstrip("/")


def md5_hex(text):
    # The tracking GUID is the unsalted md5 of the session GUID (BEHAVIOR.md, Tracking data).
    return hashlib.md5(text.encode("utf-8")).hexdigest()


def parse_token_date(text):
    """`yyyy/MM/dd HH:mm:ss GMT +hhmm` → milliseconds since the epoch, or None.

    Computed by hand rather than with time/datetime parsing so no locale or time zone can matter.
    """
    parts = text.strip().split(" ")
    if len(parts) != 4 or parts[2] != "GMT":
        return None
    try:
        year, month, day = (int(p) for p in parts[0].split("/"))
        hour, minute, second = (int(p) for p in parts[1].split(":"))
        zone = parts[3]
        if len(zone) != 5 or zone[0] not in "+-":
            return None
        offset = (int(zone[1:3]) * 3600 + int(zone[3:5]) * 60) * (1 if zone[0] == "+" else -1)
    except ValueError:
        return None
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    # Days from the civil date (Howard Hinnant's algorithm), valid for the proleptic Gregorian calendar.
    y = year - 1 if month <= 2 else year
    era = (y if y >= 0 else y - 399) // 400
    yoe = y - era * 400
    doy = (153 * (month - 3 if month > 2 else month + 9) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    days = era * 146097 + doe - 719468
    return (days * 86400 + hour * 3600 + minute * 60 + second - offset) * 1000


def child_text(element, name):
    """The stripped text of the first child `name`, or None when there is no such child."""
    child = element.find(name)
    if child is None:
        return None
    return (child.text or "").strip()


def parse_xml(body):
    # ElementTree neither fetches external entities nor expands external DTDs; a document with a
    # DOCTYPE is refused outright anyway, since no Adobe Pass answer has one (entity bombs).
    if "<!DOCTYPE" in body or "<!ENTITY" in body:
        raise ValueError("XML with a DOCTYPE is refused")
    try:
        return ET.fromstring(body)
    except ET.ParseError as error:
        raise ValueError("malformed XML: %s" % error) from None


# ----------------------------------------------------------------------------------------------
# Model

class MVPD:
    """An MVPD as a configuration describes it, plus the SP it was learnt from."""

    def __init__(self, mvpd_id, display_name, sp_url=None):
        self.id = mvpd_id
        self.display_name = display_name
        self.logo_url = None
        self.enable_platform_services = False
        self.boarding_status = None
        self.temp_pass = False
        self.promo_temp_pass = False
        self.requires_svc = False
        self.sp_url = sp_url

    def to_wire(self):
        return {"id": self.id, "displayName": self.display_name, "logoURL": self.logo_url,
                "enablePlatformServices": self.enable_platform_services,
                "boardingStatus": self.boarding_status, "tempPass": self.temp_pass,
                "promoTempPass": self.promo_temp_pass, "requiresSVC": self.requires_svc}


def parse_flag(element, name, mvpd_id):
    text = child_text(element, name)
    if text is None or text == "":
        return False
    if text.lower() in ("true", "1", "yes"):
        return True
    if text.lower() in ("false", "0", "no"):
        return False
    raise ValueError("invalid <%s> '%s' of MVPD '%s'" % (name, text, mvpd_id))


def parse_configuration(body, sp_url):
    """The MVPDs of a `/config/{requestor}` answer (facts §2).

    Like AND-1.8, every child of <mvpds> must be an <mvpd> with an id and a display name, or the
    whole configuration is unusable; a repeated id keeps its first entry.
    """
    root = parse_xml(body)
    if root.tag != "config":
        raise ValueError("expected <config>, found <%s>" % root.tag)
    requestor = root.find("requestor")
    if requestor is None:
        raise ValueError("<config> has no <requestor>")
    mvpd_list = requestor.find("mvpds")
    if mvpd_list is None:
        raise ValueError("<requestor> has no <mvpds>")
    mvpds, seen = [], set()
    for index, element in enumerate(mvpd_list):
        if element.tag != "mvpd":
            raise ValueError("unexpected <%s> in <mvpds>" % element.tag)
        mvpd_id = child_text(element, "id")
        display_name = child_text(element, "displayName")
        if not mvpd_id or not display_name:
            raise ValueError("MVPD #%d lacks an id or a display name" % (index + 1))
        mvpd = MVPD(mvpd_id, display_name, sp_url)
        mvpd.logo_url = child_text(element, "logoUrl") or None
        mvpd.temp_pass = parse_flag(element, "tempPass", mvpd_id)
        mvpd.promo_temp_pass = parse_flag(element, "promoTempPass", mvpd_id)
        mvpd.requires_svc = parse_flag(element, "requiresSVC", mvpd_id)
        mvpd.enable_platform_services = parse_flag(element, "enablePlatformServices", mvpd_id)
        status = child_text(element, "boardingStatus")
        if status:
            if status.upper() not in ("PICKER", "SUPPORTED"):
                raise ValueError("invalid <boardingStatus> '%s' of MVPD '%s'" % (status, mvpd_id))
            mvpd.boarding_status = status.upper()
        if mvpd_id not in seen:
            seen.add(mvpd_id)
            mvpds.append(mvpd)
    return mvpds


class AuthnToken:
    """The fields of an authN token the engine uses; `xml` is kept verbatim for the shared store."""

    def __init__(self, guid, mvpd_id, expires_ms, xml):
        self.guid = guid
        self.mvpd_id = mvpd_id
        self.expires_ms = expires_ms
        self.xml = xml


def parse_authn_token(text):
    """`<authnToken><signatureInfo/><simpleAuthenticationToken>…` (also a bare inner element)."""
    root = parse_xml(text)
    simple = root if root.tag == "simpleAuthenticationToken" else root.find("simpleAuthenticationToken")
    if root.tag not in ("authnToken", "simpleAuthenticationToken") or simple is None:
        raise ValueError("not an authN token")
    guid = child_text(simple, "simpleTokenAuthenticationGuid")
    mvpd_id = child_text(simple, "simpleTokenMsoID")
    expires = parse_token_date(child_text(simple, "simpleTokenExpires") or "")
    if not guid or not mvpd_id or expires is None:
        raise ValueError("the authN token lacks its GUID, MVPD or expiry")
    return AuthnToken(guid, mvpd_id, expires, text)


def parse_session_device(body):
    """`POST sessionDevice`: ("token", AuthnToken), ("pendingLogout", None) or ("none", None).

    The token travels as escaped text inside <authnToken>, so it is parsed a second time.
    """
    root = parse_xml(body)
    # <result> is the root device clients read (docs/WIRE.md); <sessionDevice> is what passim wrote before.
    if root.tag not in ("result", "sessionDevice"):
        raise ValueError("expected <result>, found <%s>" % root.tag)
    token = root.find("authnToken")
    if token is not None:
        return "token", parse_authn_token((token.text or "").strip())
    if root.find("pendingLogout") is not None:
        return "pendingLogout", None
    return "none", None


class HTTPResult:
    """A `response` message: an HTTP status and body, or a transport failure (status None)."""

    def __init__(self, status, body, failure=None):
        self.status = status
        self.body = body
        self.failure = failure

    @staticmethod
    def from_message(message):
        if message.get("timeout"):
            return HTTPResult(None, "", "timed out")
        if message.get("error") is not None:
            return HTTPResult(None, "", str(message["error"]))
        status = message.get("status")
        if not isinstance(status, int):
            raise ProtocolError("response without status, error or timeout")
        body = message.get("body")
        return HTTPResult(status, body if isinstance(body, str) else "")

    @staticmethod
    def timed_out():
        return HTTPResult(None, "", "timed out")

    @property
    def ok(self):
        return self.status == 200


# ----------------------------------------------------------------------------------------------
# Transports: how a request leaves the engine and how its answer comes back (PORTING.md)

class HarnessTransport:
    """The harness network: a request is a `request` line, its answer a later `response` message."""

    def begin(self, message):
        pass  # the harness adds the device's cookies itself

    def send(self, app, request_id, method, url, headers, body):
        """The line that stands for the request in the port's answer."""
        return {"type": "request", "app": app, "id": request_id, "method": method, "url": url,
                "headers": headers, "body": body}

    def answer(self, message, app, request_id):
        """The HTTPResult a `response` (or `deliver`) message hands the engine."""
        if message.get("type") != "response":
            raise ProtocolError("a %s message on the harness network" % message.get("type"))
        return HTTPResult.from_message(message)


class LiveTransport:
    """The live network: the port sends each request itself, at once, over loopback HTTP.

    The answer is kept until the harness says, in virtual time, that it arrives (`deliver`); only
    then does the engine see it, through the same HTTPResult a `response` message would give.
    """

    def __init__(self, hosts, fetch_timeout_ms):
        self.hosts = hosts                        # world origin -> (loopback host, port)
        self.timeout = fetch_timeout_ms / 1000.0  # real seconds, per socket operation
        self.cookies = {}                         # the current message's: authority -> Cookie value
        self.answers = {}                         # (app, request id) -> answer shaped as a `response`

    @staticmethod
    def from_hello(hello):
        hosts = hello.get("hosts")
        if not isinstance(hosts, dict):
            raise ProtocolError("a live hello needs a `hosts` object")
        table = {}
        for world, loopback in hosts.items():
            parts = urllib.parse.urlsplit(loopback) if isinstance(loopback, str) else None
            if parts is None or parts.scheme != "http" or not parts.hostname:
                raise ProtocolError("hosts[%r] must be an http:// loopback origin, not %r" % (world, loopback))
            try:
                port = parts.port or 80
            except ValueError:
                raise ProtocolError("hosts[%r] has an invalid port: %r" % (world, loopback)) from None
            table[LiveTransport.origin(world)] = (parts.hostname, port)
        timeout = hello.get("fetchTimeout", 10_000)
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0:
            raise ProtocolError("fetchTimeout must be a positive number of milliseconds")
        return LiveTransport(table, timeout)

    @staticmethod
    def origin(url):
        # Scheme and host compare case-insensitively; the port stays as written.
        parts = urllib.parse.urlsplit(url)
        return parts.scheme.lower() + "://" + parts.netloc.lower()

    def begin(self, message):
        cookies = message.get("cookies", {})
        if not isinstance(cookies, dict) or not all(isinstance(v, str) for v in cookies.values()):
            raise ProtocolError("`cookies` must map hosts to Cookie header values")
        self.cookies = cookies

    def send(self, app, request_id, method, url, headers, body):
        answer = self.fetch(method, url, headers, body)
        self.answers[(app, request_id)] = answer
        line = {"type": "fetched", "app": app, "id": request_id, "method": method, "url": url}
        for field in ("status", "error", "timeout"):
            if field in answer:
                line[field] = answer[field]
        return line

    def answer(self, message, app, request_id):
        if message.get("type") != "deliver":
            raise ProtocolError("a %s message on the live network" % message.get("type"))
        stored = self.answers.pop((app, request_id), None)
        if stored is None:
            raise ProtocolError("deliver for unknown request id %d of app %r" % (request_id, app))
        return HTTPResult.from_message(stored)

    def fetch(self, method, url, headers, body):
        """Sends one request like curl's --connect-to: to the loopback listener, with the world's Host."""
        # Imported here: every scenario starts a fresh interpreter, and on the harness network these
        # imports were an eighth of the suite's time (24 s -> 27 s) for nothing.
        import http.client
        import socket
        parts = urllib.parse.urlsplit(url)
        target = self.hosts.get(self.origin(url))
        if target is None:
            return {"error": "could not resolve host"}  # not on this network: nothing is connected
        path = (parts.path or "/") + ("?" + parts.query if parts.query else "")
        data = body.encode("utf-8")
        connection = http.client.HTTPConnection(target[0], target[1], timeout=self.timeout)
        try:
            connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            connection.putheader("Host", parts.netloc)
            if self.cookies.get(parts.netloc):
                connection.putheader("Cookie", self.cookies[parts.netloc])
            for name, value in headers:
                connection.putheader(name, value)
            if data or method.upper() in ("POST", "PUT", "PATCH"):
                connection.putheader("Content-Length", str(len(data)))
            connection.endheaders(data or None)
            response = connection.getresponse()
            payload = response.read()
            return {"status": response.status, "headers": [[k, v] for k, v in response.getheaders()],
                    "body": payload.decode("utf-8", errors="replace")}
        except ConnectionRefusedError:
            return {"error": "connection refused"}
        except (socket.timeout, TimeoutError):
            return {"timeout": True}
        except socket.gaierror:
            return {"error": "could not resolve host"}
        except http.client.HTTPException as error:
            return {"error": "invalid HTTP answer: %s" % (str(error) or type(error).__name__)}
        except OSError as error:
            return {"error": "connection failed: %s" % (error.strerror or error)}
        except ValueError as error:
            # http.client refuses header names or values it cannot send (a newline in an option).
            return {"error": "request not sendable: %s" % error}
        finally:
            connection.close()


def transport_for(hello):
    network = hello.get("network", "harness")
    if network == "harness":
        return HarnessTransport()
    if network == "live":
        return LiveTransport.from_hello(hello)
    raise Unimplemented("network %r" % network)


# ----------------------------------------------------------------------------------------------
# Device and per-app state

class Device:
    """What `hello` says about the device, shared by every app of the process."""

    def __init__(self, hello):
        self.platform = hello.get("platform") or "ios"
        device = hello.get("device") or "mobile"
        self.device_type = device
        self.default_sp = hello.get("defaultServiceProvider") or "https://sp.auth.adobe.com/adobe-services"
        self.svc_scheme = hello.get("svcScheme") or DEFAULT_SVC_SCHEME
        self.device_id = self.text_field(hello, "deviceID", DEVICE_ID)
        self.client_version = self.text_field(hello, "clientVersion", CLIENT_VERSION)
        timeout = hello.get("requestTimeout")
        self.request_timeout = timeout if isinstance(timeout, int) and timeout > 0 else REQUEST_TIMEOUT_MS
        # The device's shared store of authN tokens (iOS passive SSO). All apps live in this process,
        # so the port keeps it itself (PORTING.md).
        self.shared_store = None

    @staticmethod
    def text_field(hello, name, default):
        value = hello.get(name)
        return value if isinstance(value, str) and value else default

    @property
    def os_name(self):
        return "tvOS" if self.platform == "tvos" else "iOS"

    @property
    def tracking_tail(self):
        # Device type, client type (`ios` on iOS and tvOS), OS.
        return [self.device_type, "ios", self.os_name]


class StartupState:
    """One `setRequestor`: the configuration fetches in flight and what has arrived, in order."""

    def __init__(self):
        self.requestor_id = None
        self.outstanding = {}      # request id -> SP URL
        self.arrivals = []         # MVPD lists of usable answers, in order of arrival
        self.deadline_timer = None
        self.mvpds = None          # the merged list once configured; None when not configured

    @property
    def fetching(self):
        return self.deadline_timer is not None

    @property
    def configured(self):
        return self.mvpds is not None and not self.fetching

    def start(self, requestor_id, requests, deadline_timer):
        self.requestor_id = requestor_id
        self.outstanding = dict(requests)
        self.arrivals = []
        self.deadline_timer = deadline_timer
        self.mvpds = None

    def receive(self, request_id, mvpds):
        """Records one SP's answer (None when unusable); True once every fetch has settled."""
        self.outstanding.pop(request_id, None)
        if mvpds is not None:
            self.arrivals.append(mvpds)
        return not self.outstanding

    def finish(self):
        """Merges in order of arrival; the first description of an MVPD wins. True if usable."""
        self.outstanding = {}
        self.deadline_timer = None
        if not self.arrivals:
            self.mvpds = None
            return False
        merged, seen = [], set()
        for mvpds in self.arrivals:
            for mvpd in mvpds:
                if mvpd.id not in seen:
                    seen.add(mvpd.id)
                    merged.append(mvpd)
        self.arrivals = []
        self.mvpds = merged
        return True

    def mvpd(self, mvpd_id):
        for mvpd in self.mvpds or []:
            if mvpd.id == mvpd_id:
                return mvpd
        return None


class AuthenticationState:
    """The login state machine: idle, `selecting` (dialog up), `browsing`, `fetching` the token."""

    IDLE, SELECTING, BROWSING, FETCHING = "idle", "selecting", "browsing", "fetching"

    def __init__(self):
        self.phase = self.IDLE
        self.force = False
        self.data = None
        self.mvpd = None
        self.request_id = None

    @property
    def running(self):
        return self.phase != self.IDLE

    def begin(self, force, data):
        self.phase, self.force, self.data, self.mvpd, self.request_id = self.SELECTING, force, data, None, None

    def reset(self):
        self.phase, self.force, self.data, self.mvpd, self.request_id = self.IDLE, False, None, None, None


class TokenStore:
    """An app's authN token and stored selected MVPD (authZ is out of scope)."""

    def __init__(self):
        self.authn = None
        self.selected = None

    def valid_authn(self, now):
        # An expired token is as good as none and is removed when found (BEHAVIOR.md, Time).
        if self.authn is not None and self.authn.expires_ms <= now:
            self.authn = None
        return self.authn


class AppEngine:
    """One app's AccessEnabler. Each handler appends protocol messages to `self.out`."""

    def __init__(self, name, device, transport):
        self.name = name
        self.device = device
        self.transport = transport  # the network of the run: harness or live
        self.out = []
        self.options = []          # [(key, value)] in the order they were first set
        self.signed_requestor_id = None
        self.startup = StartupState()
        self.auth = AuthenticationState()
        self.store = TokenStore()
        self.queue = []            # calls waiting for a configuration: (call, args)
        self.requests = {}         # request id -> purpose: "config" or "token"
        self.timers = {}           # timer id -> purpose: "config" or ("request", request id)
        self.next_request = 0
        self.next_timer = 0

    # -- output ------------------------------------------------------------------------------

    def callback(self, name, *args):
        self.out.append({"type": "callback", "app": self.name, "callback": name, "args": list(args)})

    def status(self, ok, code):
        self.callback("setAuthenticationStatus", STATUS_SUCCESS if ok else STATUS_ERROR, code)

    def track_authn_success(self, token, from_store):
        self.callback("sendTrackingData", TRACKING_AUTHENTICATION,
                      ["true", token.mvpd_id, md5_hex(token.guid), "true" if from_store else "false"]
                      + self.device.tracking_tail)

    def authn_failure(self, code):
        # On a failure, tracking fields 1-3 are nil (other SDKs); tracking comes after the status.
        self.status(False, code)
        self.callback("sendTrackingData", TRACKING_AUTHENTICATION, ["false", None, None, None] + self.device.tracking_tail)

    def send(self, method, url, headers, body, purpose, now, deadline=True):
        self.next_request += 1
        request_id = self.next_request
        # setOptions values travel as headers named by the option; handleSVC is not sent (choice 14).
        for key, value in self.options:
            if key != "handleSVC":
                headers.append([key, value if isinstance(value, str) else json_text(value)])
        # On the live network this sends it now and reports `fetched` in the place of `request`.
        self.out.append(self.transport.send(self.name, request_id, method, url, headers, body))
        self.requests[request_id] = purpose
        if deadline:
            self.start_timer(("request", request_id), now + self.device.request_timeout)
        return request_id

    def start_timer(self, purpose, at):
        self.next_timer += 1
        self.timers[self.next_timer] = purpose
        self.out.append({"type": "timer", "app": self.name, "id": self.next_timer, "at": at})
        return self.next_timer

    def cancel_timer(self, timer_id):
        if self.timers.pop(timer_id, None) is not None:
            self.out.append({"type": "cancel-timer", "app": self.name, "id": timer_id})

    def forget_request(self, request_id):
        """Drops a request: its answer, if it ever comes, is ignored; its deadline goes too."""
        self.requests.pop(request_id, None)
        for timer_id, purpose in list(self.timers.items()):
            if purpose == ("request", request_id):
                self.cancel_timer(timer_id)

    # -- inputs ------------------------------------------------------------------------------

    def handle_call(self, call, args, now):
        if call in UNIMPLEMENTED_CALLS:
            raise Unimplemented(call)
        if call in QUEUED_CALLS and not self.startup.configured:
            # Before a (successful) configuration these wait; they start after setRequestorComplete(1).
            self.queue.append((call, args))
            return
        self.dispatch(call, args, now)

    def dispatch(self, call, args, now):
        if call == "init":
            return  # the engine already exists; the software statement is not used in this scope
        if call == "setOptions":
            self.set_options(args.get("options"))
        elif call == "setRequestor":
            self.set_requestor(args, now)
        elif call == "checkAuthentication":
            self.check_authentication(now)
        elif call == "getAuthentication":
            # `filter` only matters to Apple's picker, which this port does not implement.
            self.get_authentication(args.get("forceAuthn") is True, args.get("data"), now)
        elif call == "setSelectedProvider":
            self.set_selected_provider(args.get("mvpd"), now)
        elif call in ("handleExternalURL", "getAuthenticationToken"):
            # Choice 19: the deprecated getAuthenticationToken completes a browser login the same way.
            self.handle_external_url(now)
        elif call == "getSelectedProvider":
            self.callback("selectedProvider", self.store.selected.to_wire() if self.store.selected else None)
        else:
            raise Unimplemented(call)

    def handle_response(self, request_id, result, now):
        purpose = self.requests.pop(request_id, None)
        if purpose is None:
            return  # a request given up (timed out or superseded): its late answer changes nothing
        self.forget_request(request_id)
        if purpose == "config":
            self.configuration_arrived(request_id, result, now)
        elif purpose == "token":
            self.token_arrived(request_id, result, now)

    def handle_timer(self, timer_id, now):
        purpose = self.timers.pop(timer_id, None)
        if purpose is None:
            return
        if purpose == "config":
            # The configuration deadline: every SP still silent counts as settled without a usable answer.
            for request_id in list(self.startup.outstanding):
                self.requests.pop(request_id, None)
            self.startup.outstanding = {}
            self.configuration_settled(now)
        elif purpose[0] == "request":
            request_id = purpose[1]
            kind = self.requests.pop(request_id, None)
            if kind == "token":
                self.token_arrived(request_id, HTTPResult.timed_out(), now)

    def adopt_shared_store(self, value):
        """iOS passive SSO: setRequestor replaces the app's authN token with the shared store's."""
        if self.device.platform != "ios":
            return  # tvOS apps share nothing
        token = None
        if isinstance(value, dict) and isinstance(value.get("authnToken"), str):
            try:
                token = parse_authn_token(value["authnToken"])
            except ValueError:
                token = None
        if token is None:
            self.store.authn = None
            return
        if self.store.authn is not None and self.store.authn.guid == token.guid:
            return
        self.store.authn = token
        if self.store.selected is None or self.store.selected.id != token.mvpd_id:
            # A placeholder until the configuration on its way describes that MVPD.
            self.store.selected = MVPD(token.mvpd_id, token.mvpd_id)

    def shared_store_value(self):
        return {"authnToken": self.store.authn.xml} if self.store.authn else None

    # -- startup -----------------------------------------------------------------------------

    def set_options(self, options):
        if not isinstance(options, dict):
            raise ProtocolError("setOptions needs an options object")
        for key, value in options.items():
            self.options = [(k, v) for k, v in self.options if k != key] + [(key, value)]

    def set_requestor(self, args, now):
        requestor_id = args.get("requestorID")
        if not isinstance(requestor_id, str):
            raise ProtocolError("setRequestor needs a requestorID string")
        if isinstance(args.get("signedRequestorID"), str):
            self.signed_requestor_id = args["signedRequestorID"]
        # A login running now ends with no callback (BEHAVIOR.md, Overlapping calls).
        self.abandon_login()
        # Choice 1: a fetch still in flight is superseded and its setRequestor ends now with 0.
        if self.startup.fetching:
            for request_id in list(self.startup.outstanding):
                self.requests.pop(request_id, None)
            self.cancel_timer(self.startup.deadline_timer)
            self.callback("setRequestorComplete", STATUS_ERROR)
        sps = args.get("serviceProviders") or [self.device.default_sp]
        requests = {}
        for sp in sps:
            if not isinstance(sp, str):
                raise ProtocolError("serviceProviders must be strings")
            url = normalize_sp(sp)
            request_id = self.send("GET", url + "/config/" + urllib.parse.quote(requestor_id, safe=""),
                                   [["Accept", "application/xml"]], "", "config", now, deadline=False)
            requests[request_id] = url
        # One deadline for the whole configuration: after it, silent SPs count as settled.
        deadline = self.start_timer("config", now + self.device.request_timeout)
        self.startup.start(requestor_id, requests, deadline)

    def configuration_arrived(self, request_id, result, now):
        sp_url = self.startup.outstanding.get(request_id)
        if sp_url is None:
            return
        mvpds = None
        if result.ok:
            try:
                mvpds = parse_configuration(result.body, sp_url)
            except ValueError as error:
                print("pyport: unusable configuration from %s: %s" % (sp_url, error), file=sys.stderr)
        if self.startup.receive(request_id, mvpds):
            self.configuration_settled(now)

    def configuration_settled(self, now):
        self.cancel_timer(self.startup.deadline_timer)
        if not self.startup.finish():
            # After setRequestorComplete(0) queued calls stay queued for a later setRequestor.
            self.callback("setRequestorComplete", STATUS_ERROR)
            return
        # The stored selection takes the new configuration's description (and SP) when still offered.
        if self.store.selected is not None:
            fresh = self.startup.mvpd(self.store.selected.id)
            if fresh is not None:
                self.store.selected = fresh
        self.callback("setRequestorComplete", STATUS_SUCCESS)
        waiting, self.queue = self.queue, []
        for call, args in waiting:
            self.dispatch(call, args, now)

    # -- authentication ----------------------------------------------------------------------

    def abandon_login(self):
        """Ends the running login with no callback (a superseding call, setRequestor)."""
        if self.auth.phase == AuthenticationState.FETCHING and self.auth.request_id is not None:
            self.forget_request(self.auth.request_id)
        self.auth.reset()

    def check_authentication(self, now):
        token = self.store.valid_authn(now)
        if token is not None:
            self.status(True, USER_AUTHENTICATED)
            self.track_authn_success(token, from_store=True)
        else:
            self.authn_failure(USER_NOT_AUTHENTICATED_ERROR)

    def get_authentication(self, force, data, now):
        # A new getAuthentication supersedes a running login with no callback.
        self.abandon_login()
        token = self.store.valid_authn(now)
        if not force and token is not None:
            self.status(True, USER_AUTHENTICATED)
            self.track_authn_success(token, from_store=True)
            return
        if data is not None and self.store.selected is not None and self.store.selected.promo_temp_pass:
            raise Unimplemented("promotional TempPass (getAuthentication withData)")
        mvpds = self.startup.mvpds or []
        if not mvpds:
            # Choice 3: nothing to pick from fails at once (AND-1.8 and JS).
            self.authn_failure(GENERIC_AUTHENTICATION_ERROR)
            return
        if any(m.enable_platform_services for m in mvpds):
            raise Unimplemented("Apple SSO (TV provider picker)")
        self.auth.begin(force, data)
        self.callback("displayProviderDialog", [m.to_wire() for m in mvpds])

    def set_selected_provider(self, mvpd_id, now):
        mvpd = self.startup.mvpd(mvpd_id) if isinstance(mvpd_id, str) else None
        if mvpd is None:
            # nil or an unknown id resets the state machine, in a login or not (choice 2).
            self.abandon_login()
            self.store.selected = None
            self.authn_failure(PROVIDER_NOT_SELECTED_ERROR)
            return
        if mvpd.temp_pass or mvpd.promo_temp_pass:
            raise Unimplemented("TempPass")
        self.select(mvpd)
        if self.auth.running:
            # Picking (again) during a login restarts it with this MVPD (choice 8).
            login_force, login_data = self.auth.force, self.auth.data
            self.abandon_login()
            self.auth.begin(login_force, login_data)
            self.open_browser(mvpd)

    def select(self, mvpd):
        """A different MVPD becomes the stored one, clears the tokens and is tracked (other SDKs)."""
        changed = self.store.selected is None or self.store.selected.id != mvpd.id
        self.store.selected = mvpd
        if changed:
            self.store.authn = None
            self.callback("sendTrackingData", TRACKING_GET_SELECTED_PROVIDER, [mvpd.id] + self.device.tracking_tail)

    def open_browser(self, mvpd):
        if self.device.platform == "tvos":
            raise Unimplemented("tvOS registration-code login")
        svc = mvpd.requires_svc and self.option("handleSVC") is True
        query = [("domain_name", "adobe.com"), ("noflash", "true"), ("no_iframe", "true"),
                 ("mso_id", mvpd.id), ("requestor_id", self.startup.requestor_id or ""),
                 ("redirect_url", self.device.svc_scheme if svc else ADOBEPASS_REDIRECT_URL),
                 ("client_type", self.device.os_name), ("client_version", self.device.client_version)]
        if self.auth.data is not None:
            query.append(("generic_data", json_text(self.auth.data)))
        self.auth.phase = AuthenticationState.BROWSING
        self.auth.mvpd = mvpd
        url = mvpd.sp_url + "/authenticate/saml?" + form_encode(query)
        if svc:
            self.callback("navigateToUrl", url, True)
        else:
            self.callback("navigateToUrl", url)

    def option(self, key):
        for k, v in self.options:
            if k == key:
                return v
        return None

    def handle_external_url(self, now):
        # Choice 9: any URL completes the waiting login; with no browser login waiting it is ignored.
        if self.auth.phase != AuthenticationState.BROWSING:
            return
        fields = [("_method", "GET"), ("requestor_id", self.startup.requestor_id or ""), ("device_id", self.device.device_id)]
        if self.signed_requestor_id is not None:
            fields.append(("signed_requestor_id", self.signed_requestor_id))
        self.auth.request_id = self.send("POST", self.auth.mvpd.sp_url + "/sessionDevice",
                                         [["Content-Type", "application/x-www-form-urlencoded"]],
                                         form_encode(fields), "token", now)
        self.auth.phase = AuthenticationState.FETCHING

    def token_arrived(self, request_id, result, now):
        if self.auth.phase != AuthenticationState.FETCHING or self.auth.request_id != request_id:
            return
        self.auth.reset()
        if result.ok:
            try:
                kind, token = parse_session_device(result.body)
            except ValueError as error:
                print("pyport: unusable sessionDevice answer: %s" % error, file=sys.stderr)
                kind, token = "none", None
            if kind == "token" and token.expires_ms > now:
                self.store.authn = token
                self.status(True, USER_AUTHENTICATED)
                self.track_authn_success(token, from_store=False)
                return
            if kind == "pendingLogout":
                self.store.authn = None
        # No token, a refusal, an error status or a timeout; the selection stays (choice 6).
        self.authn_failure(GENERIC_AUTHENTICATION_ERROR)


# ----------------------------------------------------------------------------------------------
# The protocol loop

class Port:
    """Reads harness messages, routes them to the app engines, writes each answer and `idle`."""

    def __init__(self, output):
        self.output = output
        self.device = None
        self.transport = None
        self.apps = {}

    def write(self, message):
        self.output.write(json.dumps(message, ensure_ascii=False) + "\n")
        self.output.flush()

    def engine(self, message):
        name = message.get("app")
        if not isinstance(name, str):
            raise ProtocolError("message without an app name")
        if self.device is None:
            raise ProtocolError("a %s message before hello" % message.get("type"))
        if name not in self.apps:
            self.apps[name] = AppEngine(name, self.device, self.transport)
        return self.apps[name]

    def handle_line(self, line):
        try:
            message = json.loads(line)
        except ValueError as error:
            self.write({"type": "error", "message": "not JSON: %s" % error})
            return
        if not isinstance(message, dict):
            self.write({"type": "error", "message": "a message must be a JSON object"})
            return
        try:
            self.handle(message)
        except ProtocolError as error:
            self.write({"type": "error", "message": str(error)})
        except Unimplemented as what:
            self.write({"type": "unimplemented", "what": str(what)})
        except Exception as error:  # a bug here must end the scenario cleanly, not loop on a traceback
            traceback.print_exc(file=sys.stderr)
            self.write({"type": "error", "message": "internal error: %r" % error})

    def handle(self, message):
        kind = message.get("type")
        if kind == "hello":
            if message.get("protocol") != PROTOCOL_VERSION:
                raise ProtocolError("this port speaks protocol %d only" % PROTOCOL_VERSION)
            transport = transport_for(message)
            self.device, self.transport, self.apps = Device(message), transport, {}
            self.write({"type": "ready", "protocol": PROTOCOL_VERSION, "implementation": IMPLEMENTATION})
            return
        if kind not in ("call", "response", "deliver", "timer", "picker"):
            raise ProtocolError("unknown message type %r" % kind)
        engine = self.engine(message)
        now = message.get("now")
        if not isinstance(now, int):
            raise ProtocolError("message without an integer `now`")
        self.transport.begin(message)
        engine.out = []
        if kind == "call" and message.get("call") == "setRequestor":
            # setRequestor replaces the app's authN token with the shared store's; reading the store
            # is not a change to write back, so it happens before `token_before` is taken.
            engine.adopt_shared_store(self.device.shared_store)
        token_before = engine.store.authn
        if kind == "call":
            call, args = message.get("call"), message.get("args")
            if not isinstance(call, str):
                raise ProtocolError("call without a call name")
            engine.handle_call(call, args if isinstance(args, dict) else {}, now)
        elif kind in ("response", "deliver"):
            request_id = self.integer(message, "id")
            engine.handle_response(request_id, self.transport.answer(message, engine.name, request_id), now)
        elif kind == "timer":
            engine.handle_timer(self.integer(message, "id"), now)
        else:
            raise Unimplemented("Apple SSO picker")
        # Every change to the app's authN token is written to the device's shared store at once (iOS).
        if self.device.platform == "ios" and engine.store.authn is not token_before:
            self.device.shared_store = engine.shared_store_value()
        for out in engine.out:
            self.write(out)
        self.write({"type": "idle"})

    @staticmethod
    def integer(message, field):
        value = message.get(field)
        if not isinstance(value, int):
            raise ProtocolError("%s message without an integer %s" % (message.get("type"), field))
        return value


def main():
    port = Port(sys.stdout)
    for line in sys.stdin:
        if line.strip():
            port.handle_line(line)


if __name__ == "__main__":
    main()
