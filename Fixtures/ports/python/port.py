#!/usr/bin/env python3
"""pyport: an independent port of the Adobe Pass AccessEnabler SDK (iOS and tvOS), the protocol loop.

It speaks the passim driver protocol, version 1 (docs/PORTING.md): one JSON object a line on stdin
and stdout. The harness owns the world, the network, the browser and the clock; this process is only
the engine: `app_engine.AppEngine` per app, `state` for its state machines, `wire` for the formats,
`transport` for the two networks (harness: `request`/`response`; live: the port sends each request
itself with http.client, reports `fetched`, and hands the kept answer to the engine on `deliver`).

Standard library only. The behaviour follows the project's BEHAVIOR.md and the choices of
docs/CONFORMANCE.md; it was written from them and the protocol, not from passim's Swift engine.
"""

import json
import os
import sys
import traceback

from app_engine import AppEngine
from app_engine_v2 import AppEngineV2
from state import Device
from transport import transport_for
from wire import IMPLEMENTATION, PROTOCOL_VERSION, ProtocolError, Unimplemented

LOG_PATH = os.environ.get("PYPORT_LOG")

# The wires a `hello` may ask for (PORTING.md): the SDK's, and REST API v2 (docs/MIGRATION.md).
ENGINES = {"sdk": AppEngine, "v2": AppEngineV2}


def log(line):
    """With PYPORT_LOG=FILE, every line in and out is appended there (a debugging aid)."""
    if LOG_PATH:
        with open(LOG_PATH, "a", encoding="utf-8") as f:
            f.write(line + "\n")


class Streamed:
    """`engine.out` while an input is handled: each message is written as soon as it is made, so on
    the live network a `fetched` line reaches the harness when its fetch ends, not after every fetch
    of the input (each may take the whole fetchTimeout, and the harness waits for each line alone)."""

    def __init__(self, write):
        self.write = write

    def append(self, message):
        self.write(message)


class Port:
    """Reads harness messages, routes them to the app engines, writes each answer and `idle`."""

    def __init__(self, output):
        self.output = output
        self.device = None
        self.transport = None
        self.apps = {}
        self.wire = "sdk"
        # A world with both faces (hello's `appWires`): the apps with a wire of their own.
        self.app_wires = {}

    def write(self, message):
        line = json.dumps(message, ensure_ascii=False)
        self.output.write(line + "\n")
        self.output.flush()
        log("< " + line)

    def engine(self, message):
        name = message.get("app")
        if not isinstance(name, str):
            raise ProtocolError("message without an app name")
        if self.device is None:
            raise ProtocolError("a %s message before hello" % message.get("type"))
        if name not in self.apps:
            self.apps[name] = ENGINES[self.app_wire(name)](name, self.device, self.transport)
        return self.apps[name]

    def app_wire(self, name):
        return self.app_wires.get(name, self.wire)

    def handle_line(self, line):
        log("> " + line.rstrip("\n"))
        try:
            message = json.loads(line)
        except ValueError as error:
            self.write({"type": "error", "message": "not JSON: %s" % error})
            return
        if not isinstance(message, dict):
            self.write({"type": "error", "message": "a message must be a JSON object"})
            return
        try:
            self.handle(message)
        except ProtocolError as error:
            self.write({"type": "error", "message": str(error)})
        except Unimplemented as what:
            self.write({"type": "unimplemented", "what": str(what)})
        except Exception as error:  # a bug here must end the scenario cleanly, not loop on a traceback
            traceback.print_exc(file=sys.stderr)
            self.write({"type": "error", "message": "internal error: %r" % error})

    def handle(self, message):
        kind = message.get("type")
        if kind == "hello":
            if message.get("protocol") != PROTOCOL_VERSION:
                raise ProtocolError("this port speaks protocol %d only" % PROTOCOL_VERSION)
            # Protocol 1.1: every hello is a new world. The apps, the shared store and every request
            # and timer of the previous scenario go with the old Device and engines.
            self.device, self.transport, self.apps = None, None, {}
            wire = message.get("wire", "sdk")
            app_wires = message.get("appWires") or {}
            if not isinstance(app_wires, dict):
                raise ProtocolError("hello: appWires must be an object")
            for unknown in [w for w in [wire] + list(app_wires.values()) if w not in ENGINES]:
                # A wire this port does not know (PORTING.md: answered `unimplemented`).
                self.write({"type": "unimplemented", "what": "the %s wire" % unknown})
                return
            transport = transport_for(message)
            self.device, self.transport, self.wire, self.app_wires = Device(message), transport, wire, app_wires
            self.write({"type": "ready", "protocol": PROTOCOL_VERSION, "implementation": IMPLEMENTATION, "reset": True})
            return
        if kind not in ("call", "response", "deliver", "timer", "picker"):
            raise ProtocolError("unknown message type %r" % kind)
        engine = self.engine(message)
        now = message.get("now")
        if not isinstance(now, int):
            raise ProtocolError("message without an integer `now`")
        self.transport.begin(message)
        engine.out = Streamed(self.write)
        if kind == "call" and message.get("call") == "setRequestor":
            # setRequestor replaces the app's authN token with the shared store's; reading the store
            # is not a change to write back, so it happens before `token_before` is taken.
            engine.adopt_shared_store(self.device.shared_stores.get(self.app_wire(engine.name)))
        token_before = engine.store.authn
        if kind == "call":
            call, args = message.get("call"), message.get("args")
            if not isinstance(call, str):
                raise ProtocolError("call without a call name")
            engine.handle_call(call, args if isinstance(args, dict) else {}, now)
        elif kind in ("response", "deliver"):
            request_id = self.integer(message, "id")
            engine.handle_response(request_id, self.transport.answer(message, engine.name, request_id), now)
        elif kind == "timer":
            engine.handle_timer(self.integer(message, "id"), now)
        else:
            engine.handle_picker(message.get("outcome"), now)
        # Every change to the app's authN token is written to the device's shared store at once (iOS);
        # a logout clears it even when this app held no token.
        if self.device.platform == "ios" and (engine.store.authn is not token_before or engine.clear_shared_store):
            self.device.shared_stores[self.app_wire(engine.name)] = engine.shared_store_value()
        engine.clear_shared_store = False
        self.write({"type": "idle"})

    @staticmethod
    def integer(message, field):
        value = message.get(field)
        if not isinstance(value, int):
            raise ProtocolError("%s message without an integer %s" % (message.get("type"), field))
        return value


def main():
    port = Port(sys.stdout)
    for line in sys.stdin:
        if line.strip():
            port.handle_line(line)


if __name__ == "__main__":
    main()
