"""REST API v2 and DCR, checked against Adobe's own OpenAPI contract (issue 26).

Drives a running `passim serve --proxy` through every operation of `restApiV2.json` (13) and of
`dcrApi.json` (2), with Python `requests` on Adobe's host names, and validates every answer with
openapi-core against those files. Adobe's files are read from --spec-dir (never copied into this
repository). Where the contract and Adobe's prose disagree, the mock follows the prose and this
check relaxes exactly the named parts of the contract (contract_quirks.py, each listed in docs/WIRE.md,
"REST API v2"); an answer whose status the contract does not declare for its operation (Adobe's
code table gives 403 where the contract lists none) is validated against `ErrorInformation` and
reported as such. Each flow is also checked field by field.

    check_contract.py --proxy URL --ca FILE --admin URL --admin-token TOKEN --spec-dir DIR
        --requestor ID --statement S --other-statement S2

Prints one line per check ("ok   ..." or "FAIL ..."), then the operations covered; exit status 1 if
any check failed or an operation went unexercised.
"""

import argparse
import base64
import html.parser
import itertools
import json
import re
import sys
import urllib.parse

import requests
from contract_quirks import relaxed
from openapi_core import OpenAPI
from openapi_core.contrib.requests import RequestsOpenAPIRequest, RequestsOpenAPIResponse
from openapi_schema_validator import OAS30Validator

BASE = "https://sp.auth.adobe.com"
IDP = "https://passimcable.idp.test"
MVPD = "PassimCable"
REDIRECT = "https://programmer.example/done"


def b64(text):
    return base64.b64encode(text.encode()).decode()


DEVICE_INFO = b64(json.dumps({
    "primaryHardwareType": "SetTopBox", "model": "Passim Box", "version": "1.0.0", "manufacturer": "Passim",
    "osName": "Linux", "osFamily": "Linux", "osVersion": "6.1", "connectionType": "LAN", "applicationId": "passim-check",
}))


class Forms(html.parser.HTMLParser):
    """The forms of a page: action, method and every input's name and value."""

    def __init__(self):
        super().__init__()
        self.forms = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.forms.append({"action": a.get("action", ""), "method": (a.get("method") or "GET").upper(), "fields": []})
        elif tag == "input" and self.forms and a.get("name"):
            self.forms[-1]["fields"].append((a["name"], a.get("value") or ""))


class Contract:
    def __init__(self, path):
        spec = relaxed(path)
        self.spec = spec
        self.api = OpenAPI.from_dict(spec)
        self.prefix = urllib.parse.urlsplit(spec["servers"][0]["url"]).path
        self.operations = []
        for template, item in spec["paths"].items():
            pattern = re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(self.prefix + template)) + "$")
            for method, op in item.items():
                if method in ("get", "post", "put", "delete", "patch"):
                    self.operations.append((method.upper(), pattern, op.get("operationId", template)))
        schema = spec.get("components", {}).get("schemas", {}).get("ErrorInformation")
        self.error_validator = OAS30Validator(schema) if schema else None

    def operation(self, method, path):
        for m, pattern, op_id in self.operations:
            if m == method and pattern.match(path):
                return op_id
        return None


class Checker:
    def __init__(self, args):
        self.args = args
        self.session = requests.Session()
        self.session.proxies = {"http": args.proxy, "https": args.proxy}
        self.session.verify = args.ca
        self.session.trust_env = False
        self.v2 = Contract(f"{args.spec_dir}/restApiV2.json")
        self.dcr = Contract(f"{args.spec_dir}/dcrApi.json")
        self.covered = {}
        self.failures = 0
        self.checks = 0
        self.undeclared = []
        self.addresses = (f"198.18.{i // 250}.{i % 250 + 1}" for i in itertools.count())
        self.fixed_address = None

    def report(self, ok, what):
        self.checks += 1
        if not ok:
            self.failures += 1
        print(("ok   " if ok else "FAIL ") + what, flush=True)

    def expect(self, condition, what):
        self.report(bool(condition), what)
        return condition

    def send(self, method, url, headers=None, session=None, **kwargs):
        """One request, not following redirects; its answer validated when it is REST v2 or DCR."""
        headers = dict(headers or {})
        headers["X-Forwarded-For"] = self.fixed_address or next(self.addresses)
        request = requests.Request(method, url, headers=headers, **kwargs)
        session = session or self.session
        prepared = session.prepare_request(request)
        response = session.send(prepared, allow_redirects=False, timeout=10)
        path = urllib.parse.urlsplit(url).path
        for contract in (self.v2, self.dcr):
            op_id = contract.operation(method, path)
            if op_id:
                self.validate(contract, op_id, prepared, response)
                break
        return response

    def validate(self, contract, op_id, prepared, response):
        label = f"{op_id} {response.status_code}"
        try:
            contract.api.validate_response(RequestsOpenAPIRequest(prepared), RequestsOpenAPIResponse(response))
        except Exception as error:  # openapi-core's validation errors, reported with their cause
            name = type(error).__name__
            if name == "ResponseNotFound" and contract.error_validator is not None and response.status_code in (403, 429):
                body = response.json() if response.headers.get("Content-Type", "").startswith("application/json") else None
                errors = [] if body is None else list(contract.error_validator.iter_errors(body))
                ok = body is not None and (response.status_code == 429 or not errors)
                self.undeclared.append(label)
                self.report(ok, f"contract: {label} (status not declared for the operation; body {'is' if ok else 'is not'} an ErrorInformation)")
                return
            cause = getattr(error, "__cause__", None)
            details = "; ".join(str(e.message) for e in getattr(cause, "schema_errors", []) or []) or str(cause or error)
            self.report(False, f"contract: {label}: {name}: {details[:400]}")
            return
        self.covered.setdefault(op_id, set()).add(response.status_code)
        self.report(True, f"contract: {label}")

    # -- helpers ---------------------------------------------------------------------------------

    def headers(self, token, device="checker-device-1", **extra):
        h = {"Authorization": "Bearer " + token, "AP-Device-Identifier": "fingerprint " + b64(device),
             "X-Device-Info": DEVICE_INFO, "Accept": "application/json"}
        h.update(extra)
        return h

    def v2url(self, path):
        return f"{BASE}/api/v2/{self.args.requestor}{path}"

    def register(self, statement):
        r = self.send("POST", BASE + "/o/client/register", json={"software_statement": statement, "redirect_uri": REDIRECT},
                      headers={"X-Device-Info": DEVICE_INFO})
        self.expect(r.status_code == 201, f"DCR register: 201 (got {r.status_code})")
        client = r.json()
        r = self.send("POST", BASE + "/o/client/token", params={"client_id": client["client_id"],
                                                                "client_secret": client["client_secret"],
                                                                "grant_type": "client_credentials"})
        self.expect(r.status_code == 201 and r.json().get("token_type") == "bearer", f"DCR token: 201, a bearer access token (got {r.status_code})")
        return r.json()["access_token"]

    def user_agent(self, url, username="viewer", password="s3cret"):
        """A browser from `url` through the SP's and the IdP's pages to the programmer's redirect: a
        second screen, sharing nothing with the device's client (no token, no cookies)."""
        browser = requests.Session()
        browser.proxies, browser.verify, browser.trust_env = self.session.proxies, self.session.verify, False
        method, data = "GET", None
        for _ in range(8):
            r = self.send(method, url, data=data, session=browser)
            if 300 <= r.status_code < 400:
                location = urllib.parse.urljoin(url, r.headers.get("Location", ""))
                if location.startswith("https://programmer.example/"):
                    return location
                url, method, data = location, "GET", None
                continue
            parser = Forms()
            parser.feed(r.text)
            if len(parser.forms) != 1:
                self.report(False, f"user agent: {url} answered {r.status_code} without one form")
                return None
            form = parser.forms[0]
            fields = [(n, username if n == "username" else password if n == "password" else v) for n, v in form["fields"]]
            url, method, data = urllib.parse.urljoin(url, form["action"]), form["method"], fields
        return None

    # -- flows -----------------------------------------------------------------------------------

    def run(self):
        token = self.register(self.args.statement)
        other = self.register(self.args.other_statement)
        h = self.headers(token)

        r = self.send("GET", self.v2url("/configuration"), headers={"Authorization": "Bearer " + token})
        ids = [m.get("id") for m in r.json().get("requestor", {}).get("mvpds", [])]
        self.expect(ids == [MVPD, "TempPass_TEST40", "PromoPass", "DegradedCable", "OAuthCable"], f"configuration: the MVPDs in order ({ids})")

        # Basic primary flow with a resumed session.
        r = self.send("POST", self.v2url("/sessions"), headers=h, data={"domainName": "programmer.example"})
        s = r.json()
        self.expect(s.get("actionName") == "resume" and s.get("missingParameters") == ["mvpd", "redirectUrl"],
                    "sessions: resume with the missing parameters")
        code = s.get("code", "")
        r = self.send("POST", self.v2url(f"/sessions/{code}"), headers={"Authorization": "Bearer " + token}, data={"mvpd": MVPD})
        self.expect(r.json().get("actionName") == "retry", "sessions/{code}: retry while redirectUrl is missing")
        r = self.send("GET", self.v2url(f"/sessions/{code}"), headers={"Authorization": "Bearer " + token})
        st = r.json()
        self.expect(st.get("existingParameters") == {"mvpd": MVPD, "domainName": "programmer.example",
                                                     "serviceProvider": self.args.requestor}
                    and st.get("device", {}).get("type") == "SetTopBox", "sessions/{code} GET: parameters and device")
        r = self.send("POST", self.v2url(f"/sessions/{code}"), headers={"Authorization": "Bearer " + token},
                      data={"redirectUrl": REDIRECT})
        s = r.json()
        self.expect(s.get("actionName") == "authenticate" and s.get("url") == f"/api/v2/authenticate/{self.args.requestor}/{code}",
                    "sessions/{code}: authenticate with the user agent's URL")
        r = self.send("GET", self.v2url(f"/profiles/code/{code}"), headers={"Authorization": "Bearer " + token})
        self.expect(r.json() == {"profiles": {}}, "profiles/code/{code}: empty before the login")
        landed = self.user_agent(BASE + s.get("url", ""))
        self.expect(landed == REDIRECT, f"authenticate: the user agent ends at redirectUrl ({landed})")
        r = self.send("GET", self.v2url(f"/profiles/code/{code}"), headers={"Authorization": "Bearer " + token})
        p = r.json().get("profiles", {}).get(MVPD, {})
        self.expect(p.get("type") == "regular" and p.get("issuer") == MVPD and p.get("attributes", {}).get("zip", {}).get("state") == "enc"
                    and p.get("attributes", {}).get("householdID") == {"value": "h-1", "state": "plain"},
                    "profiles/code/{code}: the regular profile with its attributes")
        r = self.send("GET", self.v2url("/profiles"), headers=h)
        self.expect(list(r.json().get("profiles", {})) == [MVPD], "profiles: the device's one profile")
        r = self.send("GET", self.v2url(f"/profiles/{MVPD}"), headers=h)
        self.expect(r.json().get("profiles", {}).get(MVPD, {}).get("notAfter", 0) > p.get("notBefore", 0), "profiles/{mvpd}")

        r = self.send("POST", self.v2url(f"/decisions/authorize/{MVPD}"), headers=h, json={"resources": ["passimtv", "passimtv-ppv"]})
        d = r.json().get("decisions", [{}, {}])
        token_ok = False
        try:
            media = base64.b64decode(d[0]["token"]["serializedToken"]).decode()
            token_ok = "passimtv" in media and d[0]["token"]["notAfter"] - d[0]["token"]["notBefore"] == 7 * 60 * 1000
        except (KeyError, ValueError, TypeError):
            pass
        self.expect(d[0].get("authorized") is True and d[0].get("source") == "mvpd" and token_ok,
                    "authorize: a permit with a 7-minute media token")
        self.expect(d[1].get("authorized") is False and d[1].get("error", {}).get("code") == "authorization_denied_by_mvpd"
                    and d[1]["error"].get("details") == "Passim PPV is not in your package.", "authorize: the MVPD's deny")
        r = self.send("POST", self.v2url(f"/decisions/preauthorize/{MVPD}"), headers=h, json={"resources": ["passimtv", "passimtv-ppv"]})
        d = r.json().get("decisions", [{}, {}])
        self.expect("token" not in d[0] and d[1].get("error", {}).get("code") == "preauthorization_denied_by_mvpd",
                    "preauthorize: no token, the preauthorization deny")
        r = self.send("GET", self.v2url(f"/logout/{MVPD}"), headers=h, params={"redirectUrl": REDIRECT})
        out = r.json().get("logouts", {}).get(MVPD, {})
        self.expect(out.get("actionName") == "logout" and out.get("actionType") == "interactive", "logout: logout/interactive")
        self.expect(self.user_agent(out.get("url", BASE)) == REDIRECT, "logout: the SAML logout ends at redirectUrl")
        r = self.send("GET", self.v2url(f"/logout/{MVPD}"), headers=h, params={"redirectUrl": REDIRECT})
        self.expect(r.json().get("logouts", {}).get(MVPD, {}).get("actionName") == "invalid", "logout: invalid/none without a profile")

        # Apple partner SSO.
        pfs = b64(json.dumps({"frameworkPermissionInfo": {"accessStatus": "granted"},
                              "frameworkProviderInfo": {"id": "passimcable-apple-id"}}))
        ha = self.headers(token, device="checker-apple-tv", **{"AP-Partner-Framework-Status": pfs})
        r = self.send("POST", self.v2url("/sessions/sso/Apple"), headers=ha, data={"domainName": "programmer.example", "redirectUrl": REDIRECT})
        self.expect(r.json().get("actionName") == "partner_profile" and r.json().get("mvpd") == MVPD, "sessions/sso/Apple: partner_profile")
        saml = self.session.post(IDP + "/platform-sso", data={"username": "viewer", "password": "s3cret"}, timeout=10)
        r = self.send("POST", self.v2url("/profiles/sso/Apple"), headers=ha, data={"SAMLResponse": b64(saml.text)})
        p = r.json().get("profiles", {}).get(MVPD, {})
        self.expect(r.status_code == 201 and p.get("type") == "appleSSO" and p.get("issuer") == "Apple", "profiles/sso/Apple: 201 appleSSO")
        r = self.send("POST", self.v2url(f"/decisions/authorize/{MVPD}"), headers=ha, json={"resources": ["passimtv-late"]})
        self.expect(r.json()["decisions"][0].get("error", {}).get("code") == "authorization_denied_by_parental_controls",
                    "parental controls: the decision's code")
        r = self.send("GET", self.v2url(f"/logout/{MVPD}"), headers=ha, params={"redirectUrl": REDIRECT})
        self.expect(r.json().get("logouts", {}).get(MVPD, {}).get("actionType") == "partner_interactive", "logout: partner_logout")

        # An MVPD whose IdP speaks OAuth2 with PKCE, behind the same authenticate URL.
        ho = self.headers(token, device="checker-oauth")
        r = self.send("POST", self.v2url("/sessions"), headers=ho, data={"mvpd": "OAuthCable", "domainName": "d", "redirectUrl": REDIRECT})
        landed = self.user_agent(BASE + r.json().get("url", ""), username="oviewer", password="0auth")
        self.expect(landed == REDIRECT, f"OAuth2 + PKCE: the user agent ends at redirectUrl ({landed})")
        r = self.send("GET", self.v2url("/profiles/OAuthCable"), headers=ho)
        self.expect(r.json().get("profiles", {}).get("OAuthCable", {}).get("attributes", {}).get("userID", {}).get("value") == "oviewer",
                    "OAuth2 + PKCE: the profile of the IdP's user")

        # The world's rest-v2 lines: a degraded MVPD.
        hd = self.headers(token, device="checker-degraded")
        r = self.send("POST", self.v2url("/sessions"), headers=hd, data={"mvpd": "DegradedCable", "domainName": "d", "redirectUrl": REDIRECT})
        self.expect(r.json().get("reasonType") == "degraded", "degradation: authorize/degraded without a login")
        r = self.send("POST", self.v2url("/decisions/authorize/DegradedCable"), headers=hd, json={"resources": ["anything"]})
        self.expect(r.json()["decisions"][0].get("source") == "degradation", "degradation: decisions from the rule")

        # TempPass and promotional TempPass.
        ht = self.headers(token, device="checker-temppass")
        r = self.send("POST", self.v2url("/sessions"), headers=ht, data={"mvpd": "TempPass_TEST40", "domainName": "d", "redirectUrl": REDIRECT})
        self.expect(r.json().get("reasonType") == "temporary", "TempPass: authorize/temporary at once")
        r = self.send("POST", self.v2url("/decisions/authorize/TempPass_TEST40"), headers=ht, json={"resources": ["passimtv-ppv"]})
        self.expect(r.json()["decisions"][0].get("source") == "temppass", "TempPass: decisions from the TempPass")
        r = self.send("GET", self.v2url("/logout/TempPass_TEST40"), headers=ht, params={"redirectUrl": REDIRECT})
        self.expect(r.json()["logouts"]["TempPass_TEST40"].get("actionName") == "complete", "TempPass: logout complete/none")
        hp = self.headers(token, device="checker-promo", **{"AP-TempPass-Identity": b64(json.dumps({"email": "viewer@example.test"}))})
        r = self.send("POST", self.v2url("/sessions"), headers=hp, data={"mvpd": "PromoPass", "domainName": "d", "redirectUrl": REDIRECT})
        self.expect(r.json().get("reasonType") == "temporary", "promotional TempPass with an identity")

        # Refusals, each an enhanced error code the contract's ErrorInformation describes.
        bad = [
            ("GET", "/configuration", {}, {}, 401, "invalid_access_token_client_application"),
            ("GET", "/configuration", {"Authorization": "Bearer " + other}, {}, 401, "invalid_access_token_service_provider"),
            ("POST", "/sessions", self.headers(token, **{"AP-Device-Identifier": "fingerprint ???"}), {}, 400, "invalid_header_device_identifier"),
            ("POST", "/sessions", self.headers(token, **{"X-Device-Info": b64("{}")}), {}, 400, "invalid_header_device_info"),
            ("POST", "/sessions", h, {"data": {"mvpd": "Nobody"}}, 400, "invalid_parameter_mvpd"),
            ("POST", "/sessions", h, {"data": {"redirectUrl": "not a url"}}, 400, "invalid_parameter_redirect_url"),
            ("GET", "/sessions/ZZZZZZZ", h, {}, 400, "invalid_parameter_code"),
            ("POST", f"/decisions/authorize/{MVPD}", h, {"data": "{"}, 400, "invalid_parameter_resources"),
            ("POST", f"/decisions/authorize/{MVPD}", h, {"json": {"resources": [f"r{i}" for i in range(10000)]}}, 403, "too_many_resources"),
            ("POST", "/sessions/sso/Roku", ha, {"data": {"redirectUrl": REDIRECT}}, 400, "invalid_parameter_partner"),
            ("POST", "/profiles/sso/Apple", ha, {"data": {"SAMLResponse": "bm90"}}, 400, "invalid_parameter_saml_response"),
            ("POST", "/sessions", self.headers(token, device="checker-promo-2"), {"data": {"mvpd": "PromoPass"}}, 400,
             "invalid_header_identity_for_temporary_access"),
        ]
        for method, path, headers, kwargs, status, code in bad:
            r = self.send(method, self.v2url(path), headers=headers, **kwargs)
            body = r.json() if r.headers.get("Content-Type", "").startswith("application/json") else {}
            self.expect(r.status_code == status and body.get("code") == code and body.get("trace"),
                        f"refusal: {method} {path.split('?')[0]} -> {status} {code} (got {r.status_code} {body.get('code')})")
        r = self.send("GET", f"{BASE}/api/v2/nobody/configuration", headers={"Authorization": "Bearer " + token})
        self.expect(r.json().get("code") == "invalid_parameter_service_provider", "refusal: an unknown service provider")

        # Throttling: Adobe's worked table, the server's clock held at each row.
        start = 1_900_000_000_000
        table = [(0, 200), (300, 200), (600, 200), (900, 200), (1200, 200), (1300, 200), (1400, 200), (1500, 200), (1600, 200),
                 (1700, 200), (1800, 200), (2100, 200), (2200, 200), (2400, 429), (2600, 429), (2800, 429), (3100, 200)]
        self.fixed_address = "192.0.2.10"
        answers = []
        for t, _ in table:
            self.hold(start + t)
            answers.append(self.send("GET", self.v2url("/configuration"), headers={"Authorization": "Bearer " + self.register_late(token)}).status_code)
        self.expect(answers == [s for _, s in table], f"throttling: Adobe's table row by row ({answers})")
        self.fixed_address = None

        wanted = {op for _, _, op in self.v2.operations} | {op for _, _, op in self.dcr.operations}
        missing = sorted(op for op in wanted if not any(200 <= s < 400 for s in self.covered.get(op, ())))
        self.expect(not missing, f"coverage: {len(wanted) - len(missing)} of {len(wanted)} operations answered 2xx/3xx and validated"
                    + (f"; missing {missing}" if missing else ""))
        if self.undeclared:
            print("note statuses the contract does not declare: " + ", ".join(sorted(set(self.undeclared))))
        print(f"restv2-contract: {self.checks - self.failures} ok, {self.failures} failed")
        return 1 if self.failures else 0

    def register_late(self, token):
        # The held clock is past the access token's life (1 h): the table's calls need a live one.
        if not hasattr(self, "_late"):
            self.fixed_address, saved = None, self.fixed_address
            self._late = self.register(self.args.statement)
            self.fixed_address = saved
        return self._late

    def hold(self, ms):
        r = requests.post(self.args.admin + "/admin/clock", json={"hold": ms},
                          headers={"Authorization": "Bearer " + self.args.admin_token}, timeout=10)
        if r.status_code != 200:
            raise SystemExit(f"restv2-contract: holding the clock failed: {r.status_code} {r.text}")


def main():
    parser = argparse.ArgumentParser()
    for name in ("--proxy", "--ca", "--admin", "--admin-token", "--spec-dir", "--requestor", "--statement", "--other-statement"):
        parser.add_argument(name, required=True)
    sys.exit(Checker(parser.parse_args()).run())


if __name__ == "__main__":
    main()
