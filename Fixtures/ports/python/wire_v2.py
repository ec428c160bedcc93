"""REST API v2: the requests and the readers of its JSON answers (pyport; issue 30, item 6).

Learnt from Adobe's documentation only: docs/spec/reference/rest-api-v2.md (1.3 operations, 1.4 headers,
1.5 flows, 1.7 the SDK -> v2 mapping), Adobe's OpenAPI contract `restApiV2.json`, docs/MIGRATION.md and
the v2 choices of docs/CONFORMANCE.md (66-70); not from passim's Swift engine. Pure functions: the engine
(`app_engine_v2.py`) decides when to call them, these only say what goes on the wire and what an answer
means. Every reader raises ValueError on an answer it cannot use, so the engine ends the call with the
same failure callback as the SDK wire's matching failure, never with a crash.
"""

import base64
import hashlib
import json
import urllib.parse

from wire import MVPD, AuthnToken, form_encode

API_PREFIX = "/api/v2/"
# What the SDK sent as `domain_name` (rest-api-v2.md 1.3: sessions take `domainName`).
DOMAIN_NAME = "adobe.com"
# The partner Adobe documents for partner SSO (rest-api-v2.md 1.3).
APPLE = "Apple"

# X-Device-Info's `primaryHardwareType` is one of Adobe's 18 values (rest-api-v2.md 1.4); the
# SDK's device types map onto the nearest, anything else is `Unknown`.
HARDWARE_TYPES = {"mobile": "MobilePhone", "phone": "MobilePhone", "tablet": "Tablet", "tv": "TV",
                  "appletv": "SetTopBox", "settopbox": "SetTopBox", "gameconsole": "GamesConsole",
                  "desktop": "Desktop"}


def origin(url):
    """scheme://authority of an SP URL: REST API v2 lives at the root of the SP's host, whatever path
    the SDK's base URL has (docs/WIRE.md, "REST API v2": `/api/v2/` at the root of every SP host)."""
    parts = urllib.parse.urlsplit(url)
    return "%s://%s" % (parts.scheme, parts.netloc)


def api_url(sp_url, requestor, *segments, query=None):
    """`{origin}/api/v2/{requestor}/{segments…}`, each segment percent-encoded."""
    path = "/".join(urllib.parse.quote(s, safe="") for s in (requestor,) + segments)
    url = origin(sp_url) + API_PREFIX + path
    if query:
        url += "?" + form_encode(query)
    return url


def absolute(sp_url, url):
    """A URL of an answer: Adobe writes the user agent's URL relative to the SP host (`/api/v2/…`)."""
    if not isinstance(url, str) or not url:
        return None
    if url.startswith("/"):
        return origin(sp_url) + url
    return url


# -- headers (rest-api-v2.md 1.4) --------------------------------------------------------------

def b64(text):
    return base64.b64encode(text.encode("utf-8")).decode("ascii")


def b64_json(value):
    return b64(json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=True))


def device_identifier(device_id):
    """`AP-Device-Identifier: fingerprint <Base64>`, the Base64 of the SHA-256 of the device id (Adobe
    recommends a SHA-256 of the IDFV; docs/MIGRATION.md). The same device id gives the same fingerprint,
    so every app of the device is one device to the SP."""
    return "fingerprint " + base64.b64encode(hashlib.sha256(device_id.encode("utf-8")).digest()).decode("ascii")


def device_info(device):
    """`X-Device-Info`: Base64 of a JSON object with the keys Adobe marks required (model, version,
    osName, osVersion, connectionType) and a `primaryHardwareType` from its list."""
    return b64_json({
        "model": device.device_type,
        "version": device.client_version,
        "osName": device.os_name,
        "osVersion": "17.0",
        "connectionType": "WiFi",
        "primaryHardwareType": HARDWARE_TYPES.get(device.device_type.lower(), "Unknown"),
    })


def device_headers(device):
    return [["Accept", "application/json"], ["AP-Device-Identifier", device_identifier(device.device_id)],
            ["X-Device-Info", device_info(device)]]


def temp_pass_identity(data):
    """`AP-TempPass-Identity`: Base64 of a JSON object (a promotional TempPass's identity, e.g. the
    e-mail the app's getAuthentication(withData:) carries)."""
    return b64_json(data)


def partner_framework_status(provider_id):
    """`AP-Partner-Framework-Status` for Apple's framework: access granted, the provider it names (the
    MVPD's `platformMappingId`); no expiry is claimed."""
    return b64_json({"frameworkPermissionInfo": {"accessStatus": "granted"},
                     "frameworkProviderInfo": {"id": provider_id}})


FORM = ["Content-Type", "application/x-www-form-urlencoded"]
JSON = ["Content-Type", "application/json"]


def session_form(mvpd_id, redirect_url):
    """`POST sessions`' form: the MVPD, the domain, the redirect URL (rest-api-v2.md 1.3)."""
    return form_encode([("mvpd", mvpd_id), ("domainName", DOMAIN_NAME), ("redirectUrl", redirect_url)])


def resources_body(resources):
    """`POST decisions/…`' JSON body (rest-api-v2.md 1.3)."""
    return json.dumps({"resources": list(resources)}, separators=(",", ":"), ensure_ascii=False)


# -- readers ------------------------------------------------------------------------------------

def parse_json_object(body):
    try:
        value = json.loads(body)
    except (ValueError, TypeError) as error:
        raise ValueError("not JSON: %s" % error) from None
    if not isinstance(value, dict):
        raise ValueError("not a JSON object")
    return value


def flag(entry, key):
    value = entry.get(key, False)
    if not isinstance(value, bool):
        raise ValueError("%s is not a boolean" % key)
    return value


def parse_configuration(body, sp_url, promotional=frozenset()):
    """`GET configuration`: `{requestor: {mvpds: [{id, displayName, logoUrl?, isTempPass?,
    enablePlatformServices?, platformMappingId?, boardingStatus?…}]}}` → MVPDs, as the SDK's
    configuration gives them; a flag is there only where it applies, an absent one is false. Every MVPD needs an id and a display name, or the answer is unusable;
    a repeated id keeps its first entry. v2 says nothing of SVC nor of a promotional TempPass: a
    TempPass among `promotional` (the app's own set-up, hello's `promotionalTempPasses`, PORTING.md)
    is a promotional one."""
    root = parse_json_object(body)
    requestor = root.get("requestor")
    if not isinstance(requestor, dict) or not isinstance(requestor.get("mvpds"), list):
        raise ValueError("no requestor.mvpds list")
    mvpds, seen = [], set()
    for index, entry in enumerate(requestor["mvpds"]):
        if not isinstance(entry, dict):
            raise ValueError("MVPD #%d is not an object" % (index + 1))
        mvpd_id, name = entry.get("id"), entry.get("displayName")
        if not isinstance(mvpd_id, str) or not mvpd_id or not isinstance(name, str) or not name:
            raise ValueError("MVPD #%d lacks an id or a display name" % (index + 1))
        mvpd = MVPD(mvpd_id, name, sp_url)
        logo = entry.get("logoUrl")
        mvpd.logo_url = logo if isinstance(logo, str) and logo else None
        temp_pass = flag(entry, "isTempPass")
        mvpd.promo_temp_pass = temp_pass and mvpd_id in promotional
        mvpd.temp_pass = temp_pass and not mvpd.promo_temp_pass
        mvpd.enable_platform_services = flag(entry, "enablePlatformServices")
        mapping = entry.get("platformMappingId")
        mvpd.platform_mapping_id = mapping if isinstance(mapping, str) and mapping else None
        status = entry.get("boardingStatus")
        if isinstance(status, str) and status:
            if status.upper() not in ("PICKER", "SUPPORTED"):
                raise ValueError("invalid boardingStatus '%s' of MVPD '%s'" % (status, mvpd_id))
            mvpd.boarding_status = status.upper()
        if mvpd_id not in seen:
            seen.add(mvpd_id)
            mvpds.append(mvpd)
    return mvpds


def millis(value, what):
    """A millisecond timestamp: an integer (profiles, decisions) or a string of digits (sessions: the
    contract types them `string`, rest-api-v2.md 1.2)."""
    if isinstance(value, bool):
        raise ValueError("%s is not a time" % what)
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value.strip())
    raise ValueError("%s is not a time in milliseconds" % what)


class Session:
    """A `POST sessions` answer: what the app must do next (rest-api-v2.md 1.3)."""

    def __init__(self, action, code, session_id, url, not_after, mvpd):
        self.action = action          # authenticate, resume/retry, authorize, partner_profile
        self.code = code
        self.session_id = session_id
        self.url = url
        self.not_after = not_after    # ms, or None when the answer gives none (authorize)
        self.mvpd = mvpd


def parse_session(body):
    answer = parse_json_object(body)
    action = answer.get("actionName")
    if not isinstance(action, str):
        raise ValueError("no actionName")
    code, session_id, url = answer.get("code"), answer.get("sessionId"), answer.get("url")
    if action == "authenticate" and (not isinstance(code, str) or not code):
        raise ValueError("an authenticate answer without a code")
    if not isinstance(session_id, str):
        session_id = None
    not_after = millis(answer["notAfter"], "notAfter") if "notAfter" in answer else None
    mvpd = answer.get("mvpd") if isinstance(answer.get("mvpd"), str) else None
    return Session(action, code if isinstance(code, str) else None, session_id,
                   url if isinstance(url, str) else None, not_after, mvpd)


class Profile:
    """One MVPD's profile: its validity, type and attributes (rest-api-v2.md 1.3, profiles)."""

    def __init__(self, mvpd_id, not_before, not_after, kind, attributes):
        self.mvpd_id = mvpd_id
        self.not_before = not_before
        self.not_after = not_after
        self.kind = kind
        self.attributes = attributes  # [(key, value, encrypted)] in the answer's order

    def user_meta(self):
        """The attributes as the SDK's user metadata: `{data: {key: value}, encrypted: [keys]}`."""
        return {"data": {k: v for k, v, _ in self.attributes}, "encrypted": [k for k, _, enc in self.attributes if enc]}

    def token(self, guid):
        """The authN token made from the profile (docs/CONFORMANCE.md, choice 70): its expiry the
        profile's `notAfter`, its GUID the session's id, else `MVPD-notBefore`."""
        token = AuthnToken(guid or "%s-%d" % (self.mvpd_id, self.not_before), self.mvpd_id, self.not_after, None)
        token.user_meta = self.user_meta()
        token.from_apple = self.kind == "appleSSO"
        return token


def parse_profiles(body):
    """`GET profiles…` / `POST profiles/sso/…`: `{profiles: {MVPD: {notBefore, notAfter, issuer, type,
    attributes: {KEY: {value, state}}}}}` → [Profile] in the answer's order (none: [])."""
    answer = parse_json_object(body)
    profiles = answer.get("profiles")
    if not isinstance(profiles, dict):
        raise ValueError("no profiles map")
    out = []
    for mvpd_id, entry in profiles.items():
        if not isinstance(entry, dict):
            raise ValueError("the profile of %s is not an object" % mvpd_id)
        attributes = []
        raw = entry.get("attributes", {})
        if not isinstance(raw, dict):
            raise ValueError("the attributes of %s are not an object" % mvpd_id)
        for key, attribute in raw.items():
            if isinstance(attribute, dict) and "value" in attribute:
                attributes.append((key, attribute["value"], attribute.get("state") == "enc"))
            else:
                attributes.append((key, attribute, False))
        kind = entry.get("type") if isinstance(entry.get("type"), str) else "regular"
        out.append(Profile(mvpd_id, millis(entry.get("notBefore"), "notBefore"),
                           millis(entry.get("notAfter"), "notAfter"), kind, attributes))
    return out


class Decision:
    """One resource's decision: authorized or not, the media token, how long it holds, the error's details."""

    def __init__(self, resource, authorized, token, not_after, details, code):
        self.resource = resource
        self.authorized = authorized
        self.token = token                # serializedToken (authorize only)
        # The decision's own notAfter ("after which the decision is not valid"; Adobe's example puts it past
        # its media token's, which lives about 7 minutes), else the media token's when the decision has none.
        self.not_after = not_after
        self.details = details            # the error's `details` ("" when none)
        self.code = code                  # the error's enhanced code, or None


def parse_decisions(body):
    """`POST decisions/…`: `{decisions: [{resource, authorized, token?{notBefore, notAfter,
    serializedToken}, notBefore?, notAfter?, error?{code, details…}}]}` → {resource: Decision}."""
    answer = parse_json_object(body)
    decisions = answer.get("decisions")
    if not isinstance(decisions, list):
        raise ValueError("no decisions list")
    out = {}
    for entry in decisions:
        if not isinstance(entry, dict) or not isinstance(entry.get("resource"), str):
            raise ValueError("a decision without its resource")
        authorized = entry.get("authorized")
        if not isinstance(authorized, bool):
            raise ValueError("a decision without authorized")
        token, not_after = None, None
        if isinstance(entry.get("token"), dict):
            serialized = entry["token"].get("serializedToken")
            token = serialized if isinstance(serialized, str) and serialized else None
            if "notAfter" in entry["token"]:
                not_after = millis(entry["token"]["notAfter"], "token.notAfter")
        if "notAfter" in entry:
            not_after = millis(entry["notAfter"], "notAfter")
        error = entry.get("error") if isinstance(entry.get("error"), dict) else {}
        details = error.get("details") if isinstance(error.get("details"), str) else ""
        code = error.get("code") if isinstance(error.get("code"), str) else None
        out.setdefault(entry["resource"], Decision(entry["resource"], authorized, token, not_after, details, code))
    return out


def parse_logout(body, mvpd_id):
    """`GET logout/{mvpd}`: `{logouts: {MVPD: {actionName, actionType, url?}}}` → (actionName, url)."""
    answer = parse_json_object(body)
    logouts = answer.get("logouts")
    if not isinstance(logouts, dict):
        raise ValueError("no logouts map")
    entry = logouts.get(mvpd_id)
    if entry is None and len(logouts) == 1:
        entry = next(iter(logouts.values()))
    if not isinstance(entry, dict):
        raise ValueError("no logout for %s" % mvpd_id)
    url = entry.get("url")
    return entry.get("actionName"), url if isinstance(url, str) and url else None


def error_details(body):
    """The `details` of an enhanced error (`ErrorInformation`), "" when it has none; None when the body is
    not one (rest-api-v2.md 1.6)."""
    try:
        answer = parse_json_object(body)
    except ValueError:
        return None
    if not isinstance(answer.get("code"), str):
        return None
    details = answer.get("details")
    return details if isinstance(details, str) else ""
