"""The Python port (Fixtures/ports/python) behind an app delegate with the bug public SDK wrappers show
(issue 31): every failed status, `setAuthenticationStatus(0, ...)`, is answered with a new
`getAuthentication`, so a cancel reopens the provider picker without a user action. The delegate says
so with driver protocol 1.2's `app-call` (docs/PORTING.md, "Liveness"), and the harness's liveness
rules must report `live.picker-reopened-on-failure` (docs/LINT.md), as `AccessEnabler.livenessFindings`
does for a Swift app.

    passim run --port 'python3 Fixtures/ports/reopening/port.py' Scenarios/authn/cancel-picker.scenario

The delegate reopens once per input, so a login that fails at once cannot loop for ever here.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import app_engine  # noqa: E402
import port  # noqa: E402

_callback = app_engine.AppEngine.callback
_handle = port.Port.handle
REOPEN = {"forceAuthn": False, "data": None, "filter": None}


def callback(self, name, *args):
    _callback(self, name, *args)
    # The delegate's bug: any failed status starts a new login.
    if name == "setAuthenticationStatus" and args and args[0] == 0 and not getattr(self, "reopening", False):
        self.reopening = True
        self.out.append({"type": "app-call", "app": self.name, "call": "getAuthentication", "args": REOPEN})
        self.pending_reopen = True


def handle(self, message):
    # Runs the input; the delegate's call runs once the engine is done with it, before `idle`
    # (the SDK queues a call made from inside a callback), then the `idle` goes out as usual.
    write = self.write
    held = []

    def hold_idle(m):
        if m.get("type") == "idle":
            held.append(m)
        else:
            write(m)

    self.write = hold_idle
    try:
        _handle(self, message)
        for engine in list(self.apps.values()):
            if getattr(engine, "pending_reopen", False):
                engine.pending_reopen = False
                engine.handle_call("getAuthentication", REOPEN, message.get("now"))
            engine.reopening = False
    finally:
        self.write = write
    for m in held:
        write(m)


app_engine.AppEngine.callback = callback
port.Port.handle = handle

if __name__ == "__main__":
    port.main()
