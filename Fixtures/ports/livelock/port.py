"""The Python port (Fixtures/ports/python) with one bug: every timer that fires re-arms another at the
same instant, for ever. `passim run --port` and `passim fuzz --port` must report it as a livelock, with
its scenario, rather than hang (issue 28, item 5; docs/LIMITS.md, "Simulated time").

    passim run --port 'python3 Fixtures/ports/livelock/port.py' Scenarios/tvos/poll-every-ten-seconds.scenario
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import app_engine  # noqa: E402
import port  # noqa: E402

_handle_timer = app_engine.AppEngine.handle_timer


def handle_timer(self, timer_id, now):
    _handle_timer(self, timer_id, now)
    self.start_timer("livelock", now)


app_engine.AppEngine.handle_timer = handle_timer

if __name__ == "__main__":
    port.main()
