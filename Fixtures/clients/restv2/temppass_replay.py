"""The REST v2 TempPass sequence of a public client (docs/spec/reference/rest-api-v2.md 1.9 and 1.11),
replayed with Python `requests` through `passim serve --proxy`, unmodified apart from the proxy and
the CA it trusts: DCR register (JSON) and token (parameters in the query, no body), then
`POST sessions` with a TempPass MVPD, `GET profiles/{mvpd}` and `POST decisions/authorize/{mvpd}`
with an MRSS resource, all to https://sp.auth.adobe.com with the client's own headers (a hard-coded
`AP-Device-Identifier`, its `X-Device-Info`). Like the client, it raises on any non-2xx answer, takes
the first decision with `authorized: true` and Base64-decodes its `token.serializedToken`.

    temppass_replay.py --proxy URL --ca FILE --requestor ID --statement S --mvpd TEMPPASS_ID
"""

import argparse
import base64
import json
import sys

import requests

BASE = "https://sp.auth.adobe.com"
# The client's hard-coded device: Base64 of "fastchannels" (rest-api-v2.md 1.9).
DEVICE = "fingerprint " + base64.b64encode(b"fastchannels").decode()
DEVICE_INFO = base64.b64encode(json.dumps({
    "version": "1.0", "deviceType": "Desktop", "appName": "fastchannels", "appVersion": "1.0", "model": "PC",
    "osName": "Linux", "osVersion": "6", "primaryHardwareType": "Desktop", "connectionType": "LAN",
}).encode()).decode()
MRSS = ('<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>passimtv</title>'
        '<item><title>Live</title><guid>live-1</guid></item></channel></rss>')


def main():
    parser = argparse.ArgumentParser()
    for name in ("--proxy", "--ca", "--requestor", "--statement", "--mvpd"):
        parser.add_argument(name, required=True)
    args = parser.parse_args()
    s = requests.Session()
    s.trust_env = False
    s.proxies = {"http": args.proxy, "https": args.proxy}
    s.verify = args.ca

    r = s.post(f"{BASE}/o/client/register", json={"software_statement": args.statement}, timeout=10)
    r.raise_for_status()
    client = r.json()
    r = s.post(f"{BASE}/o/client/token?client_id={client['client_id']}&client_secret={client['client_secret']}"
               "&grant_type=client_credentials", timeout=10)
    r.raise_for_status()
    headers = {"Authorization": "Bearer " + r.json()["access_token"], "AP-Device-Identifier": DEVICE,
               "X-Device-Info": DEVICE_INFO}
    r = s.post(f"{BASE}/api/v2/{args.requestor}/sessions", headers=headers,
               data={"redirectUrl": "https://fastchannels.example/", "domainName": "fastchannels.example", "mvpd": args.mvpd},
               timeout=10)
    r.raise_for_status()
    r = s.get(f"{BASE}/api/v2/{args.requestor}/profiles/{args.mvpd}", headers=headers, timeout=10)
    r.raise_for_status()
    r = s.post(f"{BASE}/api/v2/{args.requestor}/decisions/authorize/{args.mvpd}", headers=headers,
               json={"resources": [MRSS]}, timeout=10)
    r.raise_for_status()
    decision = next(d for d in r.json()["decisions"] if d.get("authorized") is True)
    media = base64.b64decode(decision["token"]["serializedToken"]).decode()
    ok = decision.get("source") == "temppass" and "passimtv" in media and args.requestor in media
    print(("ok   " if ok else "FAIL ") + f"TempPass replay (requests {requests.__version__}): a media token for "
          f"{decision['resource'][:24]}… from {decision.get('source')}")
    return 0 if ok else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (requests.RequestException, KeyError, StopIteration, ValueError) as error:
        print(f"FAIL TempPass replay: {type(error).__name__}: {error}")
        sys.exit(1)
