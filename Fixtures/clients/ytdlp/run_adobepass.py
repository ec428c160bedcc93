"""Drives yt-dlp's own AdobePassIE flow through `passim serve --proxy` (scripts/clients.sh runs it).

yt-dlp is used as shipped, its network code untouched: it talks to `https://sp.auth.adobe.com` as
it always does, and only its proxy and certificate settings point it at passim, both as yt-dlp
documents them: the proxy through the standard `HTTP_PROXY`/`HTTPS_PROXY` variables (yt-dlp reads
them when `--proxy` is not given), with `NO_PROXY` for this harness's own loopback page, and passim's
CA through `SSL_CERT_FILE` with yt-dlp's `--compat-options no-certifi` (use the system's trust store,
which honours that variable, rather than a bundled certifi). passim answers every Adobe host itself
over TLS with that CA; nothing goes to Adobe.

Like a user adding a provider, it adds the world's MVPD to `MSO_INFO` with the generic login form
fields. The video page yt-dlp passes as `redirect_url` is a page this harness serves on loopback (not
a host of the world, so it bypasses the proxy: `NO_PROXY`).

Releases that register (their `_extract_mvpd_auth` takes a software statement) use a requestor the
world declares with that statement; older ones one that requires no registration.

Flows, in order, sharing one yt-dlp cache directory (as a user's runs do): authn, authz-allowed and
media-token (one call, fresh cache), cached-call (a new YoutubeDL, same cache: the server's request
log must show no login and no new authorization, only shortAuthorize), authz-denied (the MVPD's
message must reach the user as yt-dlp's error). One line per flow; a failure names the last request
the server saw. Exit status 1 on any failure.
"""

import argparse
import base64
import http.server
import inspect
import json
import os
import sys
import tempfile
import threading
import urllib.parse
import urllib.request

import yt_dlp
from yt_dlp.extractor import adobepass
from yt_dlp.utils import ExtractorError

def point_at_passim(proxy, ca_file):
    """yt-dlp's proxy and trust settings, the documented way (see the module's docstring)."""
    for name in ('HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy'):
        os.environ[name] = proxy
    for name in ('NO_PROXY', 'no_proxy'):
        os.environ[name] = '127.0.0.1,localhost'
    os.environ['SSL_CERT_FILE'] = ca_file


def new_ydl(args, cache_dir):
    return yt_dlp.YoutubeDL({
        'quiet': True, 'no_warnings': True, 'cachedir': cache_dir,
        'ap_mso': args.mso, 'ap_username': args.username, 'ap_password': args.password,
        'socket_timeout': 10, 'compat_opts': ['no-certifi'],
    })


def resource(provider_id):
    return adobepass.AdobePassIE._get_mvpd_resource(provider_id, 'Episode 1', provider_id + '-ep1', 'TV-14')


def extract(args, ydl, page_url, channel):
    ie = adobepass.AdobePassIE(ydl)
    params = inspect.signature(ie._extract_mvpd_auth).parameters
    call = dict(url=page_url, video_id='passim-1', requestor_id=args.requestor, resource=resource(channel))
    if 'software_statement' in params:
        call['software_statement'] = args.software_statement
    return ie._extract_mvpd_auth(**call)


class Admin:
    def __init__(self, url, token):
        self.url = url.rstrip('/')
        self.token = token
        # The admin endpoint is reached directly, never through the proxy.
        self.opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    def entries(self):
        """Every logged request, page by page (`X-Passim-Next-After` names the next page)."""
        out, after = [], 0
        while True:
            req = urllib.request.Request(f'{self.url}/admin/log?after={after}',
                                         headers={'Authorization': 'Bearer ' + self.token})
            with self.opener.open(req, timeout=10) as res:
                page = [json.loads(line) for line in res.read().decode().splitlines() if line.strip()]
                nxt = int(res.headers.get('X-Passim-Next-After') or after)
            out += page
            if not page or nxt == after:
                return out
            after = nxt


    def last(self):
        """The last request the server saw, for a failure line."""
        try:
            entries = self.entries()
        except Exception as e:  # the failure line still gets written
            return f'(the request log is unreadable: {e})'
        if not entries:
            return 'the server saw no request'
        e = entries[-1]
        return f'last request the server saw: {describe(e)}'


def describe(entry):
    return f"{entry.get('method', '?')} {entry.get('host', '?')}{entry.get('path', '?')}"


class VideoSite(http.server.BaseHTTPRequestHandler):
    """The programmer's page yt-dlp came from: where the SP sends the browser after the login."""

    def do_GET(self):
        body = b'<html><body>video page</body></html>'
        self.send_response(200)
        self.send_header('Content-Type', 'text/html')
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *a):
        pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--label', required=True)
    ap.add_argument('--proxy', required=True, help="passim serve's proxy line: http://HOST:PORT")
    ap.add_argument('--ca', required=True, help="passim serve's ca line: the CA certificate (PEM) to trust")
    ap.add_argument('--admin', required=True)
    ap.add_argument('--admin-token', required=True)
    ap.add_argument('--requestor', required=True, help='the requestor of releases that do not register')
    ap.add_argument('--dcr-requestor', required=True,
                    help='the requestor of releases that register (declared with --software-statement)')
    ap.add_argument('--software-statement', required=True)
    ap.add_argument('--mso', required=True)
    ap.add_argument('--username', required=True)
    ap.add_argument('--password', required=True)
    ap.add_argument('--allowed', required=True, help='a channel the user may watch')
    ap.add_argument('--denied', required=True, help='a channel the MVPD refuses the user')
    args = ap.parse_args()

    point_at_passim(args.proxy, args.ca)
    if 'software_statement' in inspect.signature(adobepass.AdobePassIE._extract_mvpd_auth).parameters:
        args.requestor = args.dcr_requestor
    adobepass.MSO_INFO[args.mso] = {'name': args.mso, 'username_field': 'username', 'password_field': 'password'}
    admin = Admin(args.admin, args.admin_token)

    site = http.server.ThreadingHTTPServer(('127.0.0.1', 0), VideoSite)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    page_url = f'http://127.0.0.1:{site.server_address[1]}/watch/passim-1'

    results = []

    def report(flow, ok, detail=''):
        results.append(ok)
        print(f"{args.label:<17} {flow:<13} {'ok' if ok else 'FAIL'}{'  ' + detail if detail else ''}", flush=True)

    with tempfile.TemporaryDirectory(prefix='passim-ytdlp-cache-') as cache_dir:
        # authn, authz-allowed, media-token: one call from a fresh cache.
        ydl = new_ydl(args, cache_dir)
        token, error = None, None
        try:
            token = extract(args, ydl, page_url, args.allowed)
        except Exception as e:  # the failure is reported per flow below
            error = f'{type(e).__name__}: {e}'
        cached = ydl.cache.load(adobepass.AdobePassIE._MVPD_CACHE, args.requestor) or {}
        where = f'{error}; {admin.last()}' if error else ''
        authn_ok = bool(cached.get('authn_token'))
        report('authn', authn_ok, '' if authn_ok else where)
        authz_ok = bool(cached.get(args.allowed + '-ep1'))
        report('authz-allowed', authz_ok, '' if authz_ok else
               'not reached (authn failed)' if not authn_ok else (where or 'no authZ token cached'))
        media_ok = bool(token) and '<' not in token and not any(c.isspace() for c in token.strip())
        report('media-token', media_ok, f'{len(token.strip())} chars' if media_ok
               else 'not reached (authz failed)' if not authz_ok
               else (where or f'not a media token: {str(token)[:200]!r}'))

        # cached-call: a new process's worth of state (new YoutubeDL), the same cache directory.
        if media_ok:
            before = len(admin.entries())
            try:
                again = extract(args, new_ydl(args, cache_dir), page_url, args.allowed)
                new = admin.entries()[before:]
                sent = [describe(e) for e in new]
                others = [s for s in sent if not s.endswith('/shortAuthorize')]
                shorts = len(sent) - len(others)
                if others or shorts != 1 or not again.strip():
                    report('cached-call', False, f'expected only one shortAuthorize, the server saw: {sent}')
                else:
                    report('cached-call', True, 'server log: 1 shortAuthorize, no login')
            except Exception as e:
                report('cached-call', False, f'{type(e).__name__}: {e}; {admin.last()}')
        else:
            report('cached-call', False, 'skipped: the first call did not finish')

        # authz-denied: the user is logged in (cached authN); the MVPD refuses this channel.
        if authn_ok:
            try:
                got = extract(args, new_ydl(args, cache_dir), page_url, args.denied)
                report('authz-denied', False, f'a token came back: {got[:120]!r}')
            except ExtractorError as e:
                message = e.orig_msg if hasattr(e, 'orig_msg') else str(e)
                # yt-dlp shows the MVPD's <details> only when the denial is a 2xx with <error>;
                # any other status surfaces as a bare "HTTP Error".
                clear = e.expected and 'HTTP Error' not in message and message.strip() != ''
                report('authz-denied', clear, f'error: {message}' + ('' if clear else '; ' + admin.last()))
            except Exception as e:
                report('authz-denied', False, f'{type(e).__name__}: {e}; {admin.last()}')
        else:
            report('authz-denied', False, 'skipped: no authN')

    site.shutdown()
    return 0 if all(results) else 1


if __name__ == '__main__':
    sys.exit(main())
