"""Constants, wire helpers, XML readers and the model of what the SP sends (pyport)."""

import hashlib
import json
import sys
import time
import traceback
import urllib.parse
import xml.etree.ElementTree as ET

PROTOCOL_VERSION = 1
IMPLEMENTATION = "pyport 2.0 (Python AccessEnabler port, the whole of BEHAVIOR.md)"

# Constants with their iOS values (BEHAVIOR.md, "Constants"). The harness maps plain values back to
# the symbols, so the port sends what the iOS SDK would really deliver.
STATUS_SUCCESS = 1
STATUS_ERROR = 0
USER_AUTHENTICATED = ""
USER_NOT_AUTHENTICATED_ERROR = "User Not Authenticated Error"
PROVIDER_NOT_SELECTED_ERROR = "Provider Not Selected Error"
GENERIC_AUTHENTICATION_ERROR = "Generic Authentication Error"
USER_NOT_AUTHORIZED_ERROR = "User Not Authorized Error"
GENERIC_AUTHORIZATION_ERROR = "Generic Authorization Error"
ADOBEPASS_REDIRECT_URL = "adobepass://ios.app"
TRACKING_AUTHENTICATION = 0
TRACKING_AUTHORIZATION = 1
TRACKING_GET_SELECTED_PROVIDER = 2
METADATA_AUTHENTICATION, METADATA_AUTHORIZATION, METADATA_DEVICE_ID, METADATA_USER_META = 0, 1, 2, 3
METADATA_OPCODE_KEY, METADATA_RESOURCE_ID_KEY, METADATA_USER_META_KEY = "opCode", "resource_id", "user_metadata_name"
# Status codes cross the wire by symbol (PORTING.md): their iOS values are not given by BEHAVIOR.md.
VSA203, N003, N005, REGCODE, R400, REG500 = ({"$symbol": s} for s in ("VSA203", "N003", "N005", "REGCODE", "R400", "REG500"))
# Throttling (BEHAVIOR.md, Throttling): a request answered 429 says so through status(_:).
CFG429, Z100, P100 = ({"$symbol": s} for s in ("CFG429", "Z100", "P100"))

# CONFORMANCE.md choice 4: every request (the configuration fetch included) gives up after 30 s.
REQUEST_TIMEOUT_MS = 30_000
DEFAULT_SVC_SCHEME = "adbe.u-passim://adobe.com"
# The port has no real device; every app of the one simulated device shares this id.
DEVICE_ID = "pyport-device"
CLIENT_VERSION = "3.7.1"
# tvOS: the poll interval of a registration code (IOS-CONST-2016 CLIENTLESS_POLL_TIMER_INTERVAL).
POLL_INTERVAL_MS = 10_000

# Calls that wait for a configuration (BEHAVIOR.md, Startup: "Queueing").
QUEUED_CALLS = {"checkAuthentication", "getAuthentication", "checkAuthorization", "getAuthorization",
                "checkPreauthorizedResources", "getMetadata", "logout"}

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
    """The fields of an authN token the engine uses; `xml` is kept verbatim (the shared store, and
    `authentication_token` on the requests that need it)."""

    def __init__(self, guid, mvpd_id, expires_ms, xml, name_id=None, session_index=None):
        self.guid = guid
        self.mvpd_id = mvpd_id
        self.expires_ms = expires_ms
        self.xml = xml
        self.name_id = name_id
        self.session_index = session_index
        self.user_meta = None      # the <userMeta> JSON of the sessionDevice answer, if any
        self.from_apple = False    # obtained from Apple's token (a SUPPORTED MVPD): logout says VSA203
        self.temp_pass_identity = None  # REST API v2: a promotional TempPass's identity, sent with each decision


SIGNATURE_INFO = "<signatureInfo>"


def token_document(text):
    """The XML of a token in Adobe's envelope, `<signatureInfo>SIG<signatureInfo><simple…Token>…`: the
    third piece, as Adobe's SDKs read it; a text without the envelope is returned as it is."""
    if not text.strip().startswith(SIGNATURE_INFO):
        return text
    pieces = text.strip().split(SIGNATURE_INFO)
    if len(pieces) != 3:
        raise ValueError("a token must have %s exactly twice, before its XML" % SIGNATURE_INFO)
    return pieces[2]


def parse_authn_token(text):
    """Adobe's envelope around `<simpleAuthenticationToken>` (also the `<authnToken>` root passim
    wrote before, and a bare inner element)."""
    root = parse_xml(token_document(text))
    simple = root if root.tag == "simpleAuthenticationToken" else root.find("simpleAuthenticationToken")
    if root.tag not in ("authnToken", "simpleAuthenticationToken") or simple is None:
        raise ValueError("not an authN token")
    guid = child_text(simple, "simpleTokenAuthenticationGuid")
    mvpd_id = child_text(simple, "simpleTokenMsoID")
    expires = parse_token_date(child_text(simple, "simpleTokenExpires") or "")
    if not guid or not mvpd_id or expires is None:
        raise ValueError("the authN token lacks its GUID, MVPD or expiry")
    return AuthnToken(guid, mvpd_id, expires, text, child_text(simple, "simpleSamlNameID"),
                      child_text(simple, "simpleSamlSessionIndex"))


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
        parsed = parse_authn_token((token.text or "").strip())
        meta = root.find("userMeta")
        if meta is not None and (meta.text or "").strip():
            try:
                parsed.user_meta = json.loads(meta.text)
            except ValueError:
                parsed.user_meta = None
        return "token", parsed
    if root.find("pendingLogout") is not None:
        return "pendingLogout", None
    return "none", None


class AuthzToken:
    """An authZ token: its text (sent back as `authz_token`) and its expiry."""

    def __init__(self, resource, expires_ms, xml):
        self.resource = resource
        self.expires_ms = expires_ms
        self.xml = xml


def parse_authorize(body, resource, now):
    """`POST authorizeDevice` 200: `<result><authzToken>ESCAPED</authzToken></result>` (facts §4)."""
    root = parse_xml(body)
    element = root if root.tag == "authzToken" else root.find("authzToken")
    if element is None:
        raise ValueError("no <authzToken> in <%s>" % root.tag)
    text = (element.text or "").strip()
    inner = parse_xml(token_document(text))
    expires = None
    for node in inner.iter("simpleTokenExpires"):
        expires = parse_token_date(node.text or "")
    if expires is None:
        for node in inner.iter("simpleTokenTTL"):
            try:
                expires = now + int((node.text or "").strip())
            except ValueError:
                expires = None
    if expires is None:
        raise ValueError("the authZ token has no expiry")
    return AuthzToken(resource, expires, text)


def error_details(body):
    """The <details> of an `<error>` body (the MVPD's message, "" when none), or None when not one."""
    try:
        root = parse_xml(body)
    except ValueError:
        return None
    if root.tag != "error":
        return None
    return child_text(root, "details") or ""


def parse_preauthorize(body):
    """`POST preauthorize` 200: resource id -> allowed, from `<resources><resource><id/><authorized/>`."""
    root = parse_xml(body)
    decisions = {}
    for resource in root.iter("resource"):
        resource_id = child_text(resource, "id")
        if resource_id is None:
            raise ValueError("a <resource> without <id>")
        decisions[resource_id] = (child_text(resource, "authorized") or "").lower() == "true"
    return decisions


def format_token_date(ms):
    """Milliseconds -> the token date format `yyyy/MM/dd HH:mm:ss 'GMT' Z`, in GMT (no locale involved)."""
    return time.strftime("%Y/%m/%d %H:%M:%S GMT +0000", time.gmtime(ms // 1000))


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

