"""What `hello` says about the device, and the state machines of one app engine (pyport)."""

from wire import CLIENT_VERSION, DEFAULT_SVC_SCHEME, DEVICE_ID, REQUEST_TIMEOUT_MS

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
        # Protocol 1.3: `requestTimeout` comes only when the world's differs from BEHAVIOR.md's 30 s;
        # absent, the port's own default (REQUEST_TIMEOUT_MS) runs, as a shipped SDK's would.
        timeout = hello.get("requestTimeout")
        self.request_timeout = timeout if isinstance(timeout, int) and timeout > 0 else REQUEST_TIMEOUT_MS
        # REST API v2: the app's own promotional TempPasses (v2's configuration does not say them).
        passes = hello.get("promotionalTempPasses")
        self.promotional_temp_passes = frozenset(
            p for p in (passes if isinstance(passes, list) else []) if isinstance(p, str))
        # The device's shared store of authN tokens (iOS passive SSO), one per wire: an app on REST
        # API v2 keeps its tokens apart from the SDK's (authentication is not carried over). All apps
        # live in this process, so the port keeps them itself (PORTING.md).
        self.shared_stores = {}

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
    """The login state machine. A login waits on the dialog (`selecting`), Apple's picker (`picker`),
    the browser (`browsing`), a tvOS registration code (`code`), or a request of its own (`fetching`:
    the authN token, Apple's token exchange, a TempPass).

    `pending` is the getAuthorization (resource, data) that continues once this login succeeds.
    """

    IDLE, SELECTING, PICKER, BROWSING, CODE, FETCHING = "idle", "selecting", "picker", "browsing", "code", "fetching"

    def __init__(self):
        self.reset()

    @property
    def running(self):
        return self.phase != self.IDLE

    def begin(self, force, data, pending=None):
        self.reset()
        self.phase, self.force, self.data, self.pending = self.SELECTING, force, data, pending

    def reset(self):
        self.phase = self.IDLE
        self.force = False
        self.data = None
        self.pending = None       # (resource, data) of a getAuthorization waiting on this login
        self.mvpd = None
        self.request_id = None    # the login's request in flight (token, exchange, TempPass, code)
        self.picker = None        # (shown ids, featured ids) while Apple's picker is up
        self.code = None          # tvOS registration code and its expiry (ms)
        self.code_expires = None
        self.session_id = None    # REST API v2: the session's id, the GUID of the token its profile makes
        self.poll_timer = None


class TokenStore:
    """An app's authN token, authZ tokens (one per resource), preauthorization cache and selected MVPD.

    Every change of the authN token drops the authZ tokens and the preauthorization cache (BEHAVIOR.md,
    Preauthorization: "the cache holds both decisions until the authN token changes").
    """

    def __init__(self):
        self.authn = None
        self.authz = {}           # resource -> AuthzToken
        self.preauth = {}         # resource -> bool
        self.selected = None

    def set_authn(self, token):
        if token is self.authn:
            return
        if token is None or self.authn is None or token.guid != self.authn.guid:
            self.authz, self.preauth = {}, {}
        self.authn = token

    def valid_authn(self, now):
        # An expired token is as good as none and is removed when found (BEHAVIOR.md, Time).
        if self.authn is not None and self.authn.expires_ms <= now:
            self.set_authn(None)
        return self.authn

    def valid_authz(self, resource, now):
        token = self.authz.get(resource)
        if token is not None and token.expires_ms <= now:
            del self.authz[resource]
            token = None
        return token
