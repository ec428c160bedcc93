"""Client registration (SDK 3.x, Adobe's DCR) and signed second-screen calls (SDK 2.x tvOS).

BEHAVIOR.md, "Client registration and request signing". `Registrar` keeps, per SP origin, the client
and its access token, and the engine's requests that wait for them; `sign` builds the clientless
API's HMAC-SHA1 `Authorization` header.
"""

import base64
import hashlib
import hmac
import json
import urllib.parse

from wire import ADOBEPASS_REDIRECT_URL, form_encode


def origin_of(url):
    parts = urllib.parse.urlsplit(url)
    return parts.scheme.lower() + "://" + parts.netloc.lower()


class OriginRegistration:
    """One SP origin: its client, its access token, and the requests waiting for a token."""

    def __init__(self):
        self.client_id = None
        self.client_secret = None
        self.access_token = None
        self.expires_ms = None
        self.in_flight = None      # "register" or "token" while one of those requests is out
        self.sent_at = None        # when the token request out was sent: its expires_in counts from then
        self.renewing = False      # the token request out renews one this client had (choice 33)
        self.waiting = []          # request ids of the engine waiting for this origin's token

    def token_valid(self, now):
        return self.access_token is not None and (self.expires_ms is None or now < self.expires_ms)


class Registrar:
    """The software statement of `init(softwareStatement:)` and what each origin gave for it."""

    def __init__(self, statement):
        self.statement = statement
        self.origins = {}

    def origin(self, url):
        return self.origins.setdefault(origin_of(url), OriginRegistration())

    def next_step(self, url):
        """The registration request to send next for the origin of `url`: (method, url, headers, body)."""
        state = self.origin(url)
        base = origin_of(url)
        if state.client_id is None:
            state.in_flight = "register"
            body = json.dumps({"software_statement": self.statement, "redirect_uri": ADOBEPASS_REDIRECT_URL},
                              separators=(",", ":"))
            return "POST", base + "/o/client/register", [["Content-Type", "application/json"]], body
        state.in_flight = "token"
        body = form_encode([("grant_type", "client_credentials"), ("client_id", state.client_id),
                            ("client_secret", state.client_secret)])
        return "POST", base + "/o/client/token", [["Content-Type", "application/x-www-form-urlencoded"]], body

    @staticmethod
    def read_client(result):
        """(client_id, client_secret) of a registration answer (any 2xx, as the engine takes it; Adobe's
        page answers 201), or None when refused or unreadable."""
        if result.status is None or not 200 <= result.status < 300:
            return None
        try:
            answer = json.loads(result.body)
        except ValueError:
            return None
        if not isinstance(answer, dict):
            return None
        client_id, secret = answer.get("client_id"), answer.get("client_secret")
        if not isinstance(client_id, str) or not isinstance(secret, str):
            return None
        return client_id, secret

    @staticmethod
    def read_token(result, now):
        """(access_token, expiry ms or None) of a token answer (any 2xx, as the engine takes it; Adobe's
        page answers 201), or None when refused or unreadable."""
        if result.status is None or not 200 <= result.status < 300:
            return None
        try:
            answer = json.loads(result.body)
        except ValueError:
            return None
        if not isinstance(answer, dict) or not isinstance(answer.get("access_token"), str):
            return None
        expires_in = answer.get("expires_in")
        expires = now + int(expires_in) * 1000 if isinstance(expires_in, (int, float)) and not isinstance(expires_in, bool) else None
        return answer["access_token"], expires


def sign(method, url, requestor_id, secret, public_key, nonce, now):
    """Adobe's clientless `Authorization` header: the HMAC-SHA1 (keyed by the secret, base64) of the
    header's text up to `, public_key=`, appended after the public key."""
    path = urllib.parse.urlsplit(url).path or "/"
    text = "%s requestor_id=%s, nonce=%s, signature_method=HMAC-SHA1, request_time=%d, request_uri=%s" % (
        method.upper(), requestor_id, nonce, now, path)
    digest = hmac.new(secret.encode("utf-8"), text.encode("utf-8"), hashlib.sha1).digest()
    return "%s, public_key=%s, signature=%s" % (text, public_key, base64.b64encode(digest).decode("ascii"))
