"""Drives port.py through its standard input and output with hand-written protocol messages.

Run: python3 -m unittest discover -s Fixtures/ports/python
"""

import hashlib
import http.server
import json
import os
import socket
import subprocess
import sys
import threading
import time
import unittest

PORT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "port.py")
T0 = 1767225600000  # 2026-01-01 00:00:00 GMT, where every run starts
SP = "https://sp.auth.test"
FINAL = {"idle", "ready", "unimplemented", "error"}

CONFIG = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><config><requestor><id>REQ1</id><name>REQ1</name><mvpds>"
          "{}</mvpds></requestor></config>")


def mvpd_xml(mvpd_id, name, svc=False):
    return ("<mvpd><id>%s</id><displayName>%s</displayName><authPerAggregator>false</authPerAggregator>"
            "<tempPass>false</tempPass><promoTempPass>false</promoTempPass><requiresSVC>%s</requiresSVC>"
            "<enablePlatformServices>false</enablePlatformServices></mvpd>" % (mvpd_id, name, "true" if svc else "false"))


def token_xml(guid="0123-guid", mvpd="Comcast", expires="2026/01/02 00:00:00 GMT +0000"):
    return ("<authnToken><signatureInfo>unsigned</signatureInfo><simpleAuthenticationToken>"
            "<simpleTokenAuthenticationGuid>%s</simpleTokenAuthenticationGuid>"
            "<simpleTokenRequestorID>REQ1</simpleTokenRequestorID><simpleTokenDomainName>adobe.com</simpleTokenDomainName>"
            "<simpleTokenExpires>%s</simpleTokenExpires><simpleTokenMsoID>%s</simpleTokenMsoID>"
            "<simpleTokenDeviceID>d</simpleTokenDeviceID><simpleSamlNameID>n</simpleSamlNameID>"
            "<simpleSamlSessionIndex>s</simpleSamlSessionIndex></simpleAuthenticationToken></authnToken>"
            % (guid, expires, mvpd))


def session_device(token):
    escaped = token.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return "<result><authnToken>%s</authnToken></result>" % escaped


class TokenEnvelopeTests(unittest.TestCase):
    """Adobe's token envelope, `<signatureInfo>SIG<signatureInfo><simple…Token>`, as passim writes it;
    the `<authnToken>` root it wrote before still reads."""

    def test_both_shapes_read_and_a_third_marker_is_refused(self):
        import wire
        old = token_xml(guid="g-1")
        inner = old[old.index("<simpleAuthenticationToken>"):old.index("</authnToken>")]
        for text in (old, "<signatureInfo>c2ln<signatureInfo>" + inner):
            self.assertEqual(wire.parse_authn_token(text).guid, "g-1")
        with self.assertRaises(ValueError):
            wire.parse_authn_token("<signatureInfo>c2ln<signatureInfo>" + inner + "<signatureInfo>")


class PortProcess:
    """One port process; `send` writes a message and returns the answer up to its final message."""

    def __init__(self):
        self.proc = subprocess.Popen([sys.executable, PORT], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1)

    def send_raw(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        answer = []
        while True:
            out = self.proc.stdout.readline()
            if not out:
                raise AssertionError("port exited; stderr: " + self.proc.stderr.read())
            message = json.loads(out)
            answer.append(message)
            if message["type"] in FINAL:
                return answer

    def send(self, message, now=T0):
        message = dict(message)
        message.setdefault("now", now)
        return self.send_raw(json.dumps(message))

    def close(self):
        self.proc.stdin.close()
        code = self.proc.wait(timeout=5)
        self.proc.stdout.close()
        self.proc.stderr.close()
        return code


def call(name, now=T0, app="app", **args):
    return {"type": "call", "app": app, "call": name, "args": args, "now": now}


def callbacks(answer):
    return [(m["callback"], m["args"]) for m in answer if m["type"] == "callback"]


def of_type(answer, kind):
    return [m for m in answer if m["type"] == kind]


class PortTestCase(unittest.TestCase):
    def setUp(self):
        self.port = PortProcess()

    def tearDown(self):
        self.assertEqual(self.port.close(), 0)

    def hello(self, platform="ios", device="mobile", svc_scheme=None):
        return self.port.send({"type": "hello", "protocol": 1, "network": "harness", "apps": ["app"],
                               "platform": platform, "device": device, "defaultServiceProvider": SP,
                               "svcScheme": svc_scheme})

    def configure(self, mvpds=None, sps=None, now=T0):
        """hello, setRequestor and a config answer from every SP; returns the last answer."""
        self.hello()
        answer = self.port.send(call("setRequestor", now, requestorID="REQ1", serviceProviders=sps))
        requests = of_type(answer, "request")
        body = CONFIG.format("".join(mvpds or [mvpd_xml("Comcast", "Xfinity"), mvpd_xml("Dish", "DISH")]))
        for r in requests:
            last = self.port.send({"type": "response", "app": "app", "id": r["id"], "status": 200,
                                   "headers": [], "body": body}, now + 40)
        return last

    def login(self, now=T0 + 40, guid="0123-guid"):
        """getAuthentication, pick Comcast, handleExternalURL, token: returns the token's answer."""
        self.port.send(call("getAuthentication", now, forceAuthn=False, data=None, filter=None))
        self.port.send(call("setSelectedProvider", now, mvpd="Comcast"))
        answer = self.port.send(call("handleExternalURL", now, url="adobepass://ios.app"))
        request = of_type(answer, "request")[0]
        return self.port.send({"type": "response", "app": "app", "id": request["id"], "status": 200,
                               "headers": [], "body": session_device(token_xml(guid=guid))}, now + 10)


class StartupTests(PortTestCase):
    def test_hello_answers_ready(self):
        answer = self.hello()
        self.assertEqual(len(answer), 1)
        self.assertEqual(answer[0]["type"], "ready")
        self.assertEqual(answer[0]["protocol"], 1)

    def test_set_requestor_fetches_the_configuration_with_a_deadline(self):
        self.hello()
        answer = self.port.send(call("setRequestor", requestorID="REQ1", serviceProviders=None))
        self.assertEqual(answer[-1]["type"], "idle")
        request = of_type(answer, "request")[0]
        self.assertEqual((request["method"], request["url"]), ("GET", SP + "/config/REQ1"))
        self.assertEqual(of_type(answer, "timer")[0]["at"], T0 + 30000)

    def test_config_answer_completes_with_1(self):
        answer = self.configure()
        self.assertEqual(callbacks(answer), [("setRequestorComplete", [1])])
        self.assertEqual(of_type(answer, "cancel-timer")[0]["id"], 1)

    def test_unknown_requestor_completes_with_0(self):
        self.hello()
        answer = self.port.send(call("setRequestor", requestorID="NOPE", serviceProviders=None))
        request = of_type(answer, "request")[0]
        answer = self.port.send({"type": "response", "app": "app", "id": request["id"], "status": 404,
                                 "headers": [], "body": "unknown requestor"})
        self.assertEqual(callbacks(answer), [("setRequestorComplete", [0])])

    def test_several_sps_merge_in_order_of_arrival(self):
        self.hello()
        answer = self.port.send(call("setRequestor", requestorID="REQ1",
                                     serviceProviders=["slow.sp.test/", "https://fast.sp.test"]))
        slow, fast = of_type(answer, "request")
        self.assertEqual(slow["url"], "https://slow.sp.test/config/REQ1")
        fast_answer = self.port.send({"type": "response", "app": "app", "id": fast["id"], "status": 200, "headers": [],
                                      "body": CONFIG.format(mvpd_xml("Comcast", "Xfinity") + mvpd_xml("Verizon", "Fios"))})
        self.assertEqual(callbacks(fast_answer), [])
        self.port.send({"type": "response", "app": "app", "id": slow["id"], "status": 200, "headers": [],
                        "body": CONFIG.format(mvpd_xml("Dish", "DISH") + mvpd_xml("Comcast", "Xfinity (slow)"))})
        answer = self.port.send(call("getAuthentication", forceAuthn=False, data=None, filter=None))
        (name, [mvpds]), = callbacks(answer)
        self.assertEqual([(m["id"], m["displayName"]) for m in mvpds],
                         [("Comcast", "Xfinity"), ("Verizon", "Fios"), ("Dish", "DISH")])

    def test_silent_sp_times_out_after_30_seconds(self):
        self.hello()
        answer = self.port.send(call("setRequestor", requestorID="REQ1", serviceProviders=None))
        timer = of_type(answer, "timer")[0]
        answer = self.port.send({"type": "timer", "app": "app", "id": timer["id"]}, timer["at"])
        self.assertEqual(callbacks(answer), [("setRequestorComplete", [0])])

    def test_queued_calls_run_after_configuration_in_call_order(self):
        self.hello()
        self.assertEqual(callbacks(self.port.send(call("checkAuthentication"))), [])
        self.assertEqual(callbacks(self.port.send(call("getAuthentication", forceAuthn=False, data=None, filter=None))), [])
        answer = self.port.send(call("setRequestor", requestorID="REQ1", serviceProviders=None))
        request = of_type(answer, "request")[0]
        answer = self.port.send({"type": "response", "app": "app", "id": request["id"], "status": 200, "headers": [],
                                 "body": CONFIG.format(mvpd_xml("Comcast", "Xfinity"))})
        self.assertEqual([name for name, _ in callbacks(answer)],
                         ["setRequestorComplete", "setAuthenticationStatus", "sendTrackingData", "displayProviderDialog"])

    def test_second_set_requestor_supersedes_the_first(self):
        self.hello()
        self.port.send(call("setRequestor", requestorID="REQ1", serviceProviders=None))
        answer = self.port.send(call("setRequestor", requestorID="REQ2", serviceProviders=None))
        self.assertEqual(callbacks(answer), [("setRequestorComplete", [0])])
        # The first fetch's late answer is ignored.
        answer = self.port.send({"type": "response", "app": "app", "id": 1, "status": 200, "headers": [],
                                 "body": CONFIG.format(mvpd_xml("Comcast", "Xfinity"))})
        self.assertEqual(callbacks(answer), [])

    def test_options_travel_as_headers(self):
        self.hello()
        self.port.send(call("setOptions", options={"visitorID": "v-1", "handleSVC": True}))
        answer = self.port.send(call("setRequestor", requestorID="REQ1", serviceProviders=None))
        headers = of_type(answer, "request")[0]["headers"]
        self.assertIn(["visitorID", "v-1"], headers)
        self.assertNotIn("handleSVC", [name for name, _ in headers])


class AuthenticationTests(PortTestCase):
    def test_classic_login_delivers_status_then_tracking_with_md5_guid(self):
        self.configure()
        self.port.send(call("getAuthentication", T0 + 40, forceAuthn=False, data=None, filter=None))
        answer = self.port.send(call("setSelectedProvider", T0 + 40, mvpd="Comcast"))
        (tracking, navigate) = callbacks(answer)
        self.assertEqual(tracking, ("sendTrackingData", [2, ["Comcast", "mobile", "ios", "iOS"]]))
        self.assertTrue(navigate[1][0].startswith(SP + "/authenticate/saml?"))
        self.assertIn("mso_id=Comcast", navigate[1][0])
        self.assertEqual(len(navigate[1]), 1)
        answer = self.port.send(call("handleExternalURL", T0 + 40, url="adobepass://ios.app"))
        request = of_type(answer, "request")[0]
        self.assertEqual((request["method"], request["url"]), ("POST", SP + "/sessionDevice"))
        self.assertIn("requestor_id=REQ1", request["body"])
        answer = self.port.send({"type": "response", "app": "app", "id": request["id"], "status": 200,
                                 "headers": [], "body": session_device(token_xml())}, T0 + 50)
        guid = hashlib.md5(b"0123-guid").hexdigest()
        self.assertEqual(callbacks(answer), [("setAuthenticationStatus", [1, ""]),
                                             ("sendTrackingData", [0, ["true", "Comcast", guid, "false",
                                                                       "mobile", "ios", "iOS"]])])
        # The store is the port's own (PORTING.md): nothing about it goes to the harness.
        self.assertEqual(of_type(answer, "shared-store"), [])
        answer = self.port.send(call("checkAuthentication", T0 + 60))
        self.assertEqual(callbacks(answer)[1][1][1][3], "true")

    def test_check_authentication_without_token(self):
        self.configure()
        answer = self.port.send(call("checkAuthentication"))
        self.assertEqual(callbacks(answer), [
            ("setAuthenticationStatus", [0, "User Not Authenticated Error"]),
            ("sendTrackingData", [0, ["false", None, None, None, "mobile", "ios", "iOS"]])])

    def test_expired_token_is_as_good_as_none(self):
        self.configure()
        self.login()
        answer = self.port.send(call("checkAuthentication", T0 + 86_400_000))
        self.assertEqual(callbacks(answer)[0], ("setAuthenticationStatus", [0, "User Not Authenticated Error"]))

    def test_token_request_timeout_fails_generically_and_keeps_selection(self):
        self.configure()
        self.port.send(call("getAuthentication", forceAuthn=False, data=None, filter=None))
        self.port.send(call("setSelectedProvider", mvpd="Comcast"))
        answer = self.port.send(call("handleExternalURL", url="adobepass://ios.app"))
        timer = of_type(answer, "timer")[0]
        answer = self.port.send({"type": "timer", "app": "app", "id": timer["id"]}, timer["at"])
        self.assertEqual(callbacks(answer)[0], ("setAuthenticationStatus", [0, "Generic Authentication Error"]))
        answer = self.port.send(call("getSelectedProvider"))
        self.assertEqual(callbacks(answer)[0][1][0]["id"], "Comcast")

    def test_svc_login_uses_the_app_scheme(self):
        self.hello(svc_scheme="adbe.x://adobe.com")
        self.port.send(call("setOptions", options={"handleSVC": True}))
        answer = self.port.send(call("setRequestor", requestorID="REQ1", serviceProviders=None))
        request = of_type(answer, "request")[0]
        self.port.send({"type": "response", "app": "app", "id": request["id"], "status": 200, "headers": [],
                        "body": CONFIG.format(mvpd_xml("Comcast", "Xfinity", svc=True))})
        self.port.send(call("getAuthentication", forceAuthn=False, data=None, filter=None))
        answer = self.port.send(call("setSelectedProvider", mvpd="Comcast"))
        url, use_svc = callbacks(answer)[1][1]
        self.assertTrue(use_svc)
        self.assertIn("redirect_url=adbe.x%3A%2F%2Fadobe.com", url)

    def test_handle_external_url_without_login_is_ignored(self):
        self.configure()
        answer = self.port.send(call("handleExternalURL", url="adobepass://ios.app"))
        self.assertEqual(answer, [{"type": "idle"}])


class SharedStoreTests(PortTestCase):
    def test_a_login_reaches_another_app_on_its_set_requestor(self):
        self.configure()
        self.login()
        other = self.port.send(call("setRequestor", T0 + 100, app="other", requestorID="REQ2", serviceProviders=None))
        request = of_type(other, "request")[0]
        self.port.send({"type": "response", "app": "other", "id": request["id"], "status": 200, "headers": [],
                        "body": CONFIG.format(mvpd_xml("Comcast", "Xfinity"))}, T0 + 140)
        answer = self.port.send(call("checkAuthentication", T0 + 150, app="other"))
        self.assertEqual(callbacks(answer)[0], ("setAuthenticationStatus", [1, ""]))
        answer = self.port.send(call("getSelectedProvider", T0 + 150, app="other"))
        self.assertEqual(callbacks(answer)[0][1][0]["displayName"], "Xfinity")



class CancelTests(PortTestCase):
    CANCEL = [("setAuthenticationStatus", [0, "Provider Not Selected Error"]),
              ("sendTrackingData", [0, ["false", None, None, None, "mobile", "ios", "iOS"]])]

    def test_nil_at_dialog_cancels(self):
        self.configure()
        self.port.send(call("getAuthentication", forceAuthn=False, data=None, filter=None))
        self.assertEqual(callbacks(self.port.send(call("setSelectedProvider", mvpd=None))), self.CANCEL)

    def test_unknown_id_in_browser_cancels_and_late_url_is_ignored(self):
        self.configure()
        self.port.send(call("getAuthentication", forceAuthn=False, data=None, filter=None))
        self.port.send(call("setSelectedProvider", mvpd="Comcast"))
        self.assertEqual(callbacks(self.port.send(call("setSelectedProvider", mvpd="Nope"))), self.CANCEL)
        self.assertEqual(self.port.send(call("handleExternalURL", url="adobepass://ios.app")), [{"type": "idle"}])
        self.assertEqual(callbacks(self.port.send(call("getSelectedProvider"))), [("selectedProvider", [None])])


def authz_result(resource="CNN", expires="2026/01/02 00:00:00 GMT +0000"):
    token = ("<authzToken><simpleAuthorizationToken><simpleTokenResourceID>%s</simpleTokenResourceID>"
             "<simpleTokenExpires>%s</simpleTokenExpires></simpleAuthorizationToken></authzToken>" % (resource, expires))
    escaped = token.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return "<result><authzToken>%s</authzToken></result>" % escaped


def respond(port, request, status=200, body="", now=T0 + 100, app="app"):
    return port.send({"type": "response", "app": app, "id": request["id"], "status": status, "headers": [],
                      "body": body}, now)


class AuthorizationTests(PortTestCase):
    def authorize(self, resource, now=T0 + 100):
        answer = self.port.send(call("checkAuthorization", now, resource=resource, data=None))
        return of_type(answer, "request")

    def test_cached_authz_token_skips_authorize_and_tracking_says_cached(self):
        self.configure()
        self.login()
        (authorize,) = self.authorize("CNN")
        self.assertEqual(authorize["url"], SP + "/authorizeDevice")
        self.assertIn("resource_id=CNN", authorize["body"])
        (media,) = of_type(respond(self.port, authorize, body=authz_result(expires="2026/01/01 12:00:00 GMT +0000")),
                          "request")
        self.assertEqual(media["url"], SP + "/deviceShortAuthorize")
        answer = respond(self.port, media, body="bWVkaWE=")
        self.assertEqual(callbacks(answer)[0], ("setToken", ["bWVkaWE=", "CNN"]))
        self.assertEqual(callbacks(answer)[1][1][1][3], "false")
        (media,) = self.authorize("CNN", T0 + 200)
        self.assertEqual(media["url"], SP + "/deviceShortAuthorize")
        self.assertEqual(callbacks(respond(self.port, media, body="bWVkaWE=", now=T0 + 200))[1][1][1][3], "true")
        # Past the authZ token's expiry the SP is asked again.
        (media,) = self.authorize("CNN", T0 + 43_200_000 - 1)
        self.assertEqual(media["url"], SP + "/deviceShortAuthorize")
        (authorize,) = self.authorize("CNN", T0 + 43_200_000)
        self.assertEqual(authorize["url"], SP + "/authorizeDevice")

    def test_refusal_carries_the_mvpds_message_and_other_failures_are_generic(self):
        self.configure()
        self.login()
        (authorize,) = self.authorize("ESPN")
        answer = respond(self.port, authorize, 403, "<error><status>403</status><message>User not authorized</message>"
                                                    "<details>Upgrade</details></error>")
        self.assertEqual(callbacks(answer), [
            ("tokenRequestFailed", ["ESPN", "User Not Authorized Error", "Upgrade"]),
            ("sendTrackingData", [1, ["false", None, None, None, "User Not Authorized Error", "Upgrade",
                                      "mobile", "ios", "iOS"]])])
        (authorize,) = self.authorize("CNN")
        self.assertEqual(callbacks(respond(self.port, authorize, 503, "busy"))[0],
                         ("tokenRequestFailed", ["CNN", "Generic Authorization Error", "HTTP 503"]))

    def test_get_authorization_without_token_logs_in_first(self):
        self.configure()
        answer = self.port.send(call("getAuthorization", resource="HBO", data=None))
        self.assertEqual(callbacks(answer)[0][0], "displayProviderDialog")
        self.port.send(call("setSelectedProvider", mvpd="Comcast"))
        (token,) = of_type(self.port.send(call("handleExternalURL", url="adobepass://ios.app")), "request")
        answer = respond(self.port, token, body=session_device(token_xml()))
        self.assertEqual([name for name, _ in callbacks(answer)], ["setAuthenticationStatus", "sendTrackingData"])
        (authorize,) = of_type(answer, "request")
        self.assertIn("resource_id=HBO", authorize["body"])

    def test_preauthorization_answers_from_the_cache_in_request_order(self):
        self.configure()
        self.login()
        answer = self.port.send(call("checkPreauthorizedResources", T0 + 100, resources=["HBO", "CNN"], cache=True))
        (request,) = of_type(answer, "request")
        body = ("<resources><resource><id>HBO</id><authorized>false</authorized></resource>"
                "<resource><id>CNN</id><authorized>true</authorized></resource></resources>")
        self.assertEqual(callbacks(respond(self.port, request, body=body)), [("preauthorizedResources", [["CNN"]])])
        answer = self.port.send(call("checkPreauthorizedResources", T0 + 100, resources=["CNN", "HBO"], cache=True))
        self.assertEqual(of_type(answer, "request"), [])
        self.assertEqual(callbacks(answer), [("preauthorizedResources", [["CNN"]])])
        answer = self.port.send(call("checkPreauthorizedResources", T0 + 100, resources=["CNN"], cache=False))
        (request,) = of_type(answer, "request")
        self.assertEqual(callbacks(respond(self.port, request, 500, "")), [("preauthorizedResources", [[]])])


class LogoutAndTvTests(PortTestCase):
    def test_logout_clears_at_once_and_ends_on_handle_external_url(self):
        self.configure()
        self.login()
        answer = self.port.send(call("logout", T0 + 100))
        ((name, args),) = callbacks(answer)
        self.assertEqual(name, "navigateToUrl")
        self.assertTrue(args[0].startswith(SP + "/logout?"))
        self.assertIn("name_id=n", args[0])
        self.assertEqual(callbacks(self.port.send(call("checkAuthentication", T0 + 100)))[0],
                         ("setAuthenticationStatus", [0, "User Not Authenticated Error"]))
        self.assertEqual(callbacks(self.port.send(call("handleExternalURL", T0 + 100, url="adobepass://ios.app"))),
                         [("setAuthenticationStatus", [0, "User Not Authenticated Error"])])
        # A second handleExternalURL belongs to nothing.
        self.assertEqual(callbacks(self.port.send(call("handleExternalURL", T0 + 100, url="adobepass://ios.app"))), [])

    def test_tvos_code_is_polled_every_ten_seconds_until_used(self):
        self.hello(platform="tvos", device="gameconsole")
        answer = self.port.send(call("setRequestor", requestorID="REQ1", serviceProviders=None))
        respond(self.port, of_type(answer, "request")[0], body=CONFIG.format(mvpd_xml("Comcast", "Xfinity")), now=T0)
        self.port.send(call("getAuthentication", forceAuthn=False, data=None, filter=None))
        (code_request,) = of_type(self.port.send(call("setSelectedProvider", mvpd="Comcast")), "request")
        self.assertEqual(code_request["url"], SP + "/reggie/v1/REQ1/regcode")
        answer = respond(self.port, code_request, 201, json.dumps({"code": "ABC2345", "expires": T0 + 1_800_000}), T0)
        self.assertEqual(callbacks(answer), [("status", [{"$symbol": "REGCODE"}, "ABC2345"])])
        (poll,) = [t for t in of_type(answer, "timer") if t["at"] == T0 + 10_000]
        answer = self.port.send({"type": "timer", "app": "app", "id": poll["id"]}, T0 + 10_000)
        (check,) = of_type(answer, "request")
        self.assertTrue(check["url"].startswith(SP + "/api/v1/checkauthn/ABC2345?"))
        (poll,) = [t for t in of_type(answer, "timer") if t["at"] == T0 + 20_000]
        self.assertEqual(callbacks(respond(self.port, check, 404, "", T0 + 10_000)), [])
        check2 = of_type(self.port.send({"type": "timer", "app": "app", "id": poll["id"]}, T0 + 20_000), "request")
        (token,) = of_type(respond(self.port, check2[0], 200, "<authentication/>", T0 + 20_000), "request")
        self.assertIn("reg_code=ABC2345", token["body"])
        answer = respond(self.port, token, body=session_device(token_xml()), now=T0 + 20_000)
        self.assertEqual(callbacks(answer)[0], ("setAuthenticationStatus", [1, ""]))
        self.assertEqual(callbacks(answer)[1][1][1][6], "tvOS")

    def test_apple_picker_cancel_dismisses_then_n005(self):
        self.hello()
        answer = self.port.send(call("setRequestor", requestorID="REQ1", serviceProviders=None))
        sso = mvpd_xml("Comcast", "Xfinity").replace("<enablePlatformServices>false", "<enablePlatformServices>true")
        respond(self.port, of_type(answer, "request")[0], body=CONFIG.format(sso + mvpd_xml("Dish", "DISH")), now=T0)
        answer = self.port.send(call("getAuthentication", forceAuthn=False, data=None, filter=None))
        ((name, (shown, featured)),) = callbacks(answer)
        self.assertEqual((name, [m["id"] for m in shown], featured), ("presentTvProviderDialog", ["Comcast"], []))
        answer = self.port.send({"type": "picker", "app": "app", "outcome": "cancelled"})
        self.assertEqual([name for name, _ in callbacks(answer)],
                         ["dismissTvProviderDialog", "status", "setAuthenticationStatus", "sendTrackingData"])
        self.assertEqual(callbacks(answer)[1][1], [{"$symbol": "N005"}])


class RegistrationTests(PortTestCase):
    def test_registration_then_bearer_then_one_retry_after_401(self):
        self.hello()
        self.port.send(call("init", softwareStatement="ss-1"))
        answer = self.port.send(call("setRequestor", requestorID="REQ1", serviceProviders=["https://sp.auth.test/base"]))
        (register,) = of_type(answer, "request")
        self.assertEqual(register["url"], "https://sp.auth.test/o/client/register")
        self.assertEqual(json.loads(register["body"]), {"software_statement": "ss-1", "redirect_uri": "adobepass://ios.app"})
        (token,) = of_type(respond(self.port, register, 201, json.dumps({"client_id": "c", "client_secret": "s"}), T0), "request")
        self.assertEqual(token["url"], "https://sp.auth.test/o/client/token")
        self.assertIn("client_id=c", token["body"])
        # Adobe's page answers the token 201; any 2xx is taken (a renewal below gets a 200).
        (config,) = of_type(respond(self.port, token, 201, json.dumps({"access_token": "t1", "expires_in": 60}), T0), "request")
        self.assertEqual(config["url"], "https://sp.auth.test/base/config/REQ1")
        self.assertIn(["Authorization", "Bearer t1"], config["headers"])
        # A 401 gets a new access token, then the request once more, under a new id.
        (token,) = of_type(respond(self.port, config, 401, "", T0), "request")
        self.assertTrue(token["url"].endswith("/o/client/token"))
        (again,) = of_type(respond(self.port, token, 200, json.dumps({"access_token": "t2"}), T0), "request")
        self.assertIn(["Authorization", "Bearer t2"], again["headers"])
        self.assertNotEqual(again["id"], config["id"])
        # A second 401 is a refusal: this SP gave no configuration.
        self.assertEqual(callbacks(respond(self.port, again, 401, "", T0)), [("setRequestorComplete", [0])])

    def test_a_refused_registration_says_r400_before_the_sp_counts_as_refused(self):
        self.hello()
        self.port.send(call("init", softwareStatement="unknown"))
        (register,) = of_type(self.port.send(call("setRequestor", requestorID="REQ1", serviceProviders=None)), "request")
        answer = respond(self.port, register, 400, json.dumps({"error": "invalid_software_statement"}), T0)
        self.assertEqual(callbacks(answer), [("status", [{"$symbol": "R400"}]), ("setRequestorComplete", [0])])

    def test_signed_tvos_calls_carry_the_hmac_header(self):
        self.hello(platform="tvos")
        answer = self.port.send(call("setRequestor", requestorID="REQ1", serviceProviders=None, secret="sk", publicKey="pk"))
        respond(self.port, of_type(answer, "request")[0], body=CONFIG.format(mvpd_xml("Comcast", "Xfinity")), now=T0)
        self.port.send(call("getAuthentication", forceAuthn=False, data=None, filter=None))
        (code,) = of_type(self.port.send(call("setSelectedProvider", mvpd="Comcast", now=T0 + 5)), "request")
        (authorization,) = [v for k, v in code["headers"] if k == "Authorization"]
        text, signature = authorization.split(", public_key=pk, signature=")
        self.assertEqual(text, "POST requestor_id=REQ1, nonce=1-%d, signature_method=HMAC-SHA1, request_time=%d, "
                               "request_uri=/reggie/v1/REQ1/regcode" % (T0 + 5, T0 + 5))
        import base64, hmac
        expected = base64.b64encode(hmac.new(b"sk", text.encode(), hashlib.sha1).digest()).decode()
        self.assertEqual(signature, expected)


class RobustnessTests(PortTestCase):
    def test_unknown_call_is_an_error_and_the_port_goes_on(self):
        self.configure()
        answer = self.port.send(call("fly", resource="CNN"))
        self.assertEqual(answer[0]["type"], "error")
        self.assertIn("fly", answer[0]["message"])
        self.assertEqual(callbacks(self.port.send(call("getSelectedProvider"))), [("selectedProvider", [None])])

    def test_a_second_hello_is_a_reset_to_a_new_world(self):
        self.assertTrue(self.hello()[0]["reset"])
        self.configure()
        self.login()
        answer = self.port.send({"type": "hello", "protocol": 1, "network": "harness", "apps": ["app"],
                                 "platform": "tvos", "device": "gameconsole", "defaultServiceProvider": SP})
        self.assertEqual(answer[0]["type"], "ready")
        # The old world's login, selection and configuration are gone: calls queue again.
        self.assertEqual(callbacks(self.port.send(call("getSelectedProvider"))), [("selectedProvider", [None])])
        self.assertEqual(callbacks(self.port.send(call("checkAuthentication"))), [])
        answer = self.port.send(call("setRequestor", requestorID="REQ1", serviceProviders=None))
        (request,) = of_type(answer, "request")
        self.assertEqual(request["id"], 1)
        answer = respond(self.port, request, body=CONFIG.format(mvpd_xml("Comcast", "Xfinity")))
        self.assertEqual(callbacks(answer)[1], ("setAuthenticationStatus", [0, "User Not Authenticated Error"]))
        self.assertEqual(callbacks(answer)[2][1][1][-1], "tvOS")

    def test_malformed_lines_answer_error_and_the_port_goes_on(self):
        self.hello()
        self.assertEqual(self.port.send_raw("{not json")[0]["type"], "error")
        self.assertEqual(self.port.send_raw("[1, 2]")[0]["type"], "error")
        self.assertEqual(self.port.send({"type": "call", "app": "app"})[0]["type"], "error")
        self.assertEqual(self.port.send({"type": "nonsense", "app": "app"})[0]["type"], "error")
        self.assertEqual(self.port.send(call("setRequestor", requestorID=None))[0]["type"], "error")
        self.assertEqual(self.port.send(call("getSelectedProvider"))[-1]["type"], "idle")

    def test_garbage_http_bodies_do_not_break_the_engine(self):
        self.hello()
        answer = self.port.send(call("setRequestor", requestorID="REQ1", serviceProviders=None))
        request = of_type(answer, "request")[0]
        doc = '<!DOCTYPE x [<!ENTITY a "aaaa">]><config>&a;</config>'
        answer = self.port.send({"type": "response", "app": "app", "id": request["id"], "status": 200,
                                 "headers": [], "body": doc})
        self.assertEqual(callbacks(answer), [("setRequestorComplete", [0])])

    def test_apps_have_separate_engines(self):
        self.configure()
        answer = self.port.send(call("getSelectedProvider", app="other"))
        self.assertEqual(callbacks(answer), [("selectedProvider", [None])])
        self.assertEqual(answer[0]["app"], "other")


# ----------------------------------------------------------------------------------------------
# The live network: the port sends its requests itself to a loopback server started by the test.

class RecordingHandler(http.server.BaseHTTPRequestHandler):
    """Serves a tiny SP and records what each request carried."""

    def do_GET(self):
        self.answer()

    def do_POST(self):
        self.answer()

    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode("utf-8") if length else ""
        self.server.seen.append({"method": self.command, "path": self.path, "host": self.headers.get("Host"),
                                 "cookie": self.headers.get("Cookie"), "headers": dict(self.headers.items()),
                                 "body": body})
        if self.path.startswith("/slow"):
            time.sleep(0.5)  # a silent host: read, never answered (the port gives up first)
            return
        routes = {"/config/REQ1": CONFIG.format(mvpd_xml("Comcast", "Xfinity")),
                  "/sessionDevice": session_device(token_xml())}
        text = routes.get(self.path.split("?")[0])
        payload = (text if text is not None else "unknown").encode("utf-8")
        self.send_response(200 if text is not None else 404)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass  # keep the test output clean


def closed_port():
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveTests(PortTestCase):
    def setUp(self):
        super().setUp()
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), RecordingHandler)
        self.server.seen = []
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()
        self.origin = "http://127.0.0.1:%d" % self.server.server_address[1]

    def tearDown(self):
        self.server.shutdown()
        self.server.server_close()
        super().tearDown()

    def live_hello(self, hosts=None, fetch_timeout=5000):
        answer = self.port.send({"type": "hello", "protocol": 1, "network": "live", "apps": ["app"],
                                 "platform": "ios", "device": "mobile", "defaultServiceProvider": SP,
                                 "svcScheme": None, "hosts": {SP: self.origin} if hosts is None else hosts,
                                 "fetchTimeout": fetch_timeout})
        self.assertEqual(answer[0]["type"], "ready")
        return answer

    def send(self, message, now=T0, cookies=None):
        message = dict(message)
        message["cookies"] = cookies or {}
        return self.port.send(message, now)

    def deliver(self, request_id, now=T0 + 40, cookies=None):
        return self.send({"type": "deliver", "app": "app", "id": request_id}, now, cookies)

    def test_set_requestor_fetches_at_once_and_completes_only_on_deliver(self):
        self.live_hello()
        answer = self.send(call("setRequestor", requestorID="REQ1", serviceProviders=None),
                           cookies={"sp.auth.test": "JSESSIONID=abc", "idp.test": "other=1"})
        self.assertEqual([m["type"] for m in answer], ["fetched", "timer", "idle"])
        self.assertEqual(answer[0], {"type": "fetched", "app": "app", "id": 1, "method": "GET",
                                     "url": SP + "/config/REQ1", "status": 200})
        self.assertEqual(len(self.server.seen), 1)
        seen = self.server.seen[0]
        self.assertEqual((seen["method"], seen["path"]), ("GET", "/config/REQ1"))
        self.assertEqual(seen["host"], "sp.auth.test")
        self.assertEqual(seen["cookie"], "JSESSIONID=abc")
        self.assertEqual(seen["headers"].get("Accept"), "application/xml")
        # Nothing reaches the engine before the harness says the answer arrives.
        self.assertEqual(callbacks(self.send(call("getSelectedProvider"))), [("selectedProvider", [None])])
        answer = self.deliver(1)
        self.assertEqual(callbacks(answer), [("setRequestorComplete", [1])])
        self.assertEqual(of_type(answer, "cancel-timer")[0]["id"], 1)
        self.assertEqual(of_type(answer, "request") + of_type(answer, "fetched"), [])

    def test_no_cookie_header_without_cookies_for_that_host(self):
        self.live_hello()
        self.send(call("setRequestor", requestorID="REQ1", serviceProviders=None), cookies={"idp.test": "x=1"})
        self.assertIsNone(self.server.seen[0]["cookie"])

    def test_host_keeps_the_port_of_the_world_url(self):
        self.live_hello(hosts={"https://sp.test:8443": self.origin})
        answer = self.send(call("setRequestor", requestorID="REQ1", serviceProviders=["https://sp.test:8443"]),
                           cookies={"sp.test:8443": "s=1", "sp.test": "wrong=1"})
        self.assertEqual(of_type(answer, "fetched")[0]["url"], "https://sp.test:8443/config/REQ1")
        self.assertEqual((self.server.seen[0]["host"], self.server.seen[0]["cookie"]), ("sp.test:8443", "s=1"))

    def test_login_posts_session_device_with_body_options_and_cookies(self):
        self.live_hello()
        self.send(call("setOptions", options={"visitorID": "v-1"}))
        self.send(call("setRequestor", requestorID="REQ1", serviceProviders=None))
        self.deliver(1)
        self.send(call("getAuthentication", T0 + 40, forceAuthn=False, data=None, filter=None))
        self.send(call("setSelectedProvider", T0 + 40, mvpd="Comcast"))
        answer = self.send(call("handleExternalURL", T0 + 40, url="adobepass://ios.app"),
                           T0 + 40, cookies={"sp.auth.test": "JSESSIONID=login"})
        fetched = of_type(answer, "fetched")[0]
        self.assertEqual((fetched["method"], fetched["url"], fetched["status"]), ("POST", SP + "/sessionDevice", 200))
        self.assertEqual(callbacks(answer), [])
        seen = self.server.seen[-1]
        self.assertEqual((seen["path"], seen["cookie"]), ("/sessionDevice", "JSESSIONID=login"))
        self.assertIn("requestor_id=REQ1", seen["body"])
        self.assertEqual(seen["headers"].get("Content-Type"), "application/x-www-form-urlencoded")
        self.assertEqual(seen["headers"].get("visitorID"), "v-1")
        answer = self.deliver(fetched["id"], T0 + 50)
        self.assertEqual(callbacks(answer)[0], ("setAuthenticationStatus", [1, ""]))

    def test_error_status_is_reported_and_delivered(self):
        self.live_hello()
        answer = self.send(call("setRequestor", requestorID="NOPE", serviceProviders=None))
        self.assertEqual(of_type(answer, "fetched")[0]["status"], 404)
        self.assertEqual(callbacks(self.deliver(1)), [("setRequestorComplete", [0])])

    def test_origin_missing_from_hosts_does_not_resolve(self):
        self.live_hello()
        answer = self.send(call("setRequestor", requestorID="REQ1", serviceProviders=["https://elsewhere.test"]))
        self.assertEqual(of_type(answer, "fetched")[0],
                         {"type": "fetched", "app": "app", "id": 1, "method": "GET",
                          "url": "https://elsewhere.test/config/REQ1", "error": "could not resolve host"})
        self.assertEqual(self.server.seen, [])
        self.assertEqual(callbacks(self.deliver(1, T0)), [("setRequestorComplete", [0])])

    def test_refused_connection(self):
        self.live_hello(hosts={SP: "http://127.0.0.1:%d" % closed_port()})
        answer = self.send(call("setRequestor", requestorID="REQ1", serviceProviders=None))
        fetched = of_type(answer, "fetched")[0]
        self.assertEqual(fetched["error"], "connection refused")
        self.assertNotIn("status", fetched)
        self.assertEqual(callbacks(self.deliver(1, T0)), [("setRequestorComplete", [0])])

    def test_no_answer_within_fetch_timeout(self):
        self.live_hello(fetch_timeout=200)
        answer = self.send(call("setRequestor", requestorID="REQ1", serviceProviders=[SP + "/slow"]))
        fetched = of_type(answer, "fetched")[0]
        self.assertEqual((fetched["url"], fetched.get("timeout")), (SP + "/slow/config/REQ1", True))
        # The engine's own virtual deadline ends the configuration, as on the harness network.
        timer = of_type(answer, "timer")[0]
        answer = self.send({"type": "timer", "app": "app", "id": timer["id"]}, timer["at"])
        self.assertEqual(callbacks(answer), [("setRequestorComplete", [0])])

    def test_several_sps_are_fetched_in_the_order_reported(self):
        self.live_hello(hosts={SP: self.origin, "https://sp2.test": self.origin})
        answer = self.send(call("setRequestor", requestorID="REQ1", serviceProviders=["https://sp2.test", SP]))
        self.assertEqual([m["url"] for m in of_type(answer, "fetched")],
                         ["https://sp2.test/config/REQ1", SP + "/config/REQ1"])
        self.assertEqual([s["host"] for s in self.server.seen], ["sp2.test", "sp.auth.test"])
        self.assertEqual(callbacks(self.deliver(2)), [])
        self.assertEqual(callbacks(self.deliver(1)), [("setRequestorComplete", [1])])

    def test_deliver_for_an_unknown_id_is_an_error(self):
        self.live_hello()
        self.assertEqual(self.deliver(7)[0]["type"], "error")
        self.send(call("setRequestor", requestorID="REQ1", serviceProviders=None))
        self.deliver(1)
        self.assertEqual(self.deliver(1)[0]["type"], "error")  # an answer is delivered once
        self.assertEqual(self.send(call("getSelectedProvider"))[-1]["type"], "idle")

    def test_response_on_the_live_network_is_an_error(self):
        self.live_hello()
        self.send(call("setRequestor", requestorID="REQ1", serviceProviders=None))
        answer = self.send({"type": "response", "app": "app", "id": 1, "status": 200, "headers": [], "body": ""})
        self.assertEqual(answer[0]["type"], "error")

    def test_deliver_on_the_harness_network_is_an_error(self):
        self.hello()
        self.port.send(call("setRequestor", requestorID="REQ1", serviceProviders=None))
        self.assertEqual(self.deliver(1)[0]["type"], "error")

    def test_bad_live_hello(self):
        answer = self.port.send({"type": "hello", "protocol": 1, "network": "live", "apps": ["app"],
                                 "defaultServiceProvider": SP, "hosts": {SP: "ftp://127.0.0.1:1"}, "fetchTimeout": 100})
        self.assertEqual(answer[0]["type"], "error")
        answer = self.port.send({"type": "hello", "protocol": 1, "network": "carrier-pigeon", "apps": ["app"]})
        self.assertEqual(answer[0]["type"], "unimplemented")
        self.live_hello()
        answer = self.port.send(dict(call("getSelectedProvider"), cookies=["not", "an", "object"]))
        self.assertEqual(answer[0]["type"], "error")


if __name__ == "__main__":
    unittest.main()
