"""The reference client's own tests: what it sends and how it waits, against a scripted server.

    python -m unittest discover -s Examples/restv2-client -p 'test_*.py'   (needs requests)
"""

import base64
import json
import os
import tempfile
import unittest

import client


class Answer:
    def __init__(self, status, body=None, headers=None):
        self.status_code = status
        self.body = body if body is not None else {}
        self.headers = headers or {}

    def json(self):
        return self.body


class Server:
    """Answers each call from a list of (method, path suffix, Answer), in order; records the calls."""

    def __init__(self, script):
        self.script = list(script)
        self.calls = []

    def request(self, method, url, headers=None, timeout=None, **kwargs):
        self.calls.append((method, url, dict(headers or {}), kwargs))
        assert self.script, f"no answer left for {method} {url}"
        want_method, want_path, answer = self.script.pop(0)
        assert method == want_method and url.endswith(want_path), f"{method} {url}, expected {want_method} {want_path}"
        return answer


class FakeClock(client.Clock):
    def __init__(self):
        self.t, self.slept = 1_800_000_000.0, []

    def now(self):
        return self.t

    def sleep(self, seconds):
        self.slept.append(seconds)
        self.t += seconds


REGISTER = ("POST", "/o/client/register", Answer(201, {"client_id": "id-1", "client_secret": "secret-1"}))
TOKEN = ("POST", "/o/client/token", Answer(201, {"access_token": "token-1", "expires_in": 3600}))
CONFIG = ("GET", "/api/v2/REQ/configuration", Answer(200, {"requestor": {"mvpds": [{"id": "M"}]}}))


def make(script, **kwargs):
    server, clock = Server(script), FakeClock()
    c = client.Client("https://sp.example", "REQ", "statement", "device-1", session=server, clock=clock,
                      say=lambda line: None, **kwargs)
    return c, server, clock


class ClientTests(unittest.TestCase):
    def test_every_v2_call_carries_the_three_headers(self):
        c, server, _ = make([REGISTER, TOKEN, CONFIG])
        c.configuration()
        method, url, headers, _ = server.calls[-1]
        self.assertEqual(headers["Authorization"], "Bearer token-1")
        self.assertTrue(headers["AP-Device-Identifier"].startswith("fingerprint "))
        info = json.loads(base64.b64decode(headers["X-Device-Info"]))
        for key in ("primaryHardwareType", "model", "version", "osName", "osVersion", "connectionType"):
            self.assertIn(key, info)
        # The registration went first, then the token, each once.
        self.assertEqual([u.split("sp.example")[1] for _, u, _, _ in server.calls],
                         ["/o/client/register", "/o/client/token", "/api/v2/REQ/configuration"])

    def test_the_device_identifier_is_stable(self):
        self.assertEqual(client.device_identifier("device-1"), client.device_identifier("device-1"))
        self.assertNotEqual(client.device_identifier("device-1"), client.device_identifier("device-2"))

    def test_retry_after_is_waited_out(self):
        c, server, clock = make([REGISTER, TOKEN, ("GET", "/configuration", Answer(429, {}, {"Retry-After": "2"})),
                                 CONFIG])
        c.configuration()
        self.assertEqual(clock.slept, [2])
        self.assertEqual(len(server.calls), 4)

    def test_a_429_without_retry_after_waits_a_second(self):
        c, _, clock = make([REGISTER, TOKEN, ("GET", "/configuration", Answer(429)), CONFIG])
        c.configuration()
        self.assertEqual(clock.slept, [1])

    def test_a_burst_of_ten_then_one_call_a_second(self):
        script = [REGISTER, TOKEN] + [CONFIG] * 10
        c, _, clock = make(script)
        for _ in range(10):
            c.configuration()
        # 12 calls: the burst of 10 went at once, the 11th and 12th waited a second each.
        self.assertEqual([round(s, 3) for s in clock.slept], [1.0, 1.0])

    def test_a_401_asks_for_a_new_token_once(self):
        refused = ("GET", "/configuration", Answer(401, {"code": "invalid_access_token", "action": "none"}))
        c, server, _ = make([REGISTER, TOKEN, refused, TOKEN, CONFIG])
        c.configuration()
        self.assertEqual(sum(u.endswith("/o/client/register") for _, u, _, _ in server.calls), 1)
        c, _, _ = make([REGISTER, TOKEN, refused, TOKEN, refused])
        with self.assertRaises(client.ApiError) as raised:
            c.configuration()
        self.assertEqual(raised.exception.status, 401)

    def test_an_error_says_its_code_and_action(self):
        c, _, _ = make([REGISTER, TOKEN, ("POST", "/sessions", Answer(400, {
            "status": 400, "code": "invalid_parameter_mvpd", "action": "none", "message": "The MVPD is unknown."}))])
        with self.assertRaises(client.ApiError) as raised:
            c.create_session("X", "tv.example", "https://tv.example/")
        self.assertEqual((raised.exception.code, raised.exception.action), ("invalid_parameter_mvpd", "none"))

    def test_action_retry_is_asked_again_at_most_twice(self):
        retry = {"decisions": [{"resource": "r", "authorized": False,
                                "error": {"code": "network_connection_timeout", "action": "retry"}}]}
        call = ("POST", "/api/v2/REQ/decisions/authorize/M", Answer(200, retry))
        c, server, clock = make([REGISTER, TOKEN, call, call, call])
        decisions = c.decisions("authorize", "M", ["r"])
        self.assertFalse(decisions[0]["authorized"])
        self.assertEqual(sum("/decisions/" in u for _, u, _, _ in server.calls), 3)
        self.assertEqual(clock.slept, [1, 1])

    def test_a_deny_with_action_none_is_not_asked_again(self):
        deny = {"decisions": [{"resource": "r", "authorized": False,
                               "error": {"code": "authorization_denied_by_mvpd", "action": "none"}}]}
        c, server, _ = make([REGISTER, TOKEN, ("POST", "/decisions/authorize/M", Answer(200, deny))])
        c.decisions("authorize", "M", ["r"])
        self.assertEqual(sum("/decisions/" in u for _, u, _, _ in server.calls), 1)

    def test_polling_every_five_seconds_stops_at_the_profile(self):
        empty = ("GET", "/profiles/code/C", Answer(200, {"profiles": {}}))
        found = ("GET", "/profiles/code/C", Answer(200, {"profiles": {"M": {"type": "regular"}}}))
        c, _, clock = make([REGISTER, TOKEN, empty, empty, found])
        screens = []
        polls, profiles = c.wait_for_profile("C", (clock.t + 1800) * 1000, between=lambda: screens.append(1))
        self.assertEqual((polls, list(profiles)), (3, ["M"]))
        self.assertEqual(clock.slept, [5, 5])
        self.assertEqual(screens, [1])

    def test_polling_stops_when_the_code_expires(self):
        empty = ("GET", "/profiles/code/C", Answer(200, {"profiles": {}}))
        c, _, clock = make([REGISTER, TOKEN, empty, empty, empty])
        polls, profiles = c.wait_for_profile("C", str(int((clock.t + 12) * 1000)))  # a string, as Adobe writes it
        self.assertEqual((polls, profiles), (3, None))

    def test_the_credentials_and_token_are_kept_across_runs(self):
        with tempfile.TemporaryDirectory() as folder:
            state = os.path.join(folder, "state.json")
            c, _, _ = make([REGISTER, TOKEN, CONFIG], state=state)
            c.configuration()
            c, server, _ = make([CONFIG], state=state)
            c.configuration()
            self.assertEqual(len(server.calls), 1)


if __name__ == "__main__":
    unittest.main()
