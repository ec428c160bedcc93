"""The REST API v2 wire of pyport (issue 30, item 6): the request builders and answer readers of
wire_v2.py, then port.py driven through stdin/stdout with a `"wire": "v2"` hello.

Malformed answers end each call with the failure callback of the SDK wire's matching failure (an
unusable configuration: setRequestorComplete(0); a login: Generic Authentication Error; an
authorization: Generic Authorization Error; a preauthorization: only what the cache allows; a logout:
the redirect URL), never with a crash, an `error` message or a hang.

Run: python3 -m unittest discover -s Fixtures/ports/python
"""

import base64
import hashlib
import json
import unittest

import wire_v2
from state import Device
from test_port import SP, T0, PortTestCase, call, callbacks, of_type

REQ = "REQ1"
# As the mock and Adobe's sample write it: a flag only where it applies (an absent one is false).
CONFIG_V2 = json.dumps({"device": "unknown", "clientType": "html5", "os": "Unknown", "requestor": {
    "id": REQ, "name": REQ, "domains": [{"name": "adobe.com", "mvpdInitiated": False}], "mvpds": [
        {"id": "Comcast", "displayName": "Xfinity", "authPerAggregator": False},
        {"id": "TempPass", "displayName": "Free preview", "isTempPass": True, "passiveAuthnEnabled": False},
        {"id": "AppleMVPD", "displayName": "Apple one", "enablePlatformServices": True,
         "platformMappingId": "apple-42", "boardingStatus": "SUPPORTED"}]}})
GENERIC_AUTHN = "Generic Authentication Error"
GENERIC_AUTHZ = "Generic Authorization Error"


def profiles_body(mvpd="Comcast", not_before=T0, not_after=T0 + 3_600_000, kind="regular", attributes=None):
    return json.dumps({"profiles": {mvpd: {"notBefore": not_before, "notAfter": not_after, "issuer": "idp",
                                           "type": kind, "attributes": attributes or {}}}})


def session_body(action="authenticate", code="ABC123", session_id="sess-1", not_after=T0 + 1_800_000):
    answer = {"actionName": action, "actionType": "interactive", "reasonType": "none", "sessionId": session_id,
              "mvpd": "Comcast", "serviceProvider": REQ}
    if action == "authenticate":
        answer.update({"url": "/api/v2/authenticate/%s/%s" % (REQ, code), "code": code,
                       "notBefore": str(T0), "notAfter": str(not_after)})
    return json.dumps(answer)


class WireV2Tests(unittest.TestCase):
    """Request building and answer parsing, without a process."""

    def test_urls_live_at_the_root_of_the_sp_host(self):
        self.assertEqual(wire_v2.api_url("https://sp.auth.test/adobe-services", "REQ 1", "profiles", "code", "A/B"),
                         "https://sp.auth.test/api/v2/REQ%201/profiles/code/A%2FB")
        self.assertEqual(wire_v2.api_url(SP, REQ, "logout", "Comcast", query=[("redirectUrl", "adobepass://ios.app")]),
                         SP + "/api/v2/REQ1/logout/Comcast?redirectUrl=adobepass%3A%2F%2Fios.app")
        self.assertEqual(wire_v2.absolute(SP + "/adobe-services", "/api/v2/authenticate/REQ1/X"),
                         SP + "/api/v2/authenticate/REQ1/X")
        self.assertEqual(wire_v2.absolute(SP, "https://idp.test/logout"), "https://idp.test/logout")

    def test_device_headers_are_a_fingerprint_and_base64_json_with_the_required_keys(self):
        device = Device({"platform": "tvos", "device": "gameconsole", "deviceID": "dev-1"})
        headers = dict(wire_v2.device_headers(device))
        kind, value = headers["AP-Device-Identifier"].split(" ")
        self.assertEqual(kind, "fingerprint")
        self.assertEqual(base64.b64decode(value), hashlib.sha256(b"dev-1").digest())
        info = json.loads(base64.b64decode(headers["X-Device-Info"]))
        for key in ("model", "version", "osName", "osVersion", "connectionType"):
            self.assertTrue(info[key], key)
        self.assertEqual((info["osName"], info["primaryHardwareType"]), ("tvOS", "GamesConsole"))
        status = json.loads(base64.b64decode(wire_v2.partner_framework_status("apple-42")))
        self.assertEqual(status["frameworkPermissionInfo"]["accessStatus"], "granted")
        self.assertEqual(status["frameworkProviderInfo"]["id"], "apple-42")

    def test_forms_and_bodies(self):
        self.assertEqual(wire_v2.session_form("Comcast", "adobepass://ios.app"),
                         "mvpd=Comcast&domainName=adobe.com&redirectUrl=adobepass%3A%2F%2Fios.app")
        self.assertEqual(json.loads(wire_v2.resources_body(["CNN", "<rss/>"])), {"resources": ["CNN", "<rss/>"]})

    def test_configuration_reads_mvpds_and_refuses_an_unusable_answer(self):
        mvpds = wire_v2.parse_configuration(CONFIG_V2, SP)
        self.assertEqual([m.id for m in mvpds], ["Comcast", "TempPass", "AppleMVPD"])
        self.assertTrue(mvpds[1].temp_pass)
        self.assertFalse(mvpds[1].promo_temp_pass)  # v2 does not say which TempPass is promotional
        named = wire_v2.parse_configuration(CONFIG_V2, SP, frozenset(["TempPass", "Comcast"]))
        self.assertEqual([(m.temp_pass, m.promo_temp_pass) for m in named],
                         [(False, False), (False, True), (False, False)])  # the app's set-up names it
        self.assertEqual((mvpds[2].boarding_status, mvpds[2].platform_mapping_id), ("SUPPORTED", "apple-42"))
        # An absent flag is false: no TempPass, no platform services.
        self.assertEqual([(m.temp_pass, m.enable_platform_services) for m in mvpds],
                         [(False, False), (True, False), (False, True)])
        for bad in ("", "<config/>", "[]", '{"requestor": {}}', '{"requestor": {"mvpds": [{"id": "X"}]}}',
                    '{"requestor": {"mvpds": [{"id": "X", "displayName": "x", "isTempPass": "yes"}]}}'):
            with self.assertRaises(ValueError, msg=bad):
                wire_v2.parse_configuration(bad, SP)

    def test_sessions_take_string_or_integer_times(self):
        session = wire_v2.parse_session(session_body())
        self.assertEqual((session.action, session.code, session.session_id, session.not_after),
                         ("authenticate", "ABC123", "sess-1", T0 + 1_800_000))
        self.assertEqual(wire_v2.parse_session(session_body("authorize")).action, "authorize")
        for bad in ("{}", '{"actionName": "authenticate"}', '{"actionName": "authorize", "notAfter": "soon"}', "null"):
            with self.assertRaises(ValueError, msg=bad):
                wire_v2.parse_session(bad)

    def test_profiles_make_the_token_of_choice_70(self):
        attributes = {"userID": {"value": "u1", "state": "plain"}, "zip": {"value": "x==", "state": "enc"}}
        (profile,) = wire_v2.parse_profiles(profiles_body(attributes=attributes))
        token = profile.token("sess-1")
        self.assertEqual((token.guid, token.mvpd_id, token.expires_ms), ("sess-1", "Comcast", T0 + 3_600_000))
        self.assertEqual(token.user_meta, {"data": {"userID": "u1", "zip": "x=="}, "encrypted": ["zip"]})
        self.assertEqual(profile.token(None).guid, "Comcast-%d" % T0)
        self.assertEqual(wire_v2.parse_profiles('{"profiles": {}}'), [])
        for bad in ("", '{"profiles": []}', '{"profiles": {"C": {"notBefore": 1}}}', '{"profiles": {"C": 3}}'):
            with self.assertRaises(ValueError, msg=bad):
                wire_v2.parse_profiles(bad)

    def test_decisions_and_errors(self):
        body = json.dumps({"decisions": [
            {"resource": "CNN", "authorized": True, "token": {"notBefore": T0, "notAfter": T0 + 420_000,
                                                              "serializedToken": "bWVkaWE="},
             "notAfter": T0 + 3_600_000},
            {"resource": "MTV", "authorized": True, "token": {"notAfter": T0 + 420_000, "serializedToken": "bQ=="}},
            {"resource": "ESPN", "authorized": False, "error": {"code": "authorization_denied_by_mvpd",
                                                                "details": "Upgrade your package"}}]})
        decisions = wire_v2.parse_decisions(body)
        # The decision's own notAfter, else its media token's.
        self.assertEqual((decisions["CNN"].token, decisions["CNN"].not_after), ("bWVkaWE=", T0 + 3_600_000))
        self.assertEqual(decisions["MTV"].not_after, T0 + 420_000)
        self.assertEqual((decisions["ESPN"].authorized, decisions["ESPN"].details), (False, "Upgrade your package"))
        for bad in ("", "{}", '{"decisions": [{"authorized": true}]}', '{"decisions": [{"resource": "A"}]}'):
            with self.assertRaises(ValueError, msg=bad):
                wire_v2.parse_decisions(bad)
        self.assertEqual(wire_v2.error_details('{"code": "x", "details": "why"}'), "why")
        self.assertIsNone(wire_v2.error_details("<error/>"))

    def test_logout_answers(self):
        body = json.dumps({"logouts": {"Comcast": {"actionName": "logout", "actionType": "interactive",
                                                   "mvpd": "Comcast", "url": SP + "/logout?x=1"}}})
        self.assertEqual(wire_v2.parse_logout(body, "Comcast"), ("logout", SP + "/logout?x=1"))
        self.assertEqual(wire_v2.parse_logout('{"logouts": {"Comcast": {"actionName": "complete"}}}', "Comcast"),
                         ("complete", None))
        with self.assertRaises(ValueError):
            wire_v2.parse_logout('{"logouts": 1}', "Comcast")


class PortV2TestCase(PortTestCase):
    def hello(self, platform="ios", device="mobile", svc_scheme=None):
        return self.port.send({"type": "hello", "protocol": 1, "network": "harness", "apps": ["app"], "wire": "v2",
                               "platform": platform, "device": device, "defaultServiceProvider": SP})

    def respond(self, request, status=200, body="", now=T0 + 40):
        return self.port.send({"type": "response", "app": "app", "id": request["id"], "status": status,
                               "headers": [], "body": body}, now)

    def configure_v2(self, platform="ios", device="mobile"):
        self.assertEqual(self.hello(platform, device)[0]["type"], "ready")
        (request,) = of_type(self.port.send(call("setRequestor", requestorID=REQ, serviceProviders=None)), "request")
        self.assertEqual((request["method"], request["url"]), ("GET", SP + "/api/v2/REQ1/configuration"))
        self.assertEqual(callbacks(self.respond(request, body=CONFIG_V2)), [("setRequestorComplete", [1])])

    def start_login(self):
        """getAuthentication, pick Comcast: returns the POST sessions request."""
        self.port.send(call("getAuthentication", T0 + 40, forceAuthn=False, data=None, filter=None))
        (request,) = of_type(self.port.send(call("setSelectedProvider", T0 + 40, mvpd="Comcast")), "request")
        return request

    def login_v2(self):
        self.respond(self.start_login(), body=session_body())
        (request,) = of_type(self.port.send(call("handleExternalURL", T0 + 50, url="adobepass://ios.app")), "request")
        return self.respond(request, body=profiles_body(), now=T0 + 60)

    def assert_login_failed(self, answer):
        self.assertEqual(callbacks(answer)[:1], [("setAuthenticationStatus", [0, GENERIC_AUTHN])])
        self.assertEqual(answer[-1]["type"], "idle")


class PortV2Tests(PortV2TestCase):
    def test_a_v2_hello_is_ready_and_an_unknown_wire_unimplemented(self):
        self.assertEqual(self.hello()[0]["type"], "ready")
        answer = self.port.send({"type": "hello", "protocol": 1, "network": "harness", "apps": ["app"], "wire": "v9"})
        self.assertEqual(answer[0]["type"], "unimplemented")

    def test_browser_login_is_a_session_its_user_agent_and_its_profile(self):
        self.configure_v2()
        request = self.start_login()
        self.assertEqual((request["method"], request["url"]), ("POST", SP + "/api/v2/REQ1/sessions"))
        self.assertIn("mvpd=Comcast", request["body"])
        names = [h[0] for h in request["headers"]]
        self.assertIn("AP-Device-Identifier", names)
        self.assertIn("X-Device-Info", names)
        answer = self.respond(request, body=session_body())
        self.assertEqual(callbacks(answer), [("navigateToUrl", [SP + "/api/v2/authenticate/REQ1/ABC123"])])
        (request,) = of_type(self.port.send(call("handleExternalURL", T0 + 50, url="adobepass://ios.app")), "request")
        self.assertEqual(request["url"], SP + "/api/v2/REQ1/profiles/code/ABC123")
        answer = self.respond(request, body=profiles_body(), now=T0 + 60)
        guid = hashlib.md5(b"sess-1").hexdigest()
        self.assertEqual(callbacks(answer), [("setAuthenticationStatus", [1, ""]),
                                             ("sendTrackingData", [0, ["true", "Comcast", guid, "false",
                                                                       "mobile", "ios", "iOS"]])])

    def test_malformed_answers_end_each_call_with_the_sdk_wires_failure(self):
        self.hello()
        (request,) = of_type(self.port.send(call("setRequestor", requestorID=REQ, serviceProviders=None)), "request")
        self.assertEqual(callbacks(self.respond(request, body="{garbage")), [("setRequestorComplete", [0])])
        (request,) = of_type(self.port.send(call("setRequestor", requestorID=REQ, serviceProviders=None)), "request")
        self.respond(request, body=CONFIG_V2)
        for session in ("not json", '{"actionName": "resume", "missingParameters": ["mvpd"]}', "[]"):
            self.assert_login_failed(self.respond(self.start_login(), body=session))
        self.respond(self.start_login(), body=session_body())
        (request,) = of_type(self.port.send(call("handleExternalURL", T0 + 50, url="adobepass://ios.app")), "request")
        self.assert_login_failed(self.respond(request, body='{"profiles": {}}'))
        self.respond(self.start_login(), body=session_body())
        (request,) = of_type(self.port.send(call("handleExternalURL", T0 + 50, url="adobepass://ios.app")), "request")
        self.assert_login_failed(self.respond(request, body='{"profiles": {"Comcast": {"notAfter": "x"}}}'))

    def test_an_authorization_is_a_decision_and_bad_decisions_fail_generically(self):
        self.configure_v2()
        self.login_v2()
        (request,) = of_type(self.port.send(call("checkAuthorization", T0 + 70, resource="CNN")), "request")
        self.assertEqual(request["url"], SP + "/api/v2/REQ1/decisions/authorize/Comcast")
        self.assertEqual(json.loads(request["body"]), {"resources": ["CNN"]})
        permit = json.dumps({"decisions": [{"resource": "CNN", "authorized": True, "token": {
            "notBefore": T0, "notAfter": T0 + 420_000, "serializedToken": "bWVkaWE="}}]})
        answer = self.respond(request, body=permit, now=T0 + 80)
        self.assertEqual(callbacks(answer)[0], ("setToken", ["bWVkaWE=", "CNN"]))
        self.assertEqual(callbacks(answer)[1][1][1][3], "false")  # never cached: no authZ token on v2
        deny = json.dumps({"decisions": [{"resource": "CNN", "authorized": False,
                                          "error": {"code": "authorization_denied_by_mvpd", "details": "No"}}]})
        for body, status, code, details in ((deny, 200, "User Not Authorized Error", "No"),
                                            ('{"code": "x", "details": "Refused"}', 403, "User Not Authorized Error", "Refused"),
                                            ("<html>", 200, GENERIC_AUTHZ, None),
                                            ('{"decisions": []}', 200, GENERIC_AUTHZ, None),
                                            ("oops", 500, GENERIC_AUTHZ, "HTTP 500")):
            (request,) = of_type(self.port.send(call("checkAuthorization", T0 + 90, resource="CNN")), "request")
            failure = callbacks(self.respond(request, status=status, body=body, now=T0 + 100))[0]
            self.assertEqual(failure[0], "tokenRequestFailed", body)
            self.assertEqual(failure[1][1], code, body)
            if details is not None:
                self.assertEqual(failure[1][2], details, body)

    def test_preauthorization_garbage_answers_only_the_cache(self):
        self.configure_v2()
        self.login_v2()
        (request,) = of_type(self.port.send(call("checkPreauthorizedResources", T0 + 70, resources=["A", "B"])),
                             "request")
        self.assertEqual(request["url"], SP + "/api/v2/REQ1/decisions/preauthorize/Comcast")
        body = json.dumps({"decisions": [{"resource": "A", "authorized": True},
                                         {"resource": "B", "authorized": False}]})
        self.assertEqual(callbacks(self.respond(request, body=body)), [("preauthorizedResources", [["A"]])])
        (request,) = of_type(self.port.send(call("checkPreauthorizedResources", T0 + 80, resources=["A", "C"])),
                             "request")
        self.assertEqual(json.loads(request["body"]), {"resources": ["C"]})
        self.assertEqual(callbacks(self.respond(request, body="{")), [("preauthorizedResources", [["A"]])])

    def test_device_id_at_once_check_authentication_asks_and_logout_opens_the_page(self):
        self.configure_v2()
        answer = self.port.send(call("getMetadata", T0 + 40, key={"opCode": 2}))
        self.assertEqual(of_type(answer, "request"), [])
        self.assertEqual(callbacks(answer)[0][0], "setMetadataStatus")
        self.login_v2()
        (request,) = of_type(self.port.send(call("checkAuthentication", T0 + 70)), "request")
        self.assertEqual(request["url"], SP + "/api/v2/REQ1/profiles/Comcast")
        # A garbage answer answers from the store, as a failed SDK request does.
        self.assertEqual(callbacks(self.respond(request, body="]"))[0], ("setAuthenticationStatus", [1, ""]))
        (request,) = of_type(self.port.send(call("logout", T0 + 80)), "request")
        self.assertEqual(request["url"], SP + "/api/v2/REQ1/logout/Comcast?redirectUrl=adobepass%3A%2F%2Fios.app")
        self.assertEqual(callbacks(self.respond(request, body="nope")), [("navigateToUrl", ["adobepass://ios.app"])])
        answer = self.port.send(call("handleExternalURL", T0 + 90, url="adobepass://ios.app"))
        self.assertEqual(callbacks(answer), [("setAuthenticationStatus", [0, "User Not Authenticated Error"])])

    def test_tvos_polls_the_sessions_code_and_garbage_polls_keep_polling(self):
        self.configure_v2(platform="tvos", device="gameconsole")
        request = self.start_login()
        answer = self.respond(request, body=session_body(code="TV1"))
        self.assertEqual(callbacks(answer), [("status", [{"$symbol": "REGCODE"}, "TV1"])])
        # The poll's timer (the session request's own deadline went with its answer).
        timer = min(of_type(answer, "timer"), key=lambda t: t["at"])
        self.assertEqual(timer["at"], T0 + 40 + 10_000)
        answer = self.port.send({"type": "timer", "app": "app", "id": timer["id"]}, timer["at"])
        (request,) = of_type(answer, "request")
        self.assertEqual(request["url"], SP + "/api/v2/REQ1/profiles/code/TV1")
        # The next poll, 10 s on, and the request's 30 s deadline.
        timer = min(of_type(answer, "timer"), key=lambda t: t["at"])
        self.assertEqual(callbacks(self.respond(request, body="{]", now=timer["at"] - 9_000)), [])
        answer = self.port.send({"type": "timer", "app": "app", "id": timer["id"]}, timer["at"])
        (request,) = of_type(answer, "request")
        next_poll = min(of_type(answer, "timer"), key=lambda t: t["at"])
        answer = self.respond(request, body=profiles_body(), now=timer["at"] + 30)
        self.assertEqual(callbacks(answer)[0], ("setAuthenticationStatus", [1, ""]))
        # The poll that finds the profile ends the login: the next poll is cancelled (choice 66).
        self.assertIn(next_poll["id"], [m["id"] for m in of_type(answer, "cancel-timer")])

    def test_apple_token_is_one_partner_profile_call(self):
        self.configure_v2()
        self.port.send(call("getAuthentication", T0 + 40, forceAuthn=False, data=None, filter=None))
        answer = self.port.send({"type": "picker", "app": "app", "outcome": {"picked": "AppleMVPD",
                                                                              "appleToken": "PHNhbWw+"}}, T0 + 50)
        (request,) = of_type(answer, "request")
        self.assertEqual(request["url"], SP + "/api/v2/REQ1/profiles/sso/Apple")
        self.assertEqual(request["body"], "SAMLResponse=PHNhbWw%2B")
        self.assertIn("AP-Partner-Framework-Status", [h[0] for h in request["headers"]])
        answer = self.respond(request, status=201, body=profiles_body("AppleMVPD", kind="appleSSO"), now=T0 + 60)
        guid = hashlib.md5(("AppleMVPD-%d" % T0).encode()).hexdigest()
        self.assertEqual(callbacks(answer)[1][1][1][:3], ["true", "AppleMVPD", guid])
        # The token came from Apple: its logout says VSA203 first.
        self.assertEqual(callbacks(self.port.send(call("logout", T0 + 70)))[0], ("status", [{"$symbol": "VSA203"}]))


if __name__ == "__main__":
    unittest.main()
