"""One app's AccessEnabler: API calls, HTTP answers and timers in; callbacks, requests and timers out.

Written from BEHAVIOR.md (normative), docs/CONFORMANCE.md (the choices) and docs/WIRE.md (the mock's
routes); the section of BEHAVIOR.md each part follows is named in its comment.
"""

import json
import sys
import urllib.parse

from registration import Registrar, sign
from state import AuthenticationState, StartupState, TokenStore
from wire import (ADOBEPASS_REDIRECT_URL, GENERIC_AUTHENTICATION_ERROR, GENERIC_AUTHORIZATION_ERROR,
                  METADATA_AUTHENTICATION, METADATA_AUTHORIZATION, METADATA_DEVICE_ID, METADATA_OPCODE_KEY,
                  METADATA_RESOURCE_ID_KEY, METADATA_USER_META, METADATA_USER_META_KEY, MVPD, N003, N005,
                  POLL_INTERVAL_MS, PROVIDER_NOT_SELECTED_ERROR, QUEUED_CALLS, R400, REG500, REGCODE,
                  STATUS_ERROR, STATUS_SUCCESS, TRACKING_AUTHENTICATION, TRACKING_AUTHORIZATION,
                  TRACKING_GET_SELECTED_PROVIDER, USER_AUTHENTICATED, USER_NOT_AUTHENTICATED_ERROR,
                  USER_NOT_AUTHORIZED_ERROR, VSA203, CFG429, Z100, P100, HTTPResult, ProtocolError, error_details,
                  format_token_date, form_encode, json_text, md5_hex, normalize_sp, parse_authn_token,
                  parse_authorize, parse_configuration, parse_preauthorize, parse_session_device, parse_xml,
                  child_text)

FORM = [["Content-Type", "application/x-www-form-urlencoded"]]


class AuthzFlow:
    """One authorization in flight: its resource, data, and whether the authZ token came from the cache."""

    def __init__(self, resource, data, authn, requestor_id=""):
        self.resource = resource
        self.data = data
        self.authn = authn
        self.cached = False
        # The requestor it was asked under: its media token request names it even when a
        # setRequestor is under way by then (choice 81).
        self.requestor_id = requestor_id


class PreauthFlow:
    """One checkPreauthorizedResources waiting on its preauthorize request."""

    def __init__(self, resources, known, authn, cache=True):
        self.resources = resources
        self.known = known        # the cache's decisions at the call (empty with cache: false)
        self.authn = authn
        self.cache = cache        # cache: true: what the response does not decide is read from the cache


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
        self.requests = {}         # request id -> (kind, data)
        self.timers = {}           # timer id -> purpose: "config", "poll" or ("request", request id)
        self.next_request = 0
        self.next_timer = 0
        self.logout_waiting = False  # an iOS logout waits for its handleExternalURL
        self.logout_page = None    # REST v2, iOS: the GET logout whose answer opens the page (choice 69)
        self.clear_shared_store = False
        self.service_providers = []
        self.registrar = None      # init(softwareStatement:): client registration per SP origin
        self.signing = None        # (secret, public key) of the deprecated tvOS setRequestor
        self.wire = {}             # request id -> [method, url, headers, body, retried] until answered
        self.wire_ids = {}         # id of a resent request -> the engine's request id
        self.sent = set()          # request ids sent at least once
        self.signed_calls = 0
        self.registration_refused = False  # a 429 routed from a refused registration is not the flow's

    # -- output ------------------------------------------------------------------------------

    def callback(self, name, *args):
        self.out.append({"type": "callback", "app": self.name, "callback": name, "args": list(args)})

    def throttled(self, result, code):
        """A request answered 429: its status code before the callback that ends the call (BEHAVIOR.md,
        Throttling); none when the 429 was the registration's, not the flow's own (choice 52)."""
        if result.status == 429 and not self.registration_refused:
            self.callback("status", code)

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

    def send(self, method, url, headers, body, kind, now, data=None, deadline=True, signed=False):
        self.next_request += 1
        request_id = self.next_request
        headers = [list(h) for h in headers] + self.option_headers()
        if signed and self.signing is not None:
            # SDK 2.x tvOS: the registration-code flow's calls are signed (BEHAVIOR.md).
            secret, public_key = self.signing
            # Unique per app and instant, as the mock's replay check (10 minutes) needs.
            self.signed_calls += 1
            nonce = "%d-%d" % (self.signed_calls, now)
            headers.append(["Authorization", sign(method, url, self.requestor(), secret, public_key, nonce, now)])
        self.requests[request_id] = (kind, data)
        self.wire[request_id] = [method, url, headers, body, signed and self.signing is not None, False]
        if deadline:
            # Choice 4: every engine request gives up after the request timeout (30 s).
            self.start_timer(("request", request_id), now + self.device.request_timeout)
        self.transmit_when_registered(request_id, now)
        return request_id

    def option_headers(self):
        # setOptions values travel as headers named by the option; handleSVC is not sent (choice 14).
        return [[k, v if isinstance(v, str) else json_text(v)] for k, v in self.options if k != "handleSVC"]

    def transmit_when_registered(self, request_id, now):
        """Sends a request, after its origin's registration when init(softwareStatement:) asked for one."""
        url = self.wire[request_id][1]
        if self.registrar is None:
            self.transmit(request_id, None)
            return
        state = self.registrar.origin(url)
        if state.token_valid(now):
            self.transmit(request_id, state.access_token)
            return
        state.waiting.append(request_id)
        if state.in_flight is None:
            state.renewing = state.client_id is not None
            self.register_step(url, now)

    def transmit(self, request_id, access_token):
        method, url, headers, body, signed, _ = self.wire[request_id]
        if access_token is not None and signed:
            # Authorization holds the signature: the access token goes beside it, as a parameter.
            param = form_encode([("access_token", access_token)])
            if method == "POST":
                body = body + ("&" if body else "") + param
            else:
                url = url + ("&" if "?" in url else "?") + param
        elif access_token is not None:
            headers = headers + [["Authorization", "Bearer " + access_token]]
        wire_id = request_id
        if request_id in self.sent:
            # Sent once already (a 401): the new request goes out under an id of its own, and its
            # answer comes back to this request.
            self.next_request += 1
            wire_id = self.next_request
            self.wire_ids[wire_id] = request_id
        self.sent.add(request_id)
        # On the live network this sends it now and reports `fetched` in the place of `request`.
        self.out.append(self.transport.send(self.name, wire_id, method, url, headers, body))

    def register_step(self, url, now):
        method, step_url, headers, body = self.registrar.next_step(url)
        self.registrar.origin(url).sent_at = now
        self.next_request += 1
        step_id = self.next_request
        self.requests[step_id] = ("registration", url)
        self.wire[step_id] = [method, step_url, headers + self.option_headers(), body, False, False]
        self.start_timer(("request", step_id), now + self.device.request_timeout)
        self.transmit(step_id, None)

    def on_registration(self, request_id, result, url, now):
        state = self.registrar.origin(url)
        step, state.in_flight = state.in_flight, None
        if step == "register":
            client = Registrar.read_client(result)
            if client is not None:
                state.client_id, state.client_secret = client
                self.register_step(url, now)
                return
        else:
            # expires_in counts from when the token was asked for, as the engine counts it (choice 32).
            token = Registrar.read_token(result, state.sent_at if state.sent_at is not None else now)
            renewing, state.renewing = state.renewing, False
            if token is not None:
                state.access_token, state.expires_ms = token
                waiting, state.waiting = state.waiting, []
                for waiter in waiting:
                    if waiter in self.requests:
                        self.transmit(waiter, state.access_token)
                return
            if renewing and result.status is not None:
                # A renewal refused: the SP forgot the client; register afresh, once, with the
                # waiting requests (choice 33). A refusal of that registration is final. With no
                # request waiting any more (their flows ended), the next request registers.
                state.client_id = state.client_secret = None
                if any(waiter in self.requests for waiter in state.waiting):
                    self.register_step(url, now)
                else:
                    state.waiting = []
                return
        # The origin refused, or could not be reached: it is forgotten, client and token, so the next
        # request registers afresh (choice 33: no half-registration is kept). A refusal delivers R400
        # first (BEHAVIOR.md), then every waiting request ends with that answer (for setRequestor, an
        # SP that refused).
        state.client_id = state.client_secret = state.access_token = state.expires_ms = None
        if result.status is not None:
            self.callback("status", R400)
        waiting, state.waiting = state.waiting, []
        self.registration_refused = True
        try:
            for waiter in waiting:
                entry = self.requests.pop(waiter, None)
                if entry is not None:
                    self.forget_request(waiter)
                    self.wire.pop(waiter, None)
                    getattr(self, "on_" + entry[0])(waiter, result, entry[1], now)
        finally:
            self.registration_refused = False

    def retried_after_401(self, request_id, result, now):
        """A request answered 401 gets a new access token and is sent once more (BEHAVIOR.md)."""
        wire = self.wire.get(request_id)
        if result.status != 401 or self.registrar is None or wire is None or wire[5] or self.requests[request_id][0] == "registration":
            return False
        wire[5] = True  # once only: a second 401 is a refusal
        state = self.registrar.origin(wire[1])
        state.access_token = None
        state.waiting.append(request_id)
        if state.in_flight is None:
            state.renewing = state.client_id is not None
            self.register_step(wire[1], now)
        return True

    def start_timer(self, purpose, at):
        self.next_timer += 1
        self.timers[self.next_timer] = purpose
        self.out.append({"type": "timer", "app": self.name, "id": self.next_timer, "at": at})
        return self.next_timer

    def cancel_timer(self, timer_id):
        if timer_id is not None and self.timers.pop(timer_id, None) is not None:
            self.out.append({"type": "cancel-timer", "app": self.name, "id": timer_id})

    def forget_request(self, request_id):
        """Drops a request: its answer, if it ever comes, is ignored; its deadline goes too."""
        self.requests.pop(request_id, None)
        self.wire.pop(request_id, None)
        for timer_id, purpose in list(self.timers.items()):
            if purpose == ("request", request_id):
                self.cancel_timer(timer_id)

    # -- where requests go -------------------------------------------------------------------

    def sp_for(self, mvpd_id=None):
        """Requests about an MVPD go to the SP it was learnt from (BEHAVIOR.md, Startup)."""
        for candidate in (mvpd_id, self.store.selected.id if self.store.selected else None):
            mvpd = self.startup.mvpd(candidate) if candidate else None
            if mvpd is not None:
                return mvpd.sp_url
        if self.store.selected is not None and self.store.selected.sp_url:
            return self.store.selected.sp_url
        if self.service_providers:
            return self.service_providers[0]
        return normalize_sp(self.device.default_sp)

    def requestor(self):
        return self.startup.requestor_id or ""

    # -- inputs ------------------------------------------------------------------------------

    def handle_call(self, call, args, now):
        if call in QUEUED_CALLS and not self.startup.configured:
            # Before a (successful) configuration these wait; they start after setRequestorComplete(1).
            self.queue.append((call, args))
            return
        self.dispatch(call, args, now)

    def dispatch(self, call, args, now):
        if call == "init":
            # The engine already exists (choice 12). A software statement means client registration
            # (SDK 3.x); the deprecated init registers nothing.
            statement = args.get("softwareStatement")
            self.registrar = Registrar(statement) if isinstance(statement, str) else None
            return
        if call == "setOptions":
            self.set_options(args.get("options"))
        elif call == "setRequestor":
            self.set_requestor(args, now)
        elif call == "checkAuthentication":
            self.check_authentication(now)
        elif call == "getAuthentication":
            self.get_authentication(args.get("forceAuthn") is True, args.get("data"), args.get("filter"), now)
        elif call == "setSelectedProvider":
            self.set_selected_provider(args.get("mvpd"), now)
        elif call in ("handleExternalURL", "getAuthenticationToken"):
            # Choice 19: the deprecated getAuthenticationToken completes a browser login the same way.
            self.handle_external_url(call, now)
        elif call == "getSelectedProvider":
            self.callback("selectedProvider", self.store.selected.to_wire() if self.store.selected else None)
        elif call == "checkAuthorization":
            self.check_authorization(self.resource_arg(args), args.get("data"), now)
        elif call == "getAuthorization":
            self.get_authorization(self.resource_arg(args), args.get("data"), now)
        elif call == "checkPreauthorizedResources":
            self.check_preauthorized(args.get("resources"), args.get("cache") is not False, now)
        elif call == "getMetadata":
            self.get_metadata(args.get("key"), now)
        elif call == "logout":
            self.logout(now)
        elif call == "getVersion":
            pass  # choice 46: a getter; its answer is a return value, not a callback
        else:
            raise ProtocolError("unknown call %r" % call)

    @staticmethod
    def resource_arg(args):
        resource = args.get("resource")
        if not isinstance(resource, str):
            raise ProtocolError("an authorization needs a resource string")
        return resource

    def handle_response(self, wire_id, result, now):
        request_id = self.wire_ids.pop(wire_id, wire_id)
        if request_id not in self.requests:
            return  # a request given up (timed out or superseded): its late answer changes nothing
        if self.retried_after_401(request_id, result, now):
            return
        entry = self.requests.pop(request_id)
        self.forget_request(request_id)
        kind, data = entry
        handler = getattr(self, "on_" + kind)
        handler(request_id, result, data, now)

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
        elif purpose == "poll":
            self.poll_code(now)
        elif purpose[0] == "request":
            request_id = purpose[1]
            entry = self.requests.pop(request_id, None)
            self.wire.pop(request_id, None)
            if entry is not None:
                kind, data = entry
                getattr(self, "on_" + kind)(request_id, HTTPResult.timed_out(), data, now)

    def adopt_shared_store(self, value):
        """iOS passive SSO: setRequestor replaces the app's authN token with the shared store's."""
        if self.device.platform != "ios":
            return  # tvOS apps share nothing
        token = self.shared_token(value)
        if token is None:
            self.store.set_authn(None)
            return
        if self.store.authn is not None and self.store.authn.guid == token.guid:
            return
        self.store.set_authn(token)
        if self.store.selected is None or self.store.selected.id != token.mvpd_id:
            # Choice 20; a placeholder until the configuration on its way describes that MVPD.
            self.store.selected = MVPD(token.mvpd_id, token.mvpd_id)

    def shared_token(self, value):
        """The authN token a shared-store entry holds (None: none, or unreadable)."""
        if not isinstance(value, dict) or not isinstance(value.get("authnToken"), str):
            return None
        try:
            token = parse_authn_token(value["authnToken"])
        except ValueError:
            return None
        token.from_apple = value.get("fromApple") is True
        token.user_meta = value.get("userMeta")
        return token

    def shared_store_value(self):
        token = self.store.authn
        if token is None:
            return None
        return {"authnToken": token.xml, "fromApple": token.from_apple, "userMeta": token.user_meta}

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
        sps = args.get("serviceProviders") or [self.device.default_sp]
        if not all(isinstance(sp, str) for sp in sps):
            raise ProtocolError("serviceProviders must be strings")
        if isinstance(args.get("signedRequestorID"), str):
            self.signed_requestor_id = args["signedRequestorID"]
        if isinstance(args.get("secret"), str) and isinstance(args.get("publicKey"), str):
            # Only the latest call of the deprecated tvOS variant counts.
            self.signing = (args["secret"], args["publicKey"])
        # A login running now ends with no callback (BEHAVIOR.md, Overlapping calls), and so does a
        # logout waiting for its browser or, on tvOS, its requests (CONFORMANCE choice 45).
        self.abandon_login()
        self.logout_waiting = False
        self.logout_page = None
        for request_id, (kind, _) in list(self.requests.items()):
            if kind == "logout":
                self.requests.pop(request_id, None)
        # Choice 1: a fetch still in flight is superseded and its setRequestor ends now with 0.
        if self.startup.fetching:
            for request_id in list(self.startup.outstanding):
                self.requests.pop(request_id, None)
            self.cancel_timer(self.startup.deadline_timer)
            self.callback("setRequestorComplete", STATUS_ERROR)
        self.service_providers = [normalize_sp(sp) for sp in sps]
        requests = {}
        for url in self.service_providers:
            config_url, headers = self.config_request(url, requestor_id)
            request_id = self.send("GET", config_url, headers, "", "config", now, deadline=False)
            requests[request_id] = url
        # One deadline for the whole configuration: after it, silent SPs count as settled.
        deadline = self.start_timer("config", now + self.device.request_timeout)
        self.startup.start(requestor_id, requests, deadline)

    def config_request(self, sp_url, requestor_id):
        """The SDK's `GET config/{requestor}` (the v2 engine asks `GET configuration`)."""
        return sp_url + "/config/" + urllib.parse.quote(requestor_id, safe=""), [["Accept", "application/xml"]]

    def read_configuration(self, body, sp_url):
        return parse_configuration(body, sp_url)

    def on_config(self, request_id, result, data, now):
        sp_url = self.startup.outstanding.get(request_id)
        if sp_url is None:
            return
        self.throttled(result, CFG429)
        mvpds = None
        if result.ok:
            try:
                mvpds = self.read_configuration(result.body, sp_url)
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
        """Ends the running login with no callback (a superseding call, setRequestor, logout)."""
        self.dismiss_picker()
        if self.auth.request_id is not None:
            self.forget_request(self.auth.request_id)
        self.cancel_timer(self.auth.poll_timer)
        self.auth.reset()

    def dismiss_picker(self):
        """Apple's picker, if up, goes down first: every presentTvProviderDialog is balanced by exactly
        one dismissTvProviderDialog (BEHAVIOR.md, Apple SSO). The login waits on the dialog after it."""
        if self.auth.phase == AuthenticationState.PICKER and self.auth.picker is not None:
            self.callback("dismissTvProviderDialog", *self.picker_args())
            self.auth.picker = None
            self.auth.phase = AuthenticationState.SELECTING

    def check_authentication(self, now):
        token = self.store.valid_authn(now)
        if token is not None:
            self.status(True, USER_AUTHENTICATED)
            self.track_authn_success(token, from_store=True)
        else:
            self.authn_failure(USER_NOT_AUTHENTICATED_ERROR)

    def get_authentication(self, force, data, filter_value, now, pending=None):
        # A new getAuthentication supersedes a running login with no callback, and ends a logout's
        # wait for its browser (choice 7).
        self.abandon_login()
        self.logout_waiting = False
        self.logout_page = None
        token = self.store.valid_authn(now)
        if not force and token is not None:
            self.status(True, USER_AUTHENTICATED)
            self.track_authn_success(token, from_store=True)
            return
        selected = self.store.selected
        # The stored selection counts even when the configuration no longer offers it, as the
        # reference engine reads it.
        if data is not None and pending is None and selected is not None and selected.promo_temp_pass:
            # Promotional TempPass: getAuthentication(false, withData:) sends the data (an email).
            self.auth.begin(force, data, pending)
            self.auth.mvpd = selected
            self.start_temp_pass(selected, data, now)
            return
        mvpds = self.startup.mvpds or []
        if not mvpds:
            # Choice 3: nothing to pick from fails at once (AND-1.8 and JS).
            self.authn_failure(GENERIC_AUTHENTICATION_ERROR)
            return
        self.auth.begin(force, data, pending)
        if any(m.enable_platform_services for m in mvpds):
            shown, featured = self.picker_lists(mvpds, filter_value)
            if shown:
                self.auth.phase = AuthenticationState.PICKER
                self.auth.picker = (shown, featured)
                self.callback("presentTvProviderDialog", *self.picker_args())
                return
        self.callback("displayProviderDialog", [m.to_wire() for m in mvpds])

    def picker_lists(self, mvpds, filter_value):
        """Apple's picker: the SSO MVPDs shown and featured (BEHAVIOR.md, Apple SSO; choice 21)."""
        sso = [m.id for m in mvpds if m.enable_platform_services]
        if filter_value is None:
            return sso, []
        wanted, featured = [], []
        if isinstance(filter_value, list):
            wanted = filter_value
        elif isinstance(filter_value, dict):
            for key, value in filter_value.items():
                if not isinstance(value, list):
                    continue
                if "FEATURED" in str(key).upper():
                    featured = value
                else:
                    wanted = value
        shown = []
        for item in wanted:
            mvpd_id = item.get("id") if isinstance(item, dict) else item
            if mvpd_id in sso and mvpd_id not in shown:
                shown.append(mvpd_id)
        # A featured MVPD is always also shown: one missing from TV_PROVIDERS is dropped.
        chosen = []
        for item in featured:
            mvpd_id = item.get("id") if isinstance(item, dict) else item
            if mvpd_id in shown and mvpd_id not in chosen:
                chosen.append(mvpd_id)
        return shown, chosen

    def picker_args(self):
        shown, featured = self.auth.picker
        return ([self.startup.mvpd(i).to_wire() for i in shown], [self.startup.mvpd(i).to_wire() for i in featured])

    def handle_picker(self, outcome, now):
        if self.auth.phase != AuthenticationState.PICKER:
            return  # no picker is up: the user's late action changes nothing
        self.callback("dismissTvProviderDialog", *self.picker_args())
        self.auth.picker = None
        if outcome == "cancelled":
            # Cancelled: the stored selection is cleared, as a cancel via nil clears it.
            self.callback("status", N005)
            self.abandon_login()
            self.store.selected = None
            self.authn_failure(PROVIDER_NOT_SELECTED_ERROR)
            return
        if outcome == "other":
            self.callback("status", N003)
            self.auth.phase = AuthenticationState.SELECTING
            self.callback("displayProviderDialog", [m.to_wire() for m in self.startup.mvpds or []])
            return
        if not isinstance(outcome, dict) or not isinstance(outcome.get("picked"), str):
            raise ProtocolError("picker outcome must be \"cancelled\", \"other\" or {\"picked\": id}")
        mvpd = self.startup.mvpd(outcome["picked"])
        if mvpd is None:
            self.abandon_login()
            self.store.selected = None
            self.authn_failure(PROVIDER_NOT_SELECTED_ERROR)
            return
        self.select(mvpd)
        apple_token = outcome.get("appleToken")
        if mvpd.boarding_status == "SUPPORTED" and isinstance(apple_token, str):
            # Apple's token is exchanged for an Adobe authN token: no browser, no code.
            self.auth.mvpd = mvpd
            self.auth.phase = AuthenticationState.FETCHING
            self.exchange_apple_token(mvpd, apple_token, now)
            return
        self.open_browser(mvpd, now)

    def exchange_apple_token(self, mvpd, apple_token, now):
        fields = [("requestor", self.requestor()), ("deviceId", self.device.device_id), ("mvpd", mvpd.id),
                  ("deviceType", self.device.os_name), ("SAMLResponse", apple_token)]
        self.auth.request_id = self.send("POST", mvpd.sp_url + "/api/v1/tokens/authn", FORM,
                                         form_encode(fields), "exchange", now)

    def on_exchange(self, request_id, result, data, now):
        if self.auth.request_id != request_id:
            return
        if result.status in (200, 201, 204):
            self.fetch_device_token(now, from_apple=True)
        else:
            self.login_failed(GENERIC_AUTHENTICATION_ERROR)

    def set_selected_provider(self, mvpd_id, now):
        mvpd = self.startup.mvpd(mvpd_id) if isinstance(mvpd_id, str) else None
        if mvpd is None:
            # nil or an unknown id resets the state machine, in a login or not (choice 2); Apple's
            # picker, if up, is taken down first (BEHAVIOR.md, Cancel via nil).
            self.abandon_login()
            self.store.selected = None
            self.authn_failure(PROVIDER_NOT_SELECTED_ERROR)
            return
        # During Apple's picker the picker goes down first; the login moves on without it.
        self.dismiss_picker()
        self.select(mvpd)
        if mvpd.promo_temp_pass:
            # Selecting a promotional TempPass does not authenticate; a login keeps waiting, for
            # getAuthentication(false, withData:), what it was doing (a request, a code) dropped (choice 17).
            if self.auth.running:
                self.abandon_keep_pending()
                self.auth.mvpd = mvpd
            return
        if mvpd.temp_pass:
            # A TempPass authenticates at once, no browser, in a login or not.
            if not self.auth.running:
                self.auth.begin(False, None)
            else:
                self.abandon_keep_pending()
            self.auth.mvpd = mvpd
            self.start_temp_pass(mvpd, None, now)
            return
        if self.auth.running:
            # Picking (again) during a login restarts it with this MVPD (choice 8).
            self.abandon_keep_pending()
            self.open_browser(mvpd, now)

    def abandon_keep_pending(self):
        force, data, pending = self.auth.force, self.auth.data, self.auth.pending
        self.abandon_login()
        self.auth.begin(force, data, pending)

    def select(self, mvpd):
        """A different MVPD becomes the stored one, clears the tokens and is tracked (other SDKs)."""
        changed = self.store.selected is None or self.store.selected.id != mvpd.id
        self.store.selected = mvpd
        if changed:
            self.store.set_authn(None)
            self.callback("sendTrackingData", TRACKING_GET_SELECTED_PROVIDER, [mvpd.id] + self.device.tracking_tail)

    def start_temp_pass(self, mvpd, data, now):
        fields = [("requestor_id", self.requestor()), ("device_id", self.device.device_id), ("mso_id", mvpd.id),
                  ("domain_name", "adobe.com")]
        if data is not None:
            fields.append(("generic_data", json_text(data)))
        self.auth.phase = AuthenticationState.FETCHING
        self.auth.request_id = self.send("POST", mvpd.sp_url + "/authenticate/freepreview", FORM,
                                         form_encode(fields), "freepreview", now)

    def on_freepreview(self, request_id, result, data, now):
        if self.auth.request_id != request_id:
            return
        if result.status in (200, 201, 204):
            self.fetch_device_token(now)
        else:
            # A TempPass used up on this device (403), or the request failed.
            self.login_failed(GENERIC_AUTHENTICATION_ERROR)

    def open_browser(self, mvpd, now):
        self.auth.mvpd = mvpd
        if self.device.platform == "tvos":
            self.request_code(mvpd, now)
            return
        query = [("domain_name", "adobe.com"), ("noflash", "true"), ("no_iframe", "true"),
                 ("mso_id", mvpd.id), ("requestor_id", self.requestor()),
                 ("redirect_url", self.device.svc_scheme if mvpd.requires_svc else ADOBEPASS_REDIRECT_URL),
                 ("client_type", self.device.os_name), ("client_version", self.device.client_version)]
        if self.auth.data is not None:
            query.append(("generic_data", json_text(self.auth.data)))
        self.auth.phase = AuthenticationState.BROWSING
        self.show_page(mvpd, mvpd.sp_url + "/authenticate/saml?" + form_encode(query))

    def show_page(self, mvpd, url):
        # An MVPD that requires SVC: navigateToUrl(url, true) under handleSVC, else the SDK presents
        # SFSafariViewController itself, no callback (BEHAVIOR.md, Authentication 3; protocol 1.1 `present`).
        if mvpd is not None and mvpd.requires_svc:
            if self.option("handleSVC") is True:
                self.callback("navigateToUrl", url, True)
            else:
                self.out.append({"type": "present", "app": self.name, "url": url})
        else:
            self.callback("navigateToUrl", url)

    def option(self, key):
        for k, v in self.options:
            if k == key:
                return v
        return None

    def handle_external_url(self, call, now):
        # Choice 9: any URL completes the waiting login; with nothing waiting it is ignored.
        if self.auth.phase == AuthenticationState.BROWSING:
            self.fetch_device_token(now)
            return
        if self.logout_waiting and call == "handleExternalURL":
            # The logout's browser is back: status 0, no tracking (BEHAVIOR.md, Logout).
            self.logout_waiting = False
            self.status(False, USER_NOT_AUTHENTICATED_ERROR)

    def fetch_device_token(self, now, code=None, from_apple=False):
        """`POST sessionDevice`: the authN token of the login the SP holds for this device."""
        fields = [("_method", "GET"), ("requestor_id", self.requestor()), ("device_id", self.device.device_id)]
        if code is not None:
            fields.append(("reg_code", code))
        if self.signed_requestor_id is not None:
            fields.append(("signed_requestor_id", self.signed_requestor_id))
        sp = self.auth.mvpd.sp_url if self.auth.mvpd is not None else self.sp_for()
        self.auth.phase = AuthenticationState.FETCHING
        self.auth.request_id = self.send("POST", sp + "/sessionDevice", FORM, form_encode(fields), "token", now,
                                         data=from_apple, signed=code is not None)

    def on_token(self, request_id, result, from_apple, now):
        if self.auth.phase != AuthenticationState.FETCHING or self.auth.request_id != request_id:
            return
        if result.ok:
            try:
                kind, token = parse_session_device(result.body)
            except ValueError as error:
                print("pyport: unusable sessionDevice answer: %s" % error, file=sys.stderr)
                kind, token = "none", None
            if kind == "token" and token.expires_ms > now:
                token.from_apple = bool(from_apple)
                self.login_succeeded(token, now)
                return
            if kind == "pendingLogout":
                self.store.set_authn(None)
        # No token, a refusal, an error status or a timeout; the selection stays (choice 6).
        self.login_failed(GENERIC_AUTHENTICATION_ERROR)

    def login_succeeded(self, token, now):
        pending = self.auth.pending
        self.abandon_login()
        self.store.set_authn(token)
        self.status(True, USER_AUTHENTICATED)
        self.track_authn_success(token, from_store=False)
        if pending is not None:
            # getAuthorization continues after the login's status and tracking.
            self.authorize(pending[0], pending[1], now)

    def login_failed(self, code):
        # A getAuthorization waiting on this login ends with the failure's status alone (invariant 3).
        self.abandon_login()
        self.authn_failure(code)

    # -- tvOS registration code (BEHAVIOR.md, Authentication: tvOS) --------------------------

    def request_code(self, mvpd, now):
        fields = [("deviceId", self.device.device_id), ("mvpd", mvpd.id), ("deviceType", self.device.device_type)]
        self.auth.phase = AuthenticationState.CODE
        self.auth.request_id = self.send("POST", mvpd.sp_url + "/reggie/v1/" + urllib.parse.quote(self.requestor(), safe="")
                                         + "/regcode", FORM, form_encode(fields), "regcode", now,
                                         signed=True)

    def on_regcode(self, request_id, result, data, now):
        if self.auth.request_id != request_id:
            return
        self.auth.request_id = None
        code, expires = None, None
        if result.status in (200, 201):
            try:
                answer = json.loads(result.body)
                code, expires = answer.get("code"), answer.get("expires")
            except (ValueError, AttributeError):
                code = None
        if not isinstance(code, str) or not isinstance(expires, int):
            # REG500 only when refused for want of a signature or token, a 401 (BEHAVIOR.md, Client
            # registration; CONFORMANCE choice 35); any other failure is the plain login failure.
            if result.status == 401:
                self.callback("status", REG500)
            self.login_failed(GENERIC_AUTHENTICATION_ERROR)
            return
        self.auth.code, self.auth.code_expires = code, expires
        self.callback("status", REGCODE, code)
        self.auth.poll_timer = self.start_timer("poll", self.next_poll(now))

    def next_poll(self, now):
        # The login gives up at the instant the code expires (as the SP said), not at the next poll:
        # tvos/code-expires pins it with `at`.
        return min(now + POLL_INTERVAL_MS, self.auth.code_expires)

    def poll_code(self, now):
        self.auth.poll_timer = None
        if self.auth.phase != AuthenticationState.CODE or self.auth.code is None:
            return
        if now >= self.auth.code_expires:
            # The poll gives up when the code expires.
            self.login_failed(GENERIC_AUTHENTICATION_ERROR)
            return
        # Choice 18: every 10 s from the previous poll, however long an answer takes.
        self.auth.poll_timer = self.start_timer("poll", self.next_poll(now))
        self.send_poll(now)

    def send_poll(self, now):
        """The poll's request for the code (the SDK's `checkauthn`)."""
        query = form_encode([("requestor", self.requestor()), ("deviceId", self.device.device_id)])
        self.send("GET", self.auth.mvpd.sp_url + "/api/v1/checkauthn/" + urllib.parse.quote(self.auth.code, safe="")
                  + "?" + query, [], "", "poll", now, data=self.auth.code, signed=True)

    def on_poll(self, request_id, result, code, now):
        if self.auth.phase != AuthenticationState.CODE or self.auth.code != code:
            return
        if result.status == 200:
            self.cancel_timer(self.auth.poll_timer)
            self.auth.poll_timer = None
            self.fetch_device_token(now, code=code)
        elif result.status == 410:
            self.login_failed(GENERIC_AUTHENTICATION_ERROR)

    # -- authorization (BEHAVIOR.md, Authorization) -----------------------------------------

    def check_authorization(self, resource, data, now):
        if self.store.valid_authn(now) is None:
            self.authz_failure(resource, USER_NOT_AUTHENTICATED_ERROR, "")
            return
        self.authorize(resource, data, now)

    def get_authorization(self, resource, data, now):
        if self.store.valid_authn(now) is not None:
            self.abandon_login()
            self.authorize(resource, data, now)
            return
        # Without a token the authentication flow runs first; a login running is superseded.
        # Its data goes on the login's authenticate/saml request too (BEHAVIOR.md, withData:).
        self.get_authentication(False, data, None, now, pending=(resource, data))

    def authorize(self, resource, data, now):
        token = self.store.valid_authn(now)
        if token is None:
            self.authz_failure(resource, USER_NOT_AUTHENTICATED_ERROR, "")
            return
        flow = AuthzFlow(resource, data, token, self.requestor())
        authz = self.store.valid_authz(resource, now)
        if authz is not None:
            # A valid cached authZ token skips the authorize request; the media token is always fetched.
            flow.cached = True
            self.short_authorize(flow, authz, now)
            return
        fields = [("resource_id", resource), ("requestor_id", self.requestor()), ("mso_id", token.mvpd_id),
                  ("device_id", self.device.device_id), ("userMeta", "1"), ("authentication_token", token.xml)]
        if self.signed_requestor_id is not None:
            fields.append(("signed_requestor_id", self.signed_requestor_id))
        if data is not None:
            fields.append(("generic_data", json_text(data)))
        self.send("POST", self.sp_for(token.mvpd_id) + "/authorizeDevice", FORM, form_encode(fields),
                  "authorize", now, data=flow)

    def read_authorization(self, result, flow, now, parse):
        """An authorization's answer read by `parse`, with the token held now; None once the call
        has ended here (no token held, a failed request, an unusable answer)."""
        held = self.store.valid_authn(now)
        if held is None:
            # Answered after a logout (or the token's expiry), whatever the answer (BEHAVIOR.md,
            # Overlapping calls; invariant 6).
            self.authz_failure(flow.resource, USER_NOT_AUTHENTICATED_ERROR, "")
            return None
        if not result.ok:
            self.authz_request_failed(flow, result)
            return None
        try:
            return held, parse(result.body)
        except ValueError:
            # Choice 13: an unusable answer is described by its status, as any failed request.
            self.authz_failure(flow.resource, GENERIC_AUTHORIZATION_ERROR, "HTTP %d" % result.status)
            return None

    def on_authorize(self, request_id, result, flow, now):
        read = self.read_authorization(result, flow, now, lambda body: parse_authorize(body, flow.resource, now))
        if read is None:
            return
        held, authz = read
        if held.guid == flow.authn.guid:
            # Nothing an authorization brings is cached once the token it was asked with is replaced.
            self.store.authz[flow.resource] = authz
        self.short_authorize(flow, authz, now)

    def short_authorize(self, flow, authz, now):
        fields = [("authz_token", authz.xml), ("requestor_id", flow.requestor_id), ("mso_id", flow.authn.mvpd_id),
                  ("session_guid", flow.authn.guid), ("hashed_guid", "false"), ("device_id", self.device.device_id)]
        if self.signed_requestor_id is not None:
            fields.append(("signed_requestor_id", self.signed_requestor_id))
        self.send("POST", self.sp_for(flow.authn.mvpd_id) + "/deviceShortAuthorize", FORM, form_encode(fields),
                  "media", now, data=flow)

    def on_media(self, request_id, result, flow, now):
        # Invariant 6: no setToken without a valid authN token. One that arrives after a logout (or
        # the token's expiry) ends as an unauthenticated check does (BEHAVIOR.md, Overlapping calls).
        if self.store.valid_authn(now) is None:
            self.authz_failure(flow.resource, USER_NOT_AUTHENTICATED_ERROR, "")
            return
        if not result.ok:
            self.authz_request_failed(flow, result)
            return
        self.callback("setToken", result.body, flow.resource)
        self.callback("sendTrackingData", TRACKING_AUTHORIZATION,
                      ["true", flow.authn.mvpd_id, md5_hex(flow.authn.guid), "true" if flow.cached else "false",
                       None, None] + self.device.tracking_tail)

    def authz_request_failed(self, flow, result):
        self.throttled(result, Z100)
        # Choice 13: a 401/403 with an error body is the MVPD's refusal; anything else is generic.
        if result.status in (401, 403):
            details = error_details(result.body)
            if details is not None:
                self.authz_failure(flow.resource, USER_NOT_AUTHORIZED_ERROR, details)
                return
        if result.status is not None:
            description = "HTTP %d" % result.status
        else:
            description = result.failure or "failed"
        self.authz_failure(flow.resource, GENERIC_AUTHORIZATION_ERROR, description)

    def authz_failure(self, resource, code, details):
        self.callback("tokenRequestFailed", resource, code, details)
        self.callback("sendTrackingData", TRACKING_AUTHORIZATION,
                      ["false", None, None, None, code, details] + self.device.tracking_tail)

    # -- preauthorization ---------------------------------------------------------------------

    def check_preauthorized(self, resources, cache, now):
        if not isinstance(resources, list) or not all(isinstance(r, str) for r in resources):
            raise ProtocolError("checkPreauthorizedResources needs an array of resource strings")
        token = self.store.valid_authn(now)
        if token is None:
            self.callback("preauthorizedResources", [])
            return
        known = {r: self.store.preauth[r] for r in resources if r in self.store.preauth} if cache else {}
        unknown = []
        for r in resources:
            if r not in known and r not in unknown:
                unknown.append(r)
        flow = PreauthFlow(resources, known, token, cache)
        if not unknown:
            self.answer_preauth(flow, {})
            return
        self.send_preauthorize(token, unknown, flow, now)

    def send_preauthorize(self, token, unknown, flow, now):
        fields = [("authentication_token", token.xml), ("requestor_id", self.requestor()),
                  ("device_id", self.device.device_id)] + [("resource_id", r) for r in unknown]
        self.send("POST", self.sp_for(token.mvpd_id) + "/preauthorize", FORM, form_encode(fields),
                  "preauth", now, data=flow)

    def read_preauthorize(self, body):
        """resource -> allowed, from a successful answer (raises ValueError when unusable)."""
        return parse_preauthorize(body)

    def on_preauth(self, request_id, result, flow, now):
        held = self.store.valid_authn(now)
        if held is None:
            # Answered after a logout (or the token's expiry): nothing, whatever the answer (invariant 6).
            self.callback("preauthorizedResources", [])
            return
        decisions = {}
        if result.ok:
            try:
                decisions = self.read_preauthorize(result.body)
            except ValueError as error:
                print("pyport: unusable preauthorize answer: %s" % error, file=sys.stderr)
        if held.guid == flow.authn.guid:
            self.store.preauth.update(decisions)
            if flow.cache:
                # What the response does not decide is read from the cache as it is now (decisions
                # that came in since the call count): choice 51 reads it the same way.
                flow.known = dict(self.store.preauth)
        else:
            # The token changed: the answer is only what the response allows (the old token's cache
            # went at the change; choice 51).
            flow.known = {}
        self.throttled(result, P100)
        # A failed request answers only what the cache allowed (nothing with cache: false).
        self.answer_preauth(flow, decisions)

    def answer_preauth(self, flow, decisions):
        allowed = []
        for r in flow.resources:
            if flow.known.get(r) or decisions.get(r):
                allowed.append(r)
        self.callback("preauthorizedResources", allowed)

    # -- metadata (BEHAVIOR.md, Queries) -------------------------------------------------------

    def get_metadata(self, key, now):
        if not isinstance(key, dict):
            raise ProtocolError("getMetadata needs a key object")
        opcode = key.get(METADATA_OPCODE_KEY)
        token = self.store.valid_authn(now)
        if opcode == METADATA_AUTHENTICATION:
            self.metadata(format_token_date(token.expires_ms) if token else None, False, key)
        elif opcode == METADATA_AUTHORIZATION:
            resource = key.get(METADATA_RESOURCE_ID_KEY)
            authz = self.store.valid_authz(resource, now) if token and isinstance(resource, str) else None
            self.metadata(format_token_date(authz.expires_ms) if authz else None, False, key)
        elif opcode == METADATA_DEVICE_ID:
            fields = [("requestor_id", self.requestor()), ("device_id", self.device.device_id)]
            # The token's MVPD's SP; with no token, the default SP, as the reference engine asks.
            sp = self.sp_for(token.mvpd_id) if token is not None else normalize_sp(self.device.default_sp)
            self.send("POST", sp + "/getMetadataDevice", FORM, form_encode(fields), "device_id", now, data=key)
        elif opcode == METADATA_USER_META:
            name = key.get(METADATA_USER_META_KEY)
            self.user_metadata(token, name, key)
        else:
            self.metadata(None, False, key)  # choice 16

    def metadata(self, value, encrypted, key):
        self.callback("setMetadataStatus", value, encrypted, key.get(METADATA_OPCODE_KEY), key)

    def on_device_id(self, request_id, result, key, now):
        value = None
        if result.ok:
            try:
                value = child_text(parse_xml(result.body), "deviceID") or None
            except ValueError:
                value = None
        self.metadata(value, False, key)

    def user_metadata(self, token, name, key):
        meta = token.user_meta if token is not None else None
        data = meta.get("data") if isinstance(meta, dict) else None
        if not isinstance(name, str) or not isinstance(data, dict) or name not in data:
            self.metadata(None, False, key)
            return
        encrypted = meta.get("encrypted")
        # Choice 15: {name: value}; an encrypted value stays the SP's opaque text.
        self.metadata({name: data[name]}, isinstance(encrypted, list) and name in encrypted, key)

    # -- logout (BEHAVIOR.md, Logout) --------------------------------------------------------

    def logout(self, now):
        # The token cleared came from Apple's token, valid or already expired: VSA203 (BEHAVIOR.md, Logout).
        from_apple = self.store.authn is not None and self.store.authn.from_apple
        token = self.store.valid_authn(now)
        selected = self.store.selected
        mvpd = self.startup.mvpd(token.mvpd_id) if token else None
        mvpd = mvpd or selected
        # A login running ends with no callback; everything is cleared at once, here and in the shared store.
        self.abandon_login()
        self.store.set_authn(None)
        self.store.selected = None
        self.clear_shared_store = True
        if from_apple:
            self.callback("status", VSA203)
        if self.device.platform == "tvos":
            query = form_encode([("requestor", self.requestor()), ("deviceId", self.device.device_id)])
            sp = mvpd.sp_url if mvpd is not None and mvpd.sp_url else self.sp_for()
            self.send("DELETE", sp + "/api/v1/logout?" + query, [], "", "logout", now, signed=True)
            return
        self.logout_waiting = True
        if token is None:
            self.callback("navigateToUrl", ADOBEPASS_REDIRECT_URL)
            return
        svc = mvpd is not None and mvpd.requires_svc
        # name_id and session_index always go, empty for a token without them (a TempPass's):
        # CONFORMANCE choice 43.
        query = [("mso_id", token.mvpd_id), ("requestor_id", self.requestor()),
                 ("name_id", token.name_id or ""), ("session_index", token.session_index or "")]
        query.append(("redirect_url", self.device.svc_scheme if svc else ADOBEPASS_REDIRECT_URL))
        self.show_page(mvpd, self.sp_for(token.mvpd_id) + "/logout?" + form_encode(query))

    def on_logout(self, request_id, result, data, now):
        # Each tvOS logout ends with its own status, whatever the endpoint answered.
        self.status(False, USER_NOT_AUTHENTICATED_ERROR)
