# The minimal port of docs/PORTING.md ("A minimal port"), kept equal to it by PortRunTests.
import json, sys
def send(o): sys.stdout.write(json.dumps(o) + "\n"); sys.stdout.flush()
default_sp = None
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        default_sp = m["defaultServiceProvider"]
        send({"type": "ready", "protocol": 1, "implementation": "tiny"})
    elif m["type"] == "call" and m["call"] == "setRequestor":
        sp = (m["args"]["serviceProviders"] or [default_sp])[0]
        send({"type": "request", "app": m["app"], "id": 1, "method": "GET",
              "url": sp + "/config/" + m["args"]["requestorID"], "headers": [], "body": ""})
        send({"type": "idle"})
    elif m["type"] == "response":
        ok = m.get("status") == 200
        send({"type": "callback", "app": m["app"], "callback": "setRequestorComplete", "args": [1 if ok else 0]})
        send({"type": "idle"})
    else:
        send({"type": "unimplemented", "what": m.get("call", m["type"])})
