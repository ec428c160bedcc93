"""Replays recorded exchanges of public Adobe Pass clients against a running `passim serve`.

    replay.py --host sp|idp WORLD_URL LIVE_URL ... FILE.json ...

A replay file names its source (repository, file, commit) and lists the requests that client sends,
in order, each with what the client reads from the answer (see README.md in this folder). URLs go
where `passim serve` serves the world's hosts (`Fixtures/clients/hostmap.py`; `api.auth.adobe.com`
counts as `sp.auth.adobe.com`); nothing else about a request is changed. Standard library only.
One line per step; exit status 1 if any step of any file failed, 2 on an unusable file.
"""

import argparse
import base64
import hashlib
import hmac
import http.client
import http.cookiejar
import json
import os
import re
import sys
import urllib.parse
import urllib.request
import uuid
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import hostmap  # noqa: E402 (the shared URL mapping, Fixtures/clients/hostmap.py)

# Clients call the regcode and REST services on api.auth.adobe.com too; one service answers both.
ALIASES = {'api.auth.adobe.com': 'sp.auth.adobe.com'}
MAX_HOPS = 10


class Failure(Exception):
    pass


class Client:
    """One HTTP client of the exchange (the device, the second screen's browser): its own cookies."""

    def __init__(self, mapped, is_live):
        self.jar = http.cookiejar.CookieJar()
        self.mapped = mapped
        self.is_live = is_live

    def send(self, method, url, body=None, headers=None):
        url = self.mapped(url)
        req = urllib.request.Request(url, data=body, method=method, headers=dict(headers or {}))
        self.jar.add_cookie_header(req)
        p = urllib.parse.urlsplit(url)
        conn = http.client.HTTPConnection(p.hostname, p.port, timeout=10)
        try:
            path = p.path + ('?' + p.query if p.query else '')
            conn.request(method, path or '/', body=body, headers=dict(req.header_items()))
            res = conn.getresponse()
            data = res.read()
        finally:
            conn.close()
        self.jar.extract_cookies(_CookieResponse(res), req)
        return res.status, res.headers, data.decode('utf-8', 'replace'), url


class _CookieResponse:
    def __init__(self, res):
        self._res = res

    def info(self):
        return self._res.headers


def substitute(value, env):
    if isinstance(value, str):
        return re.sub(r'\$\{(\w+)\}', lambda m: lookup(env, m.group(1)), value)
    if isinstance(value, dict):
        return {k: substitute(v, env) for k, v in value.items()}
    if isinstance(value, list):
        return [substitute(v, env) for v in value]
    return value


def lookup(env, name):
    if name == 'uuid':
        return uuid.uuid4().hex
    if name not in env:
        raise Failure(f'${{{name}}} is not set (an earlier step did not capture it)')
    return env[name]


def xml_find(text, path):
    """`result/authnToken`: the text of the first element along that path (root included, tags
    matched without namespace); None when absent or the body is not XML."""
    try:
        node = ET.fromstring(text)
    except ET.ParseError:
        return None
    parts = path.split('/')
    if node.tag.split('}')[-1] != parts[0]:
        return None
    for part in parts[1:]:
        node = next((c for c in node if c.tag.split('}')[-1] == part), None)
        if node is None:
            return None
    return (node.text or '').strip()


def tag_find(text, tag):
    """The text of the first element named `tag` anywhere in the document (the JS AccessEnabler reads
    answers with getElementsByTagName); None when absent or the body is not XML."""
    try:
        root = ET.fromstring(text)
    except ET.ParseError:
        return None
    node = next((n for n in root.iter() if n.tag.split('}')[-1] == tag), None)
    return None if node is None else ''.join(node.itertext()).strip()


def token_find(text, spec):
    """`authnToken simpleTokenMsoID`: a property of the Adobe token held by the first element
    `authnToken`, read as Adobe's SDKs read a token (the JS AccessEnabler 4.x, the Android SDK 1.8):
    split at `<signatureInfo>`, the third piece parsed as XML, the first element of that name."""
    holder, prop = spec.split()
    token = tag_find(text, holder)
    pieces = (token or '').split('<signatureInfo>')
    if len(pieces) < 3:
        return None
    return tag_find(pieces[2], prop)


def json_find(text, path):
    try:
        value = json.loads(text)
    except ValueError:
        return None
    for part in path.split('.'):
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value


def read_field(kind, path, status, headers, body):
    if kind == 'xml':
        return xml_find(body, path)
    if kind == 'json':
        return json_find(body, path)
    if kind == 'tag':
        return tag_find(body, path)
    if kind == 'token':
        return token_find(body, path)
    if kind == 'header':
        return headers.get(path)
    if kind == 'regex':
        m = re.search(path, body, re.S)
        return (m.group(1) if m.groups() else m.group(0)) if m else None
    if kind == 'body':
        return body
    raise Failure(f'unknown field kind {kind!r}')


def check(expect, status, headers, body):
    if 'any_of' in expect:
        # Clients that read two answers the same way (a 403, or a 200 naming the refusal).
        reasons = []
        for option in expect['any_of']:
            try:
                return check(option, status, headers, body)
            except Failure as e:
                reasons.append(str(e))
        raise Failure(' / '.join(reasons))
    statuses = expect.get('status', [200])
    statuses = statuses if isinstance(statuses, list) else [statuses]
    if status not in statuses:
        raise Failure(f'status {status}, expected {"/".join(map(str, statuses))}')
    for kind in ('xml', 'tag', 'token', 'json', 'header', 'regex', 'body'):
        for path, want in (expect.get(kind) or {}).items():
            got = read_field(kind, path, status, headers, body)
            if want == 'nonempty':
                ok = got not in (None, '', [], {})
            elif want == 'present':
                ok = got is not None
            elif isinstance(want, dict) and 'match' in want:
                ok = isinstance(got, str) and re.fullmatch(want['match'], got, re.S) is not None
            elif want == 'absent':
                ok = got is None
            else:
                ok = got == want
            if not ok:
                raise Failure(f'{kind} {path}: got {str(got)[:80]!r}, expected {want}')
    if 'contains' in expect and expect['contains'] not in body:
        raise Failure(f'the body does not contain {expect["contains"]!r}')


def signed(method, path, requestor, public_key, private_key):
    """The clientless API's Authorization header, as Kodi's adobe.py `create_authorization` builds it."""
    import time
    text = (f'{method} requestor_id={requestor}, nonce={uuid.uuid4()}, signature_method=HMAC-SHA1, '
            f'request_time={int(time.time() * 1000)}, request_uri={path}')
    digest = hmac.new(private_key.encode(), text.encode(), hashlib.sha1).digest()
    return f'{text}, public_key={public_key}, signature={base64.b64encode(digest).decode()}'


def request_step(step, client, env):
    method = step.get('method', 'GET')
    url = substitute(step['url'], env)
    query = substitute(step.get('query') or {}, env)
    if query:
        url += ('&' if '?' in url else '?') + urllib.parse.urlencode(query)
    headers = substitute(step.get('headers') or {}, env)
    body = None
    if 'raw' in step:
        # Sent as the client writes it (Kodi's add-on concatenates its form without encoding).
        body = substitute(step['raw'], env).encode()
        headers.setdefault('Content-Type', 'application/x-www-form-urlencoded')
    elif 'form' in step:
        body = urllib.parse.urlencode(substitute(step['form'], env), doseq=True).encode()
        headers.setdefault('Content-Type', 'application/x-www-form-urlencoded')
    elif 'json' in step:
        body = json.dumps(substitute(step['json'], env)).encode()
        headers.setdefault('Content-Type', 'application/json')
    if 'sign' in step:
        s = substitute(step['sign'], env)
        headers['Authorization'] = signed(method, urllib.parse.urlsplit(url).path, s['requestor'],
                                          s['public_key'], s['private_key'])
    status, res_headers, text, sent_to = client.send(method, url, body, headers)
    try:
        check(substitute(step.get('expect') or {}, env), status, res_headers, text)
    except Failure as e:
        raise Failure(f'{method} {urllib.parse.urlsplit(sent_to).path} -> {status}: {e}; body: '
                      + ' '.join(text.split())[:200])
    for name, (kind, path) in (step.get('capture') or {}).items():
        value = read_field(kind, path, status, res_headers, text)
        if value in (None, ''):
            raise Failure(f'nothing to capture as {name} ({kind} {path})')
        env[name] = value if isinstance(value, str) else json.dumps(value)


def hidden_form(text, base):
    """The first form of an HTML page: its action (absolute) and its inputs' names and values."""
    m = re.search(r'<form[^>]*\baction=(["\'])(.*?)\1', text, re.S | re.I)
    if not m:
        return None, {}
    action = urllib.parse.urljoin(base, m.group(2).replace('&amp;', '&'))
    fields = {}
    for tag in re.findall(r'<input[^>]*>', text, re.I):
        name = re.search(r'\bname=(["\'])(.*?)\1', tag)
        value = re.search(r'\bvalue=(["\'])(.*?)\1', tag, re.S)
        if name:
            fields[name.group(2)] = (value.group(2) if value else '').replace('&amp;', '&') \
                .replace('&quot;', '"').replace('&lt;', '<').replace('&gt;', '>').replace('&#39;', "'")
    return action, fields


def login_step(step, client, env):
    """A person signing in through the browser: open the URL, follow redirects, post each page's first
    form (the login form gets the credentials), until a 2xx page with no form or a redirect to a
    non-HTTP URL (an app's scheme, e.g. `adobepass://android.app`) or to a host passim does not serve
    (the programmer's page)."""
    url = substitute(step['url'], env)
    query = substitute(step.get('query') or {}, env)
    if query:
        url += ('&' if '?' in url else '?') + urllib.parse.urlencode(query)
    credentials = substitute(step['credentials'], env)
    method, body = 'GET', None
    for _ in range(MAX_HOPS):
        status, headers, text, sent_to = client.send(method, url, body,
                                                     {'Content-Type': 'application/x-www-form-urlencoded'} if body else {})
        if 300 <= status < 400 and headers.get('Location'):
            url = urllib.parse.urljoin(sent_to, headers['Location'])
            method, body = 'GET', None
            # An app's scheme (adobepass://android.app) or the programmer's own site: the login is over.
            if not url.startswith(('http://', 'https://')) or not client.is_live(client.mapped(url)):
                return
            continue
        if not 200 <= status < 300:
            raise Failure(f'{method} {urllib.parse.urlsplit(sent_to).path} -> {status}: '
                          + ' '.join(text.split())[:200])
        action, fields = hidden_form(text, sent_to)
        if action is None:
            return
        if 'password' in fields:
            fields.update(credentials)
        url, method, body = action, 'POST', urllib.parse.urlencode(fields).encode()
    raise Failure(f'the login did not end within {MAX_HOPS} pages')


def run_file(path, mapped, is_live, variables):
    with open(path) as f:
        replay = json.load(f)
    label = replay['client']
    env = dict(variables)
    env.update(replay.get('variables') or {})
    clients = {}
    ok = True
    for i, step in enumerate(replay['steps'], 1):
        name = step.get('name', f'step {i}')
        client = clients.setdefault(step.get('client', 'device'), Client(mapped, is_live))
        try:
            if 'login' in step:
                login_step(step['login'], client, env)
            else:
                request_step(step, client, env)
            print(f'{label:<26} {name:<28} ok', flush=True)
        except (Failure, OSError, http.client.HTTPException) as e:
            print(f'{label:<26} {name:<28} FAIL  {e}', flush=True)
            ok = False
            break  # later steps need what this one should have given
    return ok


def main():
    ap = argparse.ArgumentParser()
    hostmap.add_arguments(ap)
    ap.add_argument('--var', action='append', default=[], help='NAME=VALUE available as ${NAME}')
    ap.add_argument('files', nargs='+')
    args = ap.parse_args()
    mapped = hostmap.from_arguments(args, ALIASES)
    is_live = mapped.is_live

    variables = dict(v.split('=', 1) for v in args.var)
    status = 0
    for path in args.files:
        try:
            if not run_file(path, mapped, is_live, variables):
                status = 1
        except (OSError, ValueError, KeyError) as e:
            print(f'{path}: unusable replay file: {e}', file=sys.stderr)
            status = 2 if status == 0 else status
    return status


if __name__ == '__main__':
    sys.exit(main())
