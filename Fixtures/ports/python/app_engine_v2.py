"""One app's AccessEnabler over REST API v2 (pyport; issue 30, item 6).

The same calls in and callbacks out as `AppEngine` (BEHAVIOR.md); only the requests behind them change,
as Adobe's migration FAQ maps each SDK call to a v2 operation (docs/spec/reference/rest-api-v2.md 1.7,
docs/MIGRATION.md), with the project's v2 choices (docs/CONFORMANCE.md 66-70). Written from those and
Adobe's OpenAPI contract, not from passim's Swift engine. The state machines (startup, login, tokens,
overlapping calls, registration) are the SDK engine's; this class overrides where a request is built or
an answer read. `wire_v2` holds the formats.
"""

import sys

import wire_v2
from app_engine import AppEngine, AuthzFlow
from state import AuthenticationState
from wire import (ADOBEPASS_REDIRECT_URL, GENERIC_AUTHENTICATION_ERROR, GENERIC_AUTHORIZATION_ERROR,
                  METADATA_DEVICE_ID, METADATA_OPCODE_KEY, REGCODE, TRACKING_AUTHORIZATION,
                  USER_AUTHENTICATED, USER_NOT_AUTHENTICATED_ERROR, USER_NOT_AUTHORIZED_ERROR, VSA203, Z100,
                  AuthnToken, AuthzToken, md5_hex)


class AppEngineV2(AppEngine):
    """`AppEngine` whose requests are REST API v2's."""

    # -- requests ------------------------------------------------------------------------------

    def v2_url(self, mvpd_id, *segments, query=None):
        return wire_v2.api_url(self.sp_for(mvpd_id), self.requestor(), *segments, query=query)

    def v2_send(self, method, url, kind, now, body="", content_type=None, extra=(), data=None):
        """Every v2 call but the user agent's carries the device headers (rest-api-v2.md 1.4); the
        Bearer token goes on as on the SDK wire (`transmit`), once the app has a software statement."""
        headers = wire_v2.device_headers(self.device) + [list(h) for h in extra]
        if content_type is not None:
            headers.append(content_type)
        return self.send(method, url, headers, body, kind, now, data=data)

    # -- startup: GET configuration ------------------------------------------------------------

    def config_request(self, sp_url, requestor_id):
        # Configuration needs the Bearer only (rest-api-v2.md 1.3); JSON, not the SDK's XML.
        return wire_v2.api_url(sp_url, requestor_id, "configuration"), [["Accept", "application/json"]]

    def read_configuration(self, body, sp_url):
        return wire_v2.parse_configuration(body, sp_url, self.device.promotional_temp_passes)

    # -- the shared store: the token made from a profile (no XML on v2) ---------------------------

    def shared_store_value(self):
        token = self.store.authn
        if token is None:
            return None
        return {"v2Token": {"guid": token.guid, "mvpd": token.mvpd_id, "expires": token.expires_ms},
                "fromApple": token.from_apple, "userMeta": token.user_meta,
                "tempPassIdentity": token.temp_pass_identity}

    def shared_token(self, value):
        # The token made from a profile (no XML on v2).
        entry = value.get("v2Token") if isinstance(value, dict) else None
        if not (isinstance(entry, dict) and isinstance(entry.get("guid"), str) and isinstance(entry.get("mvpd"), str)
                and isinstance(entry.get("expires"), int)):
            return None
        token = AuthnToken(entry["guid"], entry["mvpd"], entry["expires"], None)
        token.from_apple = value.get("fromApple") is True
        token.user_meta = value.get("userMeta")
        token.temp_pass_identity = value.get("tempPassIdentity")
        return token

    # -- checkAuthentication: GET profiles/{mvpd} (choice 68) -----------------------------------

    def check_authentication(self, now):
        token = self.store.valid_authn(now)
        mvpd_id = token.mvpd_id if token is not None else (self.store.selected.id if self.store.selected else None)
        if mvpd_id is None:
            super().check_authentication(now)  # nothing to ask about: the store answers at once
            return
        check = {"mvpd": mvpd_id, "logged_out": False}
        self.open_checks.append(check)
        self.v2_send("GET", self.v2_url(mvpd_id, "profiles", mvpd_id), "check", now, data=check)

    def select(self, mvpd):
        # Another provider clears the tokens: a check still out is about the old one, and its answer
        # must not sign the app in again behind the user's choice (choice 68).
        if self.store.selected is None or self.store.selected.id != mvpd.id:
            for check in self.open_checks:
                check["logged_out"] = True
        super().select(mvpd)

    def on_check(self, request_id, result, check, now):
        self.open_checks.remove(check)
        mvpd_id = check["mvpd"]
        if check["logged_out"]:
            # Asked before a logout: nothing it brings counts (choice 68; BEHAVIOR.md, Overlapping calls).
            self.authn_failure(USER_NOT_AUTHENTICATED_ERROR)
            return
        try:
            profiles = wire_v2.parse_profiles(result.body) if result.ok else None
        except ValueError as error:
            print("pyport: unusable profiles answer: %s" % error, file=sys.stderr)
            profiles = None
        if profiles is None:
            super().check_authentication(now)  # a failed request answers from the store, as the SDK does
            return
        profile = next((p for p in profiles if p.mvpd_id == mvpd_id and p.not_after > now), None)
        held = self.store.valid_authn(now)
        if profile is None:
            if held is not None and held.mvpd_id == mvpd_id:
                self.store.set_authn(None)
            self.authn_failure(USER_NOT_AUTHENTICATED_ERROR)
            return
        if held is None or held.mvpd_id != mvpd_id or held.expires_ms != profile.not_after:
            held = profile.token(None)
            self.store.set_authn(held)
        self.status(True, USER_AUTHENTICATED)
        self.track_authn_success(held, from_store=True)

    # -- logins: POST sessions, the user agent, the profile --------------------------------------

    def create_session(self, mvpd, data, now):
        """`POST sessions` for the MVPD (a login, a TempPass, a tvOS code: rest-api-v2.md 1.7)."""
        extra = self.identity_headers(data, mvpd)
        self.auth.mvpd = mvpd
        self.auth.phase = AuthenticationState.FETCHING
        self.auth.request_id = self.v2_send(
            "POST", self.v2_url(mvpd.id, "sessions"), "session", now,
            body=wire_v2.session_form(mvpd.id, ADOBEPASS_REDIRECT_URL), content_type=wire_v2.FORM,
            extra=extra, data=mvpd)

    def open_browser(self, mvpd, now):
        self.create_session(mvpd, self.auth.data, now)

    def start_temp_pass(self, mvpd, data, now):
        self.create_session(mvpd, data, now)

    def on_session(self, request_id, result, mvpd, now):
        if self.auth.request_id != request_id:
            return
        self.auth.request_id = None
        session = None
        if result.ok:
            try:
                session = wire_v2.parse_session(result.body)
            except ValueError as error:
                print("pyport: unusable sessions answer: %s" % error, file=sys.stderr)
        if session is None:
            self.login_failed(GENERIC_AUTHENTICATION_ERROR)
            return
        self.auth.session_id = session.session_id
        if session.action == "authorize":
            # The device has a profile already (or a TempPass made one): read it, no user agent.
            self.fetch_profile(mvpd, now)
        elif session.action == "authenticate" and self.device.platform == "tvos":
            # The session's code is the registration code; the second screen logs in with it.
            self.auth.phase = AuthenticationState.CODE
            self.auth.code = session.code
            self.auth.code_expires = session.not_after if session.not_after is not None else now + 30 * 60_000
            self.callback("status", REGCODE, session.code)
            self.auth.poll_timer = self.start_timer("poll", self.next_poll(now))
        elif session.action == "authenticate":
            url = wire_v2.absolute(mvpd.sp_url, session.url) or wire_v2.origin(mvpd.sp_url) + \
                "/api/v2/authenticate/%s/%s" % (self.requestor(), session.code)
            self.auth.phase = AuthenticationState.BROWSING
            self.auth.code = session.code
            self.callback("navigateToUrl", url)
        else:
            # resume/retry (a parameter missing) or anything else: the login cannot go on.
            self.login_failed(GENERIC_AUTHENTICATION_ERROR)

    def identity_headers(self, data, mvpd):
        """A TempPass's data is its identity (`AP-TempPass-Identity`): a promotional pass's profile and
        decisions are that identity's, so every call about it names it (Adobe's decisions samples)."""
        if data is not None and (mvpd.temp_pass or mvpd.promo_temp_pass):
            return [["AP-TempPass-Identity", wire_v2.temp_pass_identity(data)]]
        return []

    def fetch_profile(self, mvpd, now):
        self.auth.phase = AuthenticationState.FETCHING
        self.auth.request_id = self.v2_send("GET", self.v2_url(mvpd.id, "profiles", mvpd.id), "token", now,
                                            extra=self.identity_headers(self.auth.data, mvpd))

    def fetch_device_token(self, now, code=None, from_apple=False):
        """The browser is back (handleExternalURL): the session's profile, `GET profiles/code/{code}`."""
        mvpd = self.auth.mvpd
        if mvpd is None or self.auth.code is None:
            self.login_failed(GENERIC_AUTHENTICATION_ERROR)
            return
        self.auth.phase = AuthenticationState.FETCHING
        self.auth.request_id = self.v2_send(
            "GET", self.v2_url(mvpd.id, "profiles", "code", self.auth.code), "token", now)

    def on_token(self, request_id, result, data, now):
        if self.auth.phase != AuthenticationState.FETCHING or self.auth.request_id != request_id:
            return
        token = self.profile_token(result, now) if result.status in (200, 201) else None
        if token is None:
            self.login_failed(GENERIC_AUTHENTICATION_ERROR)
            return
        self.login_succeeded(token, now)

    def profile_token(self, result, now, session_id=None):
        """The authN token of the login's MVPD's live profile in an answer, or None."""
        try:
            profiles = wire_v2.parse_profiles(result.body)
        except ValueError as error:
            print("pyport: unusable profiles answer: %s" % error, file=sys.stderr)
            return None
        wanted = self.auth.mvpd.id if self.auth.mvpd is not None else None
        profile = next((p for p in profiles if p.mvpd_id == wanted), None)
        if profile is None or profile.not_after <= now:
            return None
        # Choice 70: a profile reached through a session of the app (POST sessions answered
        # authorize or a code) takes that session's id, whatever its type (an Apple SSO profile
        # found by a later login included); Apple's partner answer has no session (None).
        guid = session_id if session_id is not None else self.auth.session_id
        token = profile.token(guid)
        mvpd = self.auth.mvpd
        if mvpd is not None and (mvpd.temp_pass or mvpd.promo_temp_pass) and self.auth.data is not None:
            token.temp_pass_identity = wire_v2.temp_pass_identity(self.auth.data)
        return token

    # -- Apple SSO: POST profiles/sso/Apple --------------------------------------------------------

    def exchange_apple_token(self, mvpd, apple_token, now):
        extra = []
        mapping = getattr(mvpd, "platform_mapping_id", None)
        if mapping:
            extra.append(["AP-Partner-Framework-Status", wire_v2.partner_framework_status(mapping)])
        self.auth.session_id = None
        self.auth.request_id = self.v2_send(
            "POST", self.v2_url(mvpd.id, "profiles", "sso", wire_v2.APPLE), "token", now,
            body=wire_v2.form_encode([("SAMLResponse", apple_token)]), content_type=wire_v2.FORM, extra=extra)

    # -- tvOS: the session's code, GET profiles/code/{code} every 10 s (choice 66) ----------------

    def request_code(self, mvpd, now):
        self.create_session(mvpd, None, now)

    def send_poll(self, now):
        self.v2_send("GET", self.v2_url(self.auth.mvpd.id, "profiles", "code", self.auth.code), "poll", now,
                     data=self.auth.code)

    def on_poll(self, request_id, result, code, now):
        if self.auth.phase != AuthenticationState.CODE or self.auth.code != code:
            return
        if result.status != 200:
            return  # the next poll asks again; the code's expiry ends the login
        token = self.profile_token(result, now)
        if token is not None:
            # The poll that finds the profile ends the login: no token request follows (choice 66).
            self.cancel_timer(self.auth.poll_timer)
            self.auth.poll_timer = None
            self.login_succeeded(token, now)

    # -- authorization: POST decisions/authorize/{mvpd} -------------------------------------------

    def authorize(self, resource, data, now):
        token = self.store.valid_authn(now)
        if token is None:
            self.authz_failure(resource, USER_NOT_AUTHENTICATED_ERROR, "")
            return
        # No authZ token to cache: every authorization is a decision (rest-api-v2.md 1.7).
        flow = AuthzFlow(resource, data, token)
        self.v2_send("POST", self.v2_url(token.mvpd_id, "decisions", "authorize", token.mvpd_id), "authorize",
                     now, body=wire_v2.resources_body([resource]), content_type=wire_v2.JSON, data=flow,
                     extra=self.token_identity(token))

    def on_authorize(self, request_id, result, flow, now):
        def decision_of(body):
            decision = wire_v2.parse_decisions(body).get(flow.resource)
            if decision is None:
                raise ValueError("no decision for %s" % flow.resource)
            return decision
        read = self.read_authorization(result, flow, now, decision_of)
        if read is None:
            return
        held, decision = read
        if not decision.authorized:
            self.authz_failure(flow.resource, USER_NOT_AUTHORIZED_ERROR, decision.details)
            return
        if decision.token is None:
            self.authz_failure(flow.resource, GENERIC_AUTHORIZATION_ERROR, "HTTP %d" % result.status)
            return
        if held.guid == flow.authn.guid and decision.not_after is not None:
            # What getMetadata reports as the authorization's expiry: the decision's, as the SDK's authZ token's.
            self.store.authz[flow.resource] = AuthzToken(flow.resource, decision.not_after, None)
        self.callback("setToken", decision.token, flow.resource)
        self.callback("sendTrackingData", TRACKING_AUTHORIZATION,
                      ["true", flow.authn.mvpd_id, md5_hex(flow.authn.guid), "false", None, None]
                      + self.device.tracking_tail)

    def authz_request_failed(self, flow, result):
        self.throttled(result, Z100)
        if result.status in (401, 403):
            details = wire_v2.error_details(result.body)
            if details is not None:
                self.authz_failure(flow.resource, USER_NOT_AUTHORIZED_ERROR, details)
                return
        description = "HTTP %d" % result.status if result.status is not None else (result.failure or "failed")
        self.authz_failure(flow.resource, GENERIC_AUTHORIZATION_ERROR, description)

    # -- preauthorization: POST decisions/preauthorize/{mvpd} -------------------------------------

    def send_preauthorize(self, token, unknown, flow, now):
        self.v2_send("POST", self.v2_url(token.mvpd_id, "decisions", "preauthorize", token.mvpd_id), "preauth",
                     now, body=wire_v2.resources_body(unknown), content_type=wire_v2.JSON, data=flow,
                     extra=self.token_identity(token))

    @staticmethod
    def token_identity(token):
        """The identity a TempPass token was issued to, as its decisions' header (none: [])."""
        identity = getattr(token, "temp_pass_identity", None)
        return [["AP-TempPass-Identity", identity]] if identity else []

    def read_preauthorize(self, body):
        return {r: d.authorized for r, d in wire_v2.parse_decisions(body).items()}

    # -- metadata: the device id is the app's own (choice 67) -------------------------------------

    def get_metadata(self, key, now):
        if isinstance(key, dict) and key.get(METADATA_OPCODE_KEY) == METADATA_DEVICE_ID:
            self.metadata(self.device.device_id, False, key)
            return
        super().get_metadata(key, now)

    # -- logout: clear at once, then GET logout/{mvpd} (choice 69) ---------------------------------

    @property
    def open_checks(self):
        """The checkAuthentication calls out on their profile request."""
        if not hasattr(self, "_open_checks"):
            self._open_checks = []
        return self._open_checks

    def logout(self, now):
        for check in self.open_checks:
            check["logged_out"] = True
        from_apple = self.store.authn is not None and self.store.authn.from_apple
        token = self.store.valid_authn(now)
        selected = self.store.selected
        mvpd_id = token.mvpd_id if token is not None else (selected.id if selected is not None else None)
        if token is None and self.device.platform == "ios":
            mvpd_id = None  # choice 69: on iOS, no valid token goes straight to the redirect URL
        self.abandon_login()
        # A logout before this one still asking for its page opens none: this one owns the browser.
        self.logout_page = None
        self.store.set_authn(None)
        self.store.selected = None
        self.clear_shared_store = True
        if from_apple:
            self.callback("status", VSA203)
        if mvpd_id is None:
            self.logout_answered(None, None)
            return
        self.logout_page = self.v2_send(
            "GET", self.v2_url(mvpd_id, "logout", mvpd_id, query=[("redirectUrl", ADOBEPASS_REDIRECT_URL)]),
            "logout", now, data=mvpd_id)

    def on_logout(self, request_id, result, mvpd_id, now):
        if self.device.platform != "tvos":
            # iOS: a login or another logout started since took the browser; this answer opens nothing
            # (choice 69), as the SDK wire's page, opened before them, was taken down by them.
            if request_id != self.logout_page:
                return
            self.logout_page = None
        url = None
        if result.ok:
            try:
                _, url = wire_v2.parse_logout(result.body, mvpd_id)
            except ValueError as error:
                print("pyport: unusable logout answer: %s" % error, file=sys.stderr)
        self.logout_answered(mvpd_id, url)

    def logout_answered(self, mvpd_id, url):
        if self.device.platform == "tvos":
            # The request's end is the answer, as the SDK's DELETE logout's.
            self.status(False, USER_NOT_AUTHENTICATED_ERROR)
            return
        # The page the answer names opens; with none (complete, partner_logout, invalid, a failure) the
        # redirect URL itself, as the SDK's logout without a token does.
        self.logout_waiting = True
        self.callback("navigateToUrl", wire_v2.absolute(self.sp_for(mvpd_id), url) if url else ADOBEPASS_REDIRECT_URL)

