"""Ports that hang the harness if it lets them (issue 49): the Python port (Fixtures/ports/python) with
one of three faults, chosen by the first argument. `passim run --port`, `passim fuzz --port` and
`passim fuzz --against` must end each at `--port-timeout` (or at the livelock rule), kill it with its
process group, and, in a campaign, shrink the finding within the campaign's budget.

    spin-after-hello      answers hello, then spins for ever: it never reads its input again
    spin-on CALL          spins for ever when asked CALL (any other input is answered)
    livelock-after CALL   once CALL was asked, every timer that fires re-arms another at the
                          same instant, for ever: each answer comes at once, so only the
                          harness's livelock rule ends it (only programs with CALL and a timer
                          firing after it livelock, so a shrink meets programs of both kinds)
    drift-after CALL      the same, each timer re-armed 1 ms later: time moves but never settles,
                          and the program ends at its wall time (fuzz-port-run-wall)

Every mode starts a helper (`sleep`) in its process group, as a port's helpers are, and ignores
SIGTERM: only a kill of the whole group ends them. With PASSIM_HANG_PGID_FILE set, each process
appends its process group id to that file, so a test can check that no group outlives the harness.
A spinning port says on its standard error what it spins on: the harness quotes that tail.

    passim run --port-timeout 500ms --port 'python3 Fixtures/ports/hang/port.py spin-on getAuthentication' Scenarios/authn
    passim fuzz --port-timeout 500ms --port 'python3 Fixtures/ports/hang/port.py livelock-after getAuthentication' --max-findings 1

`fuzz --against BIN` runs `BIN shim`: a two-line script that runs this port whatever its argument stands
for such a build (the tests write one).
"""

import os
import signal
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import app_engine  # noqa: E402
import port  # noqa: E402


def spin(why):
    sys.stderr.write("spinning: %s\n" % why)
    sys.stderr.flush()
    while True:
        pass


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    call = sys.argv[2] if len(sys.argv) > 2 else ""
    if mode not in ("spin-after-hello", "spin-on", "livelock-after", "drift-after") or (
        mode != "spin-after-hello" and not call
    ):
        sys.stderr.write("usage: port.py spin-after-hello | spin-on CALL | livelock-after CALL | drift-after CALL\n")
        sys.exit(2)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    subprocess.Popen(["sleep", "3600"], stdin=subprocess.DEVNULL)
    record = os.environ.get("PASSIM_HANG_PGID_FILE")
    if record:
        with open(record, "a", encoding="utf-8") as f:
            f.write("%d\n" % os.getpgid(0))

    handle = port.Port.handle
    asked = {"done": False}

    def faulty(self, message):
        if message.get("type") == "hello":
            asked["done"] = False  # a hello is a new world (protocol 1.1): the fault is per program
        if message.get("type") == "call" and message.get("call") == call:
            if mode == "spin-on":
                spin("asked %s" % call)
            asked["done"] = True
        handle(self, message)
        if mode == "spin-after-hello" and message.get("type") == "hello":
            spin("after hello")

    port.Port.handle = faulty
    if mode in ("livelock-after", "drift-after"):
        handle_timer = app_engine.AppEngine.handle_timer
        later = 1 if mode == "drift-after" else 0

        def rearming(self, timer_id, now):
            handle_timer(self, timer_id, now)
            if asked["done"]:
                self.start_timer("livelock", now + later)

        app_engine.AppEngine.handle_timer = rearming
    port.main()


if __name__ == "__main__":
    main()
