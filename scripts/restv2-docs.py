#!/usr/bin/env python3
"""Adobe's own REST API v2 and DCR samples, replayed against `passim serve` (`make rest-v2-docs`).

Every API page of Adobe's REST v2 and DCR documentation (AdobeDocs/pass.en at 59a4680, MIT; outside this
repository: $PASSIM_ADOBE_DOCS_DIR, else shared/reference/adobe-pass-en beside the clone) ends with a
`## Samples` section: `### N. title`, a `>[!TAB Request]` block and one or more `>[!TAB Response…]`
blocks. This tool

1. extracts every request/response pair (`profiles-mvpd#4.2`: the page's short name, the sample's place on
   the page, the pair when a sample has several), noting where the published text had to be read as
   the pages mean it (JSON that does not parse, a path the page's own Request table spells otherwise,
   a header its Request table requires that the sample lacks, the shared X-Device-Info value);
2. replays each against a running `passim serve --proxy` on Adobe's host names: the world
   Fixtures/clients/restv2/docs-world.scenario (plus the sample's own conditions) is loaded through the
   admin endpoint before each sample, the set-up the sample assumes is made (a DCR client in place of the
   page's Bearer token, a session, a login walked through the user agent's HTML forms, a TempPass used,
   the clock moved…), and the sample's request is sent with only what cannot be replayed literally
   substituted (each substitution is named);
3. compares the answer with the documented response: status, key set, nesting, value types, the values
   of enumerations and echoes (`actionName`, `reasonType`, `source`, `code`, `action`, `authorized`,
   `mvpd`…), URLs by path and query parameter names; never timestamps, tokens, codes, ids or hosts;
4. marks a difference covered by a row of docs/WIRE.md's "Where Adobe's pages disagree with themselves"
   as `MATCH (row Dn)`; nothing else relaxes the comparison, and a row that covers nothing fails the run.

With --hostile it checks instead how the mock takes bad input: every sample whose documented answer is a
success is replayed after its set-up with one header the API reads, one body or query field, or the JSON
body as a whole made wrong (missing, empty, oversized, of the wrong type, not Base64, Base64 of something
that is not a JSON object, not JSON), and each answer must be a refusal with an enhanced error code and the
status docs/WIRE.md's table gives it (DCR: its page's OAuth error), or a refusal inside the decisions, or a
success an entry of ALLOWED explains; the server must keep serving, and a refusal must leave what the API
shows (profiles, the session, a leaked code, client or token) as it was. See "--hostile" below.

    restv2-docs.py --proxy URL --ca FILE --admin URL --admin-token T [--write] [--only GLOB]
    restv2-docs.py --proxy URL --ca FILE --admin URL --admin-token T --hostile [--only GLOB] [--verbose]
    restv2-docs.py --list            # the extracted pairs, without a server

Exit status: 0 when every sample matches (or is covered by a row), 1 otherwise (or a stale row), 2 when
Adobe's pages are not found (NOT RUN) or the server cannot be driven. With --hostile: 0 when every mutant's
answer is acceptable, 1 otherwise (or a stale or wrong allow-list entry), 2 as above.
"""

import argparse
import base64
import html.parser
import http.client
import itertools
import json
import os
import re
import ssl
import sys
import time
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORLD = os.path.join(ROOT, "Fixtures", "clients", "restv2", "docs-world.scenario")
WIRE = os.path.join(ROOT, "docs", "WIRE.md")
DOC = os.path.join(ROOT, "docs", "REST-V2-DOCS.md")
ROWS_HEADING = "### Where Adobe's pages disagree with themselves"
TOOL = "restv2-docs"


def default_docs_dir():
    """$PASSIM_ADOBE_DOCS_DIR, else the folder CI lays beside the clone."""
    return os.environ.get("PASSIM_ADOBE_DOCS_DIR") or os.path.join(
        os.path.dirname(ROOT), "shared", "reference", "adobe-pass-en")


# The API pages, by the end of their file name, and the short names of the sample ids (in report order).
PAGES = [
    ("dcr-register", "dynamic-client-registration-apis-retrieve-client-credentials.md"),
    ("dcr-token", "dynamic-client-registration-apis-retrieve-access-token.md"),
    ("configuration", "configuration-apis-retrieve-configuration-for-specific-service-provider.md"),
    ("sessions-create", "sessions-apis-create-authentication-session.md"),
    ("sessions-resume", "sessions-apis-resume-authentication-session.md"),
    ("sessions-retrieve", "sessions-apis-retrieve-authentication-session-information-using-code.md"),
    ("sessions-authenticate", "sessions-apis-perform-authentication-in-user-agent.md"),
    ("profiles", "profiles-apis-retrieve-profiles.md"),
    ("profiles-mvpd", "profiles-apis-retrieve-profile-for-specific-mvpd.md"),
    ("profiles-code", "profiles-apis-retrieve-profile-for-specific-code.md"),
    ("partner-request", "partner-single-sign-on-apis-retrieve-partner-authentication-request.md"),
    ("partner-profile", "partner-single-sign-on-apis-retrieve-profile-using-partner-authentication-response.md"),
    ("authorize", "decisions-apis-retrieve-authorization-decisions-using-specific-mvpd.md"),
    ("preauthorize", "decisions-apis-retrieve-preauthorization-decisions-using-specific-mvpd.md"),
    ("logout", "logout-apis-initiate-logout-for-specific-mvpd.md"),
]
API_GLOBS = ("rest-apis/rest-api-v2/apis", "rest-apis/rest-api-dcr/apis")
XDI_PAGE = "rest-apis/rest-api-v2/appendix/headers/rest-api-v2-appendix-headers-x-device-info.md"
PLACEHOLDERS = {"${degradedMvpd}": "ATTOTT"}


class NotRun(Exception):
    """Adobe's pages are missing: the check cannot say anything."""


# ---------------------------------------------------------------------------------------------------
# Extraction


class Repair:
    """Where a sample's published text had to be read as the page means it: a difference of the page
    with itself (or with another of Adobe's sources), which only a row of docs/WIRE.md may excuse."""

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return f"Repair({self.text!r})"


class Request:
    def __init__(self, method, target, headers, body, line):
        self.method, self.target, self.headers, self.body, self.line = method, target, headers, body, line

    def header(self, name):
        for n, v in self.headers:
            if n.lower() == name.lower():
                return v
        return None


class Response:
    def __init__(self, status, headers, body_text, body, repairs, line):
        self.status, self.headers, self.body_text, self.body = status, headers, body_text, body
        self.repairs, self.line = repairs, line

    def header(self, name):
        for n, v in self.headers:
            if n.lower() == name.lower():
                return v
        return None


class Sample:
    def __init__(self, page, ordinal, number, pair, pairs, tab, request, response):
        self.page, self.ordinal, self.number = page, ordinal, number
        self.pair, self.pairs, self.tab = pair, pairs, tab
        self.request, self.response = request, response
        self.id = f"{page.short}#{ordinal}" + (f".{pair}" if pairs > 1 else "")


class Page:
    def __init__(self, short, path, rel):
        self.short, self.path, self.rel = short, path, rel
        self.template = None
        self.method = None
        self.required_headers = []
        self.samples = []


def fenced_block(lines, start):
    """The lines of the fenced block opening at or after `start`: (first content line index, lines, end)."""
    i = start
    while i < len(lines) and not lines[i].lstrip().startswith("```"):
        i += 1
    if i >= len(lines):
        return None, [], i
    j = i + 1
    while j < len(lines) and not lines[j].lstrip().startswith("```"):
        j += 1
    return i + 1, lines[i + 1:j], j + 1


HEADER_LINE = re.compile(r"^(\s*)([A-Za-z0-9-]+)(\s*):\s?(.*)$")


def parse_request(block, first):
    """`METHOD TARGET HTTP/1.1`, indented `Name: value` lines, then the body (after a `Body:` line, or the
    first line at the left margin)."""
    k = 0
    while k < len(block) and not block[k].strip():
        k += 1
    if k >= len(block):
        raise ValueError(f"line {first}: an empty request block")
    parts = block[k].split()
    if len(parts) < 2:
        raise ValueError(f"line {first + k}: not a request line: {block[k].strip()[:60]}")
    method, target = parts[0], parts[1]
    headers, body_lines, in_body = [], [], False
    for line in block[k + 1:]:
        if in_body:
            body_lines.append(line)
            continue
        if line.strip() == "Body:":
            in_body = True
            continue
        m = HEADER_LINE.match(line)
        if m and m.group(1) and not line.strip().startswith("{"):
            headers.append((m.group(2), m.group(4).strip()))
            continue
        if line.strip() and not line[0].isspace():
            in_body = True
            body_lines.append(line)
    body = "\n".join(body_lines).strip("\n")
    return Request(method, target, headers, body if body.strip() else "", first + k)


def parse_response(block, first):
    k = 0
    while k < len(block) and not block[k].strip():
        k += 1
    if k >= len(block):
        raise ValueError(f"line {first}: an empty response block")
    m = re.match(r"HTTP/\d(?:\.\d)?\s+(\d{3})", block[k].strip())
    if not m:
        raise ValueError(f"line {first + k}: not a status line: {block[k].strip()[:60]}")
    status = int(m.group(1))
    headers, repairs = [], []
    i = k + 1
    while i < len(block) and not block[i].lstrip().startswith(("{", "[")):
        h = HEADER_LINE.match(block[i])
        if h:
            headers.append((h.group(2), h.group(4).strip()))
            if h.group(3):
                repairs.append(Repair(f"sample: response header {h.group(2)} has a space before its colon"
                                      f" (page line {first + i})"))
        i += 1
    body_text = "\n".join(block[i:]).strip()
    body = None
    if body_text:
        body, json_repairs = lenient_json(body_text, first + i)
        repairs += json_repairs
    return Response(status, headers, body_text, body, repairs, first + k)


STRING_LINE = re.compile(r'^(\s*"[^"\\]*"\s*:\s*")(.*)("\s*,?\s*)$')


def lenient_json(text, first_line):
    """The JSON value of `text`, read as the page means it: a missing comma or opening brace, a trailing
    comma and unescaped quotes inside a string are put right, each named with its page line. Returns
    (value, repairs); value is None (with a repair saying why) when the text cannot be read."""
    repairs = []

    def line_of(pos):
        return first_line + text.count("\n", 0, pos)

    for _ in range(40):
        try:
            return json.loads(text), repairs
        except json.JSONDecodeError as error:
            pos, msg = error.pos, error.msg
        before = pos - 1
        while before >= 0 and text[before].isspace():
            before -= 1
        line_start = text.rfind("\n", 0, pos) + 1
        line_end = text.find("\n", pos)
        line_end = len(text) if line_end < 0 else line_end
        line = text[line_start:line_end]
        m = STRING_LINE.match(line)
        if msg.startswith("Expecting ',' delimiter") and m and '"' in m.group(2):
            fixed = m.group(1) + re.sub(r'(?<!\\)"', r'\\"', m.group(2)) + m.group(3)
            text = text[:line_start] + fixed + text[line_end:]
            repairs.append(Repair(f"sample: not valid JSON as published: unescaped quotes inside a string"
                                  f" (page line {line_of(line_start)})"))
            continue
        if msg.startswith("Expecting ',' delimiter") and pos < len(text) and text[pos] == ":":
            # A key where a value was expected: the previous key's value lacks its opening brace.
            q = before
            if q >= 0 and text[q] == '"':
                q = text.rfind('"', 0, q)
                colon = q - 1
                while colon >= 0 and text[colon].isspace():
                    colon -= 1
                if colon >= 0 and text[colon] == ":":
                    text = text[:colon + 1] + " {" + text[colon + 1:]
                    repairs.append(Repair(f"sample: not valid JSON as published: a missing '{{'"
                                          f" (page line {line_of(colon)})"))
                    continue
        if msg.startswith("Expecting ',' delimiter") and before >= 0:
            text = text[:before + 1] + "," + text[before + 1:]
            repairs.append(Repair(f"sample: not valid JSON as published: a missing ','"
                                  f" (page line {line_of(before)})"))
            continue
        if (msg.startswith("Expecting property name") or msg.startswith("Expecting value")) and before >= 0 \
                and text[before] == "," and pos < len(text) and text[pos] in "}]":
            text = text[:before] + text[before + 1:]
            repairs.append(Repair(f"sample: not valid JSON as published: a trailing ','"
                                  f" (page line {line_of(before)})"))
            continue
        repairs.append(Repair(f"sample: the documented body cannot be read as JSON: {msg}"
                              f" (page line {line_of(pos)})"))
        return None, repairs
    return None, repairs + [Repair("sample: the documented body cannot be read as JSON (too many repairs)")]


class Cells(html.parser.HTMLParser):
    """The rows of the HTML tables of a page's Request section: each row's cells as plain text."""

    def __init__(self):
        super().__init__()
        self.rows, self.row, self.cell = [], None, None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.row is not None and self.cell is not None:
            self.row.append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.rows.append(self.row)
            self.row = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def request_table(text):
    """The page's Request section: (path template, method, required headers)."""
    m = re.search(r"^## Request\b(.*?)^## ", text, re.S | re.M)
    if not m:
        return None, None, []
    parser = Cells()
    parser.feed(m.group(1))
    template = method = None
    section, required = "", []
    for row in parser.rows:
        if row and row[0] in ("HTTP", "Path Parameters", "Body Parameters", "Query Parameters", "Headers"):
            if len(row) < 2 or not any(row[1:]):
                section = row[0]
                continue
        if len(row) < 2:
            continue
        name = row[0]
        if name == "path" and template is None:
            template = row[1].split()[0] if row[1].split() else None
        elif name == "method" and method is None:
            method = row[1].split()[0] if row[1].split() else None
        elif section == "Headers" and len(row) >= 3 and row[2].strip() == "required":
            required += [n.strip() for n in re.split(r"\bor\b", name) if n.strip()]
    return template, method, required


def extract_page(short, path, rel):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    page = Page(short, path, rel)
    page.template, page.method, page.required_headers = request_table(text)
    lines = text.split("\n")
    try:
        start = next(i for i, l in enumerate(lines) if l.startswith("## Samples"))
    except StopIteration:
        return page
    groups = []  # [ordinal, number, [(request, [(tab, response)])]]
    i = start + 1
    pending_tab = None
    while i < len(lines):
        line = lines[i]
        if line.startswith("## "):
            break
        if line.startswith("### "):
            m = re.match(r"###\s+(\d+)\.", line)
            groups.append([len(groups) + 1, int(m.group(1)) if m else None, []])
            i += 1
            continue
        tab = re.match(r">\s*\[!TAB\s+([^\]]*)\]", line.strip())
        if tab and groups:
            label = tab.group(1).strip()
            first, block, end = fenced_block(lines, i + 1)
            if first is None:
                break
            if label.lower().startswith("request"):
                groups[-1][2].append((parse_request(block, first + 1), []))
            elif label.lower().startswith("response"):
                if not groups[-1][2]:
                    raise ValueError(f"{rel}:{first}: a response before any request")
                name = re.sub(r"^Response\s*-?\s*", "", label).strip()
                groups[-1][2][-1][1].append((name, parse_response(block, first + 1)))
            i = end
            continue
        i += 1
    for ordinal, number, exchanges in groups:
        pairs = [(req, tab, resp) for req, responses in exchanges for tab, resp in responses]
        for n, (req, tab, resp) in enumerate(pairs, 1):
            page.samples.append(Sample(page, ordinal, number, n, len(pairs), tab, req, resp))
    return page


def find_pages(docs):
    """Every API page of the two folders, in PAGES order; a page with samples that PAGES does not name is
    kept under a name of its own (and has no set-up: UNSUPPORTED until one is written)."""
    found = []
    for folder in API_GLOBS:
        base = os.path.join(docs, folder)
        for dirpath, _, files in os.walk(base):
            for name in files:
                if name.endswith(".md"):
                    found.append(os.path.join(dirpath, name))
    if not found:
        raise NotRun(f"no API page under {docs}/{API_GLOBS[0]} or {API_GLOBS[1]}")
    pages = []
    for short, ending in PAGES:
        match = [p for p in found if p.endswith(ending)]
        if not match:
            raise NotRun(f"Adobe's page {ending} is missing from {docs}")
        pages.append(extract_page(short, match[0], os.path.relpath(match[0], docs)))
        found.remove(match[0])
    for path in sorted(found):
        short = re.sub(r"^rest-api-v2-|\.md$", "", os.path.basename(path))
        page = extract_page(short, path, os.path.relpath(path, docs))
        if page.samples:
            pages.append(page)
    return pages


def xdi_required(docs):
    """The X-Device-Info keys its appendix page marks required."""
    path = os.path.join(docs, XDI_PAGE)
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        parser = Cells()
        parser.feed(f.read())
    return [row[1] for row in parser.rows if len(row) >= 2 and row[0] == "required"]


# ---------------------------------------------------------------------------------------------------
# Comparison

ENUM_KEYS = {"actionName", "actionType", "reasonType", "type", "source", "action", "authorized", "status",
             "token_type", "state", "error", "isTempPass"}
ECHO_KEYS = {"mvpd", "serviceProvider", "resource"}
ENUM_LISTS = {"missingParameters", "grant_types", "scopes"}
ERROR_KEYS = {"action", "status", "message", "helpUrl"}
FIXED_ISSUERS = {"Adobe", "Apple"}
MATCH_KEYS = ("id", "resource")


def kind(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


def show(v):
    if isinstance(v, str):
        return v if v.strip() == v and v else json.dumps(v)
    return json.dumps(v)


def join(path, key):
    return f"{path}.{key}" if path else str(key)


def substitute(value, subs):
    """The placeholders of a documented value (keys and strings) replaced by the world's names."""
    if isinstance(value, str):
        for a, b in subs.items():
            value = value.replace(a, b)
        return value
    if isinstance(value, list):
        return [substitute(v, subs) for v in value]
    if isinstance(value, dict):
        return {substitute(k, subs): substitute(v, subs) for k, v in value.items()}
    return value


def url_parts(u):
    s = urllib.parse.urlsplit(u)
    return s.path, sorted({k for k, _ in urllib.parse.parse_qsl(s.query, keep_blank_values=True)})


def compare_url(doc, got, where, codes, out):
    """A URL by its path (a segment that is a session code matches any) and its query parameter names;
    never its scheme or host."""
    dpath, dkeys = url_parts(doc)
    gpath, gkeys = url_parts(got)
    dseg, gseg = dpath.split("/"), gpath.split("/")
    same = len(dseg) == len(gseg) and all(d == g or d in codes for d, g in zip(dseg, gseg))
    if not same:
        out.append(f"path of {where}: documented {dpath}, got {gpath}")
    missing = [k for k in dkeys if k not in gkeys]
    extra = [k for k in gkeys if k not in dkeys]
    if missing or extra:
        what = []
        if missing:
            what.append("missing " + ", ".join(missing))
        if extra:
            what.append("extra " + ", ".join(extra))
        out.append(f"query of {where}: {'; '.join(what)}")


def compare_json(doc, got, path="", out=None, codes=(), parent_key=None, in_device=False, doc_parent=None):
    """The differences between a documented JSON value and the answer's, as lines: key sets, nesting,
    types (a documented null matches any type: it says nothing of one), and the values of enumerations,
    echoes and URLs."""
    out = [] if out is None else out
    where = path or "the body"
    dk, gk = kind(doc), kind(got)
    if dk == "null":
        return out
    if dk != gk:
        out.append(f"type of {where}: documented {dk}, got {gk}")
        return out
    if dk == "object":
        for k in doc:
            if k not in got:
                out.append(f"missing key {join(path, k)}")
        for k in got:
            if k not in doc:
                out.append(f"extra key {join(path, k)}")
        for k in doc:
            if k in got:
                compare_json(doc[k], got[k], join(path, k), out, codes, parent_key=k,
                             in_device=in_device or k == "device", doc_parent=doc)
        return out
    if dk == "array":
        key = parent_key.split(".")[-1] if parent_key else ""
        if key in ENUM_LISTS:
            if doc != got:
                out.append(f"value of {where}: documented {show(doc)}, got {show(got)}")
            return out
        match = next((m for m in MATCH_KEYS if doc and all(isinstance(e, dict) and isinstance(e.get(m), str)
                                                            for e in doc)
                      and len({e[m] for e in doc}) == len(doc)), None)
        if match and all(isinstance(e, dict) for e in got):
            by = {e.get(match): e for e in got}
            wanted = {e[match] for e in doc}
            spare = [e for e in got if e.get(match) not in wanted]
            for i, e in enumerate(doc):
                if e[match] in by:
                    compare_json(e, by[e[match]], join(path, i), out, codes, in_device=in_device)
                elif spare:
                    # No element of the answer has this one's key: the next unmatched one stands for it.
                    other = spare.pop(0)
                    if match not in ECHO_KEYS:
                        out.append(f"value of {join(join(path, i), match)}: documented {show(e[match])},"
                                   f" got {show(other.get(match))}")
                    compare_json(e, other, join(path, i), out, codes, in_device=in_device)
                else:
                    out.append(f"missing element {join(path, i)} ({match} {show(e[match])})")
            for e in spare:
                out.append(f"extra element of {where} ({match} {show(e.get(match))})")
            return out
        if len(doc) != len(got):
            out.append(f"length of {where}: documented {len(doc)}, got {len(got)}")
        for i, (d, g) in enumerate(zip(doc, got)):
            compare_json(d, g, join(path, i), out, codes, in_device=in_device)
        return out
    # Scalars of the same type: only enumerations, echoes and URLs have values to compare.
    key = parent_key
    rule = None
    if in_device:
        rule = None
    elif key == "code":
        rule = "enum" if doc_parent is not None and ERROR_KEYS & set(doc_parent) else None
    elif key in ENUM_KEYS or key in ECHO_KEYS:
        rule = "enum"
    elif key == "url" and dk == "string":
        rule = "url"
    elif key == "issuer":
        rule = "issuer"
    if rule == "enum" and doc != got:
        out.append(f"value of {where}: documented {show(doc)}, got {show(got)}")
    elif rule == "url":
        compare_url(doc, got, where, codes, out)
    elif rule == "issuer":
        owner = path.split(".")[-2] if path.count(".") >= 1 else None
        if doc in FIXED_ISSUERS and doc != got:
            out.append(f"value of {where}: documented {show(doc)}, got {show(got)}")
        elif doc == owner and got != owner:
            out.append(f"value of {where}: documented the profile's own MVPD ({show(doc)}), got {show(got)}")
    return out


def compare_response(doc, got_status, got_headers, got_body, got_text, subs, codes):
    """All differences between a documented response and the answer, status first."""
    out = []
    if doc.status != got_status:
        out.append(f"status: documented {doc.status}, got {got_status}")
    dct = (doc.header("Content-Type") or "").split(";")[0].strip().lower()
    gct = (got_headers.get("content-type") or "").split(";")[0].strip().lower()
    if dct and dct != gct:
        out.append(f"Content-Type: documented {dct}, got {gct or 'none'}")
    loc = doc.header("Location")
    if loc:
        if not got_headers.get("location"):
            out.append("missing header Location")
        else:
            compare_url(substitute(loc, subs), got_headers["location"], "the Location header", codes, out)
    if doc.body_text:
        if doc.body is None:
            return out  # unreadable as published: its repair says so
        if got_body is None:
            snippet = " ".join((got_text or "").split())[:80]
            out.append(f"body: documented JSON, got {'nothing' if not got_text else 'not JSON: ' + snippet}")
        else:
            documented = substitute(doc.body, subs)
            if is_error(documented) != is_error(got_body) or (
                    is_error(documented) and documented.get("code") != got_body.get("code")):
                out.append(f"body: documented {describe(documented)}, got {describe(got_body)}")
            else:
                out += grouped(compare_json(documented, got_body, codes=codes))
    return out


def is_error(value):
    """An enhanced error code's object (a top-level refusal)."""
    return isinstance(value, dict) and "code" in value and ("status" in value or "action" in value)


def describe(value):
    if is_error(value):
        return f"the error {value.get('code')} ({value.get('status')})"
    text = json.dumps(value, separators=(",", ":"))
    if len(text) <= 40:
        return text
    if isinstance(value, dict):
        return "an object with " + ", ".join(value)
    return f"a JSON {kind(value)}"


INDEX = re.compile(r"\.(\d+)(?=[.\s:]|$)")


def grouped(lines):
    """Lines that differ only in array indices (the same difference in several elements) as one line with
    `*` for the index and the elements listed."""
    def key(line):
        head, sep, tail = line.partition(": ")
        return INDEX.sub(".*", head) + sep + tail
    counts = {}
    for line in lines:
        counts.setdefault(key(line), []).append(line)
    out, done = [], set()
    for line in lines:
        k = key(line)
        if len(counts[k]) < 2:
            out.append(line)
        elif k not in done:
            done.add(k)
            idx = [".".join(INDEX.findall(l.partition(": ")[0])) for l in counts[k]]
            out.append(f"{k} (elements {', '.join(idx)})")
    return out


# ---------------------------------------------------------------------------------------------------
# The rows of docs/WIRE.md


class Row:
    def __init__(self, rid, samples, differences, line):
        self.id, self.samples, self.differences, self.line = rid, samples, differences, line
        self.covered = 0

    def covers(self, sample_id, text):
        return any(glob_match(s, sample_id) for s in self.samples) and any(
            glob_match(d, text) for d in self.differences)


def glob_match(pattern, text):
    """`*` matches any run of characters; every other character only itself (so `[`, `?` and quotes in
    a difference's text are plain)."""
    return re.fullmatch(".*".join(re.escape(part) for part in pattern.split("*")), text, re.S) is not None


def read_rows(path=WIRE):
    """The table under ROWS_HEADING: a row per disagreement; its `samples` cell lists sample-id globs and
    its `difference` cell difference globs, each in backticks."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    try:
        start = next(i for i, l in enumerate(lines) if l.strip() == ROWS_HEADING)
    except StopIteration:
        raise ValueError(f"{path}: no section {ROWS_HEADING!r}")
    header, rows = None, []
    for n in range(start + 1, len(lines)):
        line = lines[n].strip()
        if line.startswith("#"):
            break
        if not line.startswith("|"):
            if header is not None and rows:
                break
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        if header is None:
            header = [c.lower() for c in cells]
            for need in ("id", "samples", "difference"):
                if need not in header:
                    raise ValueError(f"{path}:{n + 1}: the table needs a column {need!r}")
            continue
        if set(line.replace("|", "").strip()) <= set("-: "):
            continue
        cell = dict(zip(header, cells))
        samples = re.findall(r"`([^`]+)`", cell.get("samples", ""))
        differences = [d.replace("\\|", "|") for d in re.findall(r"`([^`]+)`", cell.get("difference", ""))]
        if not samples or not differences:
            raise ValueError(f"{path}:{n + 1}: row {cell.get('id')} names no sample or no difference in backticks")
        rows.append(Row(cell["id"].strip("*` "), samples, differences, n + 1))
    if not rows:
        raise ValueError(f"{path}: the table under {ROWS_HEADING!r} has no rows")
    return rows


def judge(sample_id, differences, rows):
    """Each difference with the row covering it (or None)."""
    judged = []
    for text in differences:
        row = next((r for r in rows if r.covers(sample_id, text)), None)
        if row:
            row.covered += 1
        judged.append((text, row))
    return judged


def verdict_of(judged, unsupported=None):
    if unsupported:
        return "UNSUPPORTED"
    if any(row is None for _, row in judged):
        return "DIFF"
    ids = sorted({row.id for _, row in judged}, key=lambda r: (len(r), r))
    return "MATCH" + (f" (row {', '.join(ids)})" if ids else "")


def stale_rows(rows):
    return [r for r in rows if r.covered == 0]


# ---------------------------------------------------------------------------------------------------
# The request as replayed: the page's own template and the sample's text


def template_match(template, path):
    """The path parameters of `path` under `template` (`/api/v2/{serviceProvider}/sessions/{code}`), or None."""
    t, p = template.strip("/").split("/"), path.strip("/").split("/")
    if len(t) != len(p):
        return None
    params = {}
    for a, b in zip(t, p):
        if a.startswith("{") and a.endswith("}"):
            params[a[1:-1]] = b
        elif a != b:
            return None
    return params


def repaired_path(template, path):
    """(path to send, parameters, repair text or None): the sample's path when its page's template matches
    it; else the same segments without a trailing slash, or in the template's order (the fewest moved)."""
    params = template_match(template, path)
    if params is not None and (path.endswith("/") == template.endswith("/")):
        return path, params, None
    if params is not None:
        return path.rstrip("/"), params, f"sample: request path {path} ends with a slash its page's path {template} lacks"
    trimmed = path.rstrip("/")
    segs = trimmed.strip("/").split("/")
    best = None
    for perm in itertools.permutations(range(len(segs))):
        candidate = "/" + "/".join(segs[i] for i in perm)
        ps = template_match(template, candidate)
        if ps is not None:
            moved = sum(1 for k, i in enumerate(perm) if k != i)
            if best is None or moved < best[0]:
                best = (moved, candidate, ps)
    if best:
        shown = "/".join("{code}" if seg == best[2].get("code") else seg for seg in path.split("/"))
        return best[1], best[2], (f"sample: request path {shown} has its segments in another order than"
                                  f" its page's path {template}")
    return path, {}, f"sample: request path {path} does not fit its page's path {template}"


def b64json(value):
    """The JSON object a Base64 header carries, read leniently: (object or None, repairs)."""
    try:
        text = base64.b64decode(value + "=" * (-len(value) % 4)).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return None, [Repair("not Base64")]
    return lenient_json(text, 1)


def b64(text):
    return base64.b64encode(text.encode()).decode()


# ---------------------------------------------------------------------------------------------------
# The server


class Answer:
    def __init__(self, status, headers, data):
        self.status, self.headers, self.data = status, headers, data
        self.text = data.decode("utf-8", "replace")
        try:
            self.json = json.loads(self.text) if self.text.strip()[:1] in ("{", "[") else None
        except ValueError:
            self.json = None

    def summary(self):
        code = self.json.get("code") or self.json.get("error") if isinstance(self.json, dict) else None
        return f"{self.status}" + (f" {code}" if code else "")


class Server:
    """`passim serve --proxy`: requests go through its proxy to Adobe's host names (a TLS tunnel per
    request), the admin endpoint loads worlds and moves the clock."""

    def __init__(self, proxy, ca, admin, admin_token):
        p = urllib.parse.urlsplit(proxy)
        self.proxy = (p.hostname, p.port)
        self.context = ssl.create_default_context(cafile=ca)
        self.admin, self.admin_token = admin.rstrip("/"), admin_token
        self.idps = {}
        self.requests = 0

    def send(self, method, url, headers=None, body=None):
        u = urllib.parse.urlsplit(url)
        if u.scheme == "https":
            conn = http.client.HTTPSConnection(*self.proxy, context=self.context, timeout=15)
            conn.set_tunnel(u.hostname, u.port or 443)
        else:
            conn = http.client.HTTPConnection(*self.proxy, timeout=15)
        target = (u.path or "/") + ("?" + u.query if u.query else "")
        if u.scheme != "https":
            target = url
        data = body.encode("utf-8") if isinstance(body, str) else body
        try:
            conn.putrequest(method, target, skip_accept_encoding=True)
            for name, value in headers or []:
                conn.putheader(name, value)
            if data is not None or method in ("POST", "PUT"):
                conn.putheader("Content-Length", str(len(data or b"")))
            conn.endheaders(data)
            r = conn.getresponse()
            headers = {}
            for k, v in r.getheaders():
                headers[k.lower()] = headers[k.lower()] + "\n" + v if k.lower() in headers else v
            answer = Answer(r.status, headers, r.read())
        finally:
            conn.close()
        self.requests += 1
        return answer

    def admin_call(self, path, payload):
        req = urllib.request.Request(self.admin + path, data=json.dumps(payload).encode(), method="POST",
                                     headers={"Authorization": "Bearer " + self.admin_token,
                                              "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=15) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

    def load_world(self, text):
        status, body = self.admin_call("/admin/world", {"world": text, "urls": "as-written"})
        if status != 200:
            raise RuntimeError(f"the admin endpoint refused the world: {status} {body.strip()[:300]}")
        self.idps = {}
        for line in body.splitlines():
            try:
                host = json.loads(line)
            except ValueError:
                continue
            if host.get("host", "").startswith("idp:"):
                self.idps[host["host"][4:]] = host["url"]

    def advance(self, duration):
        status, body = self.admin_call("/admin/clock", {"advance": duration})
        if status != 200:
            raise RuntimeError(f"the admin endpoint refused to move the clock: {status} {body.strip()[:200]}")


class Forms(html.parser.HTMLParser):
    """The forms of a page: action, method and every input's name and value."""

    def __init__(self):
        super().__init__()
        self.forms = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.forms.append({"action": a.get("action", ""), "method": (a.get("method") or "GET").upper(),
                               "fields": []})
        elif tag == "input" and self.forms and a.get("name"):
            self.forms[-1]["fields"].append((a["name"], a.get("value") or ""))


# ---------------------------------------------------------------------------------------------------
# Set-ups: what each sample's example assumes


class SetupFailed(Exception):
    pass


class Context:
    """One sample's replay: its world, its client, its set-up steps and its substitutions."""

    SP = "https://sp.auth.adobe.com"

    def __init__(self, run, sample):
        self.run, self.sample, self.server = run, sample, run.server
        self.steps, self.subs_named, self.failures, self.notes = [], [], [], []
        self.code = None
        self.tokens = {}
        self.device = None  # (AP-Device-Identifier, X-Device-Info) of the sample, else the pages' usual one
        self.override_headers = {}
        self.drop_headers = set()
        self.form_overrides = {}
        self.form_drop = set()
        self.json_overrides = {}
        self.literal_body = False
        self.sp = "REF30"

    # -- helpers -------------------------------------------------------------------------------------

    def step(self, text):
        self.steps.append(text)

    def fail(self, what, answer):
        self.failures.append(f"set-up: {what} answered {answer.summary()}")
        raise SetupFailed()

    def token(self, sp=None):
        sp = sp or self.sp
        if sp not in self.tokens:
            statement = self.run.statements.get(sp)
            if statement is None:
                raise SetupFailed(f"the world declares no software statement for {sp}")
            cid, secret = self.register(sp)
            r = self.server.send("POST", self.SP + "/o/client/token",
                                 [("Content-Type", "application/x-www-form-urlencoded")],
                                 urllib.parse.urlencode({"grant_type": "client_credentials", "client_id": cid,
                                                         "client_secret": secret}))
            if r.status not in (200, 201) or not isinstance(r.json, dict) or "access_token" not in r.json:
                self.fail(f"DCR token for {sp}", r)
            self.tokens[sp] = r.json["access_token"]
        return self.tokens[sp]

    def register(self, sp=None):
        sp = sp or self.sp
        r = self.server.send("POST", self.SP + "/o/client/register", [("Content-Type", "application/json")],
                             json.dumps({"software_statement": self.run.statements[sp]}))
        if r.status not in (200, 201) or not isinstance(r.json, dict) or "client_id" not in r.json:
            self.fail(f"DCR register for {sp}", r)
        return r.json["client_id"], r.json["client_secret"]

    def device_headers(self):
        ident, info = self.device or self.run.usual_device
        return [("AP-Device-Identifier", ident), ("X-Device-Info", info)]

    def v2(self, method, path, form=None, extra=(), device=True, sp=None, tolerate=False, what=None):
        sp = sp or self.sp
        headers = [("Authorization", "Bearer " + self.token(sp)), ("Accept", "application/json")]
        if device:
            headers += self.device_headers()
        headers += list(extra)
        body = None
        if form is not None:
            headers.append(("Content-Type", "application/x-www-form-urlencoded"))
            body = urllib.parse.urlencode(form)
        r = self.server.send(method, f"{self.SP}/api/v2/{sp}{path}", headers, body)
        label = what or f"{method} {path}"
        if r.status >= 300:
            if tolerate:
                self.notes.append(f"set-up {label} answered {r.summary()} (the sample's condition; kept going)")
            else:
                self.fail(label, r)
        return r

    # -- steps ---------------------------------------------------------------------------------------

    def session(self, params=None, sp=None, extra=(), tolerate=False):
        params = params or {}
        r = self.v2("POST", "/sessions", form=params, sp=sp, extra=extra, tolerate=tolerate)
        if isinstance(r.json, dict) and r.json.get("code"):
            self.code = r.json["code"]
        shown = ", ".join(f"{k}={v}" for k, v in params.items()) or "no parameters"
        self.step(f"POST sessions ({shown})")
        return r

    def resume(self, params, tolerate=False, extra=()):
        if not self.code:
            raise SetupFailed("no session code to resume")
        r = self.v2("POST", f"/sessions/{self.code}", form=params, device=False, tolerate=tolerate,
                    what="POST sessions/{code}", extra=extra)
        self.step("POST sessions/{code} (" + ", ".join(f"{k}={v}" for k, v in params.items()) + ")")
        return r

    def login(self, mvpd, user, password, sp=None, domain="adobe.com", redirect="https://adobe.com", extra=()):
        """A session for the MVPD, then the user agent from its URL through the SP's and the IdP's pages
        (the IdP's login form filled in) until it is sent to `redirect`."""
        r = self.v2("POST", "/sessions", form={"mvpd": mvpd, "domainName": domain, "redirectUrl": redirect}, sp=sp,
                    extra=extra)
        s = r.json or {}
        if s.get("actionName") != "authenticate" or not s.get("url"):
            self.fail(f"POST sessions for a login at {mvpd} (wanted authenticate with a url)", r)
        self.code = s.get("code") or self.code
        url = urllib.parse.urljoin(self.SP + "/", s["url"])
        self.user_agent(url, user, password, redirect)
        self.step(f"login: POST sessions (mvpd={mvpd}), the user agent through the login page as {user}")

    def user_agent(self, url, user, password, redirect):
        cookies = {}
        method, data = "GET", None
        for _ in range(12):
            host = urllib.parse.urlsplit(url).hostname
            headers = [("User-Agent", "passim-docs user agent")]
            jar = cookies.get(host, {})
            if jar:
                headers.append(("Cookie", "; ".join(f"{k}={v}" for k, v in jar.items())))
            body = None
            if data is not None:
                headers.append(("Content-Type", "application/x-www-form-urlencoded"))
                body = urllib.parse.urlencode(data)
            r = self.server.send(method, url, headers, body)
            set_cookie = r.headers.get("set-cookie")
            if set_cookie:
                for part in set_cookie.split("\n"):
                    kv = part.split(";", 1)[0].strip()
                    if "=" in kv:
                        k, v = kv.split("=", 1)
                        cookies.setdefault(host, {})[k.strip()] = v.strip()
            if 300 <= r.status < 400:
                location = urllib.parse.urljoin(url, r.headers.get("location", ""))
                if location.startswith(redirect):
                    return
                url, method, data = location, "GET", None
                continue
            forms = Forms()
            forms.feed(r.text)
            if r.status >= 400 or len(forms.forms) != 1:
                self.fail(f"the user agent at {urllib.parse.urlsplit(url).path}", r)
            form = forms.forms[0]
            data = [(n, user if n == "username" else password if n == "password" else v) for n, v in form["fields"]]
            url, method = urllib.parse.urljoin(url, form["action"]), form["method"]
        raise SetupFailed("the user agent did not reach redirectUrl in 12 pages")

    def temppass(self, mvpd, identity=None, sp=None):
        extra = [("AP-TempPass-Identity", identity)] if identity else []
        r = self.v2("POST", "/sessions", form={"mvpd": mvpd, "domainName": "adobe.com",
                                                "redirectUrl": "https://adobe.com"}, sp=sp, extra=extra)
        if (r.json or {}).get("reasonType") != "temporary":
            self.fail(f"POST sessions for the TempPass {mvpd} (wanted authorize/temporary)", r)
        self.step(f"TempPass {mvpd} started (POST sessions)")

    def authorize(self, mvpd, resources, identity=None, sp=None):
        extra = [("AP-TempPass-Identity", identity)] if identity else []
        headers_json = [("Content-Type", "application/json")]
        r = self.server.send(
            "POST", f"{self.SP}/api/v2/{sp or self.sp}/decisions/authorize/{mvpd}",
            [("Authorization", "Bearer " + self.token(sp)), ("Accept", "application/json")]
            + self.device_headers() + extra + headers_json, json.dumps({"resources": resources}))
        if r.status != 200:
            self.fail(f"POST decisions/authorize/{mvpd}", r)
        self.step(f"authorized {', '.join(resources)} at {mvpd}")

    def advance(self, duration):
        self.server.advance(duration)
        self.step(f"clock moved {duration}")

    def saml(self, mvpd, user, password):
        """The SAML response Apple's framework would hold for the user: the IdP's /platform-sso."""
        idp = self.server.idps.get(mvpd)
        if not idp:
            raise SetupFailed(f"the world has no IdP for {mvpd}")
        r = self.server.send("POST", idp.rstrip("/") + "/platform-sso",
                             [("Content-Type", "application/x-www-form-urlencoded")],
                             urllib.parse.urlencode({"username": user, "password": password}))
        if r.status != 200:
            self.fail(f"{mvpd}'s /platform-sso", r)
        return b64(r.text)

    def pfs(self, mvpd):
        return b64(json.dumps({"frameworkPermissionInfo": {"accessStatus": "granted"},
                               "frameworkProviderInfo": {"id": mvpd}}))

    def apple_profile(self, mvpd, user, password):
        pfs = [("AP-Partner-Framework-Status", self.pfs(mvpd))]
        self.v2("POST", "/sessions/sso/Apple", form={"domainName": "adobe.com", "redirectUrl": "https://adobe.com"},
                extra=pfs)
        saml = self.saml(mvpd, user, password)
        r = self.v2("POST", "/profiles/sso/Apple", form={"SAMLResponse": saml}, extra=pfs)
        if r.status not in (200, 201):
            self.fail("POST profiles/sso/Apple", r)
        self.step(f"Apple SSO profile for {mvpd} as {user} (sessions/sso/Apple, profiles/sso/Apple)")

    # -- what the sample's request gets instead of its text -------------------------------------------

    def set_header(self, name, value, why):
        self.override_headers[name.lower()] = (name, value)
        self.subs_named.append(f"{name}: {why}")

    def set_form(self, name, value, why):
        self.form_overrides[name] = value
        self.subs_named.append(f"body {name}: {why}")


# Each recipe: the sample's conditions (world lines added or replaced), then its set-up, in its own words.
RECIPES = {}


def recipe(*ids, world=(), unsupported=None, about=""):
    def deco(fn):
        for i in ids:
            RECIPES[i] = (fn, list(world), unsupported, about or (fn.__doc__ or "").strip())
        return fn
    return deco


DEGRADE = "rest-v2 degrade ATTOTT {}"
ATT_SSO = ("replace", "mvpd ATTOTT ", 'mvpd ATTOTT "Passim Stream" at adobe sso supported idp-latency 0ms')
CV_NO_SSO = ("replace", "mvpd Cablevision ", 'mvpd Cablevision "Passim Cablevision" at adobe idp-latency 0ms')
FAULT = "rest-v2 fault {} invalid_configuration_temporary_access"
CV = ("Cablevision", "cv-viewer", "cv-pass")
BAD_IDENTITY = "bm90IGpzb24="  # Base64 of text that is not JSON


@recipe("dcr-register#1.1", about="the page's software statement replaced by the world's statement of REF30")
def _(ctx):
    ctx.json_overrides["software_statement"] = ctx.run.statements["REF30"]
    ctx.subs_named.append("body software_statement: the world's statement of REF30 (the page's is not one"
                          " the mock issued)")


@recipe("dcr-register#1.2", about="the request as published: its body is not JSON (the tab's invalid_request)")
def _(ctx):
    ctx.literal_body = True
    ctx.notes.append("the body is sent as published, unparseable: the error tab's malformed request")


@recipe("dcr-token#1.1", about="a client registered first; its credentials replace the page's")
def _(ctx):
    cid, secret = ctx.register()
    ctx.step("DCR register (REF30)")
    ctx.set_form("client_id", cid, "the registered client's")
    ctx.set_form("client_secret", secret, "the registered client's")


@recipe("dcr-token#1.2", about="a client registered first; the request without grant_type (a missing required parameter)")
def _(ctx):
    cid, secret = ctx.register()
    ctx.step("DCR register (REF30)")
    ctx.set_form("client_id", cid, "the registered client's")
    ctx.set_form("client_secret", secret, "the registered client's")
    ctx.form_drop.add("grant_type")
    ctx.subs_named.append("body grant_type: left out (the error tab's missing required parameter)")


@recipe("configuration#1", world=[("replace", "requestor REF30 ",
                                   'requestor REF30 mvpds AdobePass_SMI, TempPass_TEST40, TempPass_TEST44, '
                                   'AdobeShibboleth, ATTOTT, ElasticSSO, TempPass, Comcast_SSO_Perf '
                                   'software-statement "passim-docs.REF30.statement" token-ttl 6h')],
        about="REF30 integrated with exactly the sample's eight MVPDs")
def _(ctx):
    pass


@recipe("sessions-create#1", "sessions-create#2", about="a device without a profile")
def _(ctx):
    pass


@recipe("sessions-create#3", about="the device has a Cablevision profile (a login through the user agent)")
def _(ctx):
    ctx.login(*CV)


@recipe("sessions-create#4", about="nothing: TempPass_TEST40 is a TempPass of the world")
def _(ctx):
    pass


@recipe("sessions-create#5", world=["rest-v2 degrade Cablevision authenticate-all"],
        about="Cablevision under an AuthNAll degradation")
def _(ctx):
    pass


@recipe("sessions-resume#1", "sessions-resume#2", "sessions-resume#4",
        about="a session created without parameters by the pages' usual device")
def _(ctx):
    ctx.session({})


@recipe("sessions-resume#3", about="a session created without parameters, then a Cablevision profile for its device")
def _(ctx):
    code = ctx.session({}).json.get("code")
    ctx.login(*CV)
    ctx.code = code


@recipe("sessions-resume#5", world=["rest-v2 degrade Cablevision authenticate-all"],
        about="a session created without parameters; Cablevision under an AuthNAll degradation")
def _(ctx):
    ctx.session({})


DOC_ADDRESS = "192.0.2.10"  # RFC 5737's documentation range, for an address a page elides as "..."


@recipe("sessions-retrieve#1", "sessions-retrieve#2",
        about="a session created with the parameters the documented answer lists as existing, by the browser its"
              " device describes: the pages' usual device headers with the documented browser's User-Agent, its"
              " address in X-Forwarded-For and its port in X-Device-Info (the mock sees no connection of its own)")
def _(ctx):
    body = ctx.sample.response.body or {}
    existing = body.get("existingParameters", {})
    params = {("domainName" if k == "domain" else k): v for k, v in existing.items()
              if k in ("mvpd", "domain", "domainName", "redirectUrl")}
    device = body.get("device") or {}
    browser, connection = device.get("browser") or {}, device.get("connection") or {}
    ident, info = ctx.run.usual_device
    extra, said = [], []
    if connection.get("port") is not None:
        obj, _ = b64json(info)
        obj["connectionPort"] = connection["port"]
        info = b64(json.dumps(obj))
        said.append(f"X-Device-Info's connectionPort {connection['port']}")
    ctx.device = (ident, info)
    if browser.get("userAgent"):
        extra.append(("User-Agent", browser["userAgent"]))
        said.append("the documented browser's User-Agent")
    if connection.get("ipAddress") is not None:
        extra.append(("X-Forwarded-For", DOC_ADDRESS))
        said.append(f"X-Forwarded-For {DOC_ADDRESS} (the page elides the address)")
    if said:
        ctx.step("the session's device: the pages' usual one with " + ", ".join(said))
    ctx.session(params, extra=extra)


@recipe("sessions-authenticate#1", about="a session with every parameter for Cablevision")
def _(ctx):
    ctx.session({"mvpd": "Cablevision", "domainName": "adobe.com", "redirectUrl": "https://adobe.com"})


@recipe("profiles#1", about="Cablevision (cv-viewer: householdID, zip) and Spectrum (sp-basic: userID only) profiles")
def _(ctx):
    ctx.login(*CV)
    ctx.login("Spectrum", "sp-basic", "sp-pass")


def _jws(claims):
    """A JWS of the claims (header RS256, a placeholder signature: the mock checks the claims only)."""
    part = lambda obj: base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")
    return part({"alg": "RS256"}) + "." + part(claims) + ".c2lnbmF0dXJl"


SERVICE_TOKEN = ("AD-Service-Token", _jws({"iss": "Adobe", "sub": "passim-docs-user", "aud": "Adobe"}))
SUBJECT_TOKEN = ("Adobe-Subject-Token", _jws({"iss": "Amazon", "sub": "passim-docs-amazon-account"}))
OTHER_DEVICE = "fingerprint " + b64("passim-docs-other-device")


def _sso_login(ctx, token, mvpd, user, password):
    """Another app, on another device, logs in at the MVPD with the identity; the sample's request
    then carries the same identity (the sample's own token is cut short)."""
    kept = ctx.device
    ctx.device = (OTHER_DEVICE, ctx.run.usual_device[1])
    ctx.login(mvpd, user, password, extra=[token])
    ctx.device = kept
    ctx.set_header(token[0], token[1], "the sample's JWS is cut short ('.....'): one of the same issuer, for "
                                       "the user another app logged in with")


@recipe("profiles#2", about="AdobeShibboleth shared through a service token (another device's login), "
                            "Spectrum (sp-basic) this device's own")
def _(ctx):
    _sso_login(ctx, SERVICE_TOKEN, "AdobeShibboleth", "shib-viewer", "shib-pass")
    ctx.login("Spectrum", "sp-basic", "sp-pass")


@recipe("profiles-mvpd#2", about="AdobeShibboleth shared through a service token (another device's login)")
def _(ctx):
    _sso_login(ctx, SERVICE_TOKEN, "AdobeShibboleth", "shib-viewer", "shib-pass")


@recipe("logout#3", about="Spectrum shared through a service token (another device's login)")
def _(ctx):
    _sso_login(ctx, SERVICE_TOKEN, "Spectrum", "sp-basic", "sp-pass")


@recipe("profiles#3", about="AdobePass_SMI shared through a platform identity (another device's login), "
                            "Cablevision (cv-basic) this device's own")
def _(ctx):
    _sso_login(ctx, SUBJECT_TOKEN, "AdobePass_SMI", "smi-viewer", "smi-pass")
    ctx.login("Cablevision", "cv-basic", "cv-pass")


@recipe("profiles-mvpd#3", about="AdobePass_SMI shared through a platform identity (another device's login)")
def _(ctx):
    _sso_login(ctx, SUBJECT_TOKEN, "AdobePass_SMI", "smi-viewer", "smi-pass")


@recipe("logout#4", about="Comcast_SSO shared through a platform identity (another device's login)")
def _(ctx):
    _sso_login(ctx, SUBJECT_TOKEN, "Comcast_SSO", "cs-viewer", "cs-pass")


@recipe("profiles-mvpd#1", about="a Spectrum profile (sp-viewer: householdID, zip)")
def _(ctx):
    ctx.login("Spectrum", "sp-viewer", "sp-pass")


@recipe("profiles-mvpd#4.1", about="TempPass_TEST40 started by the device")
def _(ctx):
    ctx.temppass("TempPass_TEST40")


@recipe("profiles-mvpd#4.2", "profiles-code#2.2", about="TempPass_TEST40 started, then its 3 minutes past")
def _(ctx):
    if ctx.sample.page.short == "profiles-code":
        ctx.session({})
        ctx.resume({"mvpd": "TempPass_TEST40", "domainName": "adobe.com", "redirectUrl": "https://adobe.com"})
    else:
        ctx.temppass("TempPass_TEST40")
    ctx.advance("4m")


@recipe("profiles-mvpd#4.3", world=[FAULT.format("TempPass_TEST40")],
        about="TempPass_TEST40's configuration invalid (a fault of the world)")
def _(ctx):
    pass


def _promo_identity(ctx):
    return ctx.sample.request.header("AP-TempPass-Identity") or b64(json.dumps({"email": "viewer@passim.test"}))


@recipe("profiles-mvpd#5.1", about="flexibleTempPass started with the sample's identity, four resources used (five allowed)")
def _(ctx):
    ident = _promo_identity(ctx)
    ctx.temppass("flexibleTempPass", ident)
    ctx.authorize("flexibleTempPass", ["res01", "res02", "res03", "res04"], ident)


@recipe("profiles-mvpd#5.2", about="flexibleTempPass started with the sample's identity, then its ten minutes past")
def _(ctx):
    ctx.temppass("flexibleTempPass", _promo_identity(ctx))
    ctx.advance("11m")


@recipe("profiles-mvpd#5.3", world=["rest-v2 temppass-resources flexibleTempPass 4"],
        about="flexibleTempPass started, its four resources all used")
def _(ctx):
    ident = _promo_identity(ctx)
    ctx.temppass("flexibleTempPass", ident)
    ctx.authorize("flexibleTempPass", ["res01", "res02", "res03", "res04"], ident)


@recipe("profiles-mvpd#5.4", world=[FAULT.format("flexibleTempPass")],
        about="flexibleTempPass's configuration invalid (a fault of the world)")
def _(ctx):
    pass


@recipe("profiles-mvpd#5.5", "profiles-code#3.5", about="AP-TempPass-Identity not Base64 of a JSON object")
def _(ctx):
    if ctx.sample.page.short == "profiles-code":
        _code_promo(ctx)  # resumed with a good identity; the profile is then asked with a bad one
    ctx.set_header("AP-TempPass-Identity", BAD_IDENTITY, "a value that is not Base64 of JSON (the tab's invalid identity)")


@recipe("profiles-mvpd#6", world=[DEGRADE.format("authenticate-all")],
        about="ATTOTT (the pages' ${degradedMvpd}) under an AuthNAll degradation; no profile (the degraded flow's assumption)")
def _(ctx):
    pass


@recipe("profiles-code#1", about="a session whose login at Cablevision (cv-viewer) completed through the user agent")
def _(ctx):
    ctx.login(*CV)


@recipe("profiles-code#2.1", about="a session created without parameters, then resumed with TempPass_TEST40")
def _(ctx):
    ctx.session({})
    ctx.resume({"mvpd": "TempPass_TEST40", "domainName": "adobe.com", "redirectUrl": "https://adobe.com"})


@recipe("profiles-code#2.3", world=[FAULT.format("TempPass_TEST40")],
        about="a session resumed with TempPass_TEST40, whose configuration is invalid")
def _(ctx):
    ctx.session({})
    ctx.resume({"mvpd": "TempPass_TEST40", "domainName": "adobe.com", "redirectUrl": "https://adobe.com"},
               tolerate=True)


def _code_promo(ctx, tolerate=False):
    ident = _promo_identity(ctx)
    ctx.session({})
    ctx.resume({"mvpd": "flexibleTempPass", "domainName": "adobe.com", "redirectUrl": "https://adobe.com"},
               tolerate=tolerate, extra=[("AP-TempPass-Identity", ident)])
    return ident


@recipe("profiles-code#3.1", about="a session resumed with flexibleTempPass (the sample's identity), four resources used")
def _(ctx):
    ident = _code_promo(ctx)
    ctx.authorize("flexibleTempPass", ["res01", "res02", "res03", "res04"], ident)


@recipe("profiles-code#3.2", about="a session resumed with flexibleTempPass, then its ten minutes past")
def _(ctx):
    _code_promo(ctx)
    ctx.advance("11m")


@recipe("profiles-code#3.3", world=["rest-v2 temppass-resources flexibleTempPass 4"],
        about="a session resumed with flexibleTempPass, its four resources all used")
def _(ctx):
    ident = _code_promo(ctx)
    ctx.authorize("flexibleTempPass", ["res01", "res02", "res03", "res04"], ident)


@recipe("profiles-code#3.4", world=[FAULT.format("flexibleTempPass")],
        about="a session resumed with flexibleTempPass, whose configuration is invalid")
def _(ctx):
    _code_promo(ctx, tolerate=True)


@recipe("profiles-code#4", world=[DEGRADE.format("authenticate-all")],
        about="a session resumed with ATTOTT under an AuthNAll degradation")
def _(ctx):
    ctx.session({})
    ctx.resume({"mvpd": "ATTOTT", "domainName": "adobe.com", "redirectUrl": "https://adobe.com"})


@recipe("partner-request#1", about="Cablevision has platform services (Apple SSO); the device has no profile")
def _(ctx):
    pass


@recipe("partner-request#2", world=[DEGRADE.format("authenticate-all"), ATT_SSO],
        about="ATTOTT with platform services, under an AuthNAll degradation")
def _(ctx):
    pass


@recipe("partner-request#3", "partner-request#5", about="nothing beyond the world: the sample's own header and body")
def _(ctx):
    pass


@recipe("partner-request#4", world=[CV_NO_SSO], about="Cablevision without platform services (partner SSO not configured)")
def _(ctx):
    pass


@recipe("partner-profile#1", about="the SAML response of Cablevision's IdP for cv-viewer replaces the page's")
def _(ctx):
    ctx.set_form("SAMLResponse", ctx.saml(*CV), "the SAML response of Cablevision's IdP for cv-viewer")


@recipe("partner-profile#2", world=[DEGRADE.format("authenticate-all"), ATT_SSO],
        about="ATTOTT with platform services under an AuthNAll degradation; its IdP's SAML response for att-viewer")
def _(ctx):
    ctx.set_form("SAMLResponse", ctx.saml("ATTOTT", "att-viewer", "att-pass"), "the SAML response of ATTOTT's IdP")


@recipe("authorize#1", "preauthorize#1", about="a Cablevision profile of cv-viewer (REF30, resource1-2 allowed, resource3 denied)")
def _(ctx):
    ctx.login(*CV)


@recipe("authorize#2", about="a Cablevision profile of cv-denied (the MVPD denies REF30)")
def _(ctx):
    ctx.login("Cablevision", "cv-denied", "cv-pass")


@recipe("authorize#3.1", "preauthorize#2.1", world=[DEGRADE.format("authenticate-all")],
        about="ATTOTT under an AuthNAll degradation; no profile (the degraded flow's assumption)")
def _(ctx):
    pass


@recipe("authorize#3.2", "preauthorize#2.2", world=[DEGRADE.format("authorize-all")],
        about="ATTOTT under an AuthZAll degradation; no profile (the degraded flow's assumption)")
def _(ctx):
    pass


@recipe("authorize#3.3", "preauthorize#2.3", world=[DEGRADE.format("deny")],
        about="ATTOTT under an AuthZNone degradation")
def _(ctx):
    pass


@recipe("authorize#4.1", about="TempPass_TEST40 started by the device for apasstest1")
def _(ctx):
    ctx.temppass("TempPass_TEST40", sp="apasstest1")


@recipe("authorize#4.2", about="TempPass_TEST40 started for apasstest1, then its 3 minutes past")
def _(ctx):
    ctx.temppass("TempPass_TEST40", sp="apasstest1")
    ctx.advance("4m")


@recipe("authorize#4.3", world=[FAULT.format("TempPass_TEST40")],
        about="TempPass_TEST40's configuration invalid (a fault of the world)")
def _(ctx):
    pass


@recipe("authorize#5.1", about="flexibleTempPass started for apasstest1 with the sample's identity")
def _(ctx):
    ctx.temppass("flexibleTempPass", _promo_identity(ctx), sp="apasstest1")


@recipe("authorize#5.2", about="flexibleTempPass started for apasstest1, then its hour past")
def _(ctx):
    ctx.temppass("flexibleTempPass", _promo_identity(ctx), sp="apasstest1")
    ctx.advance("61m")


@recipe("authorize#5.3", about="flexibleTempPass started for apasstest1, its five resources used by others")
def _(ctx):
    ident = _promo_identity(ctx)
    ctx.temppass("flexibleTempPass", ident, sp="apasstest1")
    ctx.authorize("flexibleTempPass", ["res01", "res02", "res03", "res04", "res05"], ident, sp="apasstest1")


@recipe("authorize#5.4", world=[FAULT.format("flexibleTempPass")],
        about="flexibleTempPass's configuration invalid (a fault of the world)")
def _(ctx):
    pass


@recipe("authorize#5.5", about="AP-TempPass-Identity not Base64 of a JSON object")
def _(ctx):
    ctx.set_header("AP-TempPass-Identity", BAD_IDENTITY, "a value that is not Base64 of JSON (the tab's invalid identity)")


@recipe("logout#1", about="a Cablevision profile from a login through the user agent")
def _(ctx):
    ctx.login(*CV)


@recipe("logout#2", world=["rest-v2 no-logout Dish"], about="a Dish profile (Dish has no logout endpoint)")
def _(ctx):
    ctx.login("Dish", "dish-viewer", "dish-pass")


@recipe("logout#5", about="a Cablevision profile from Apple SSO (sessions/sso/Apple, then profiles/sso/Apple)")
def _(ctx):
    ctx.apple_profile(*CV)


@recipe("logout#6", world=[DEGRADE.format("authenticate-all")],
        about="ATTOTT under an AuthNAll degradation; the degraded flow's POST sessions first")
def _(ctx):
    ctx.session({"mvpd": "ATTOTT", "domainName": "adobe.com", "redirectUrl": "https://adobe.com"})


@recipe("logout#7", about="TempPass_5mins started by the device")
def _(ctx):
    ctx.temppass("TempPass_5mins")


# ---------------------------------------------------------------------------------------------------
# The run


def world_text(base, changes):
    lines = base.rstrip("\n").split("\n")
    for change in changes:
        if isinstance(change, tuple) and change[0] == "replace":
            _, prefix, new = change
            hits = [i for i, l in enumerate(lines) if l.startswith(prefix)]
            if len(hits) != 1:
                raise ValueError(f"the world has {len(hits)} lines starting {prefix!r}")
            lines[hits[0]] = new
        else:
            lines.append(change)
    return "\n".join(lines) + "\n"


class Result:
    def __init__(self, sample, about):
        self.sample, self.about = sample, about
        self.unsupported = None
        self.differences = []  # (text, row or None)
        self.steps, self.subs, self.notes = [], [], []
        self.verdict = "DIFF"


class Run:
    def __init__(self, pages, rows, world, server, required_xdi):
        self.pages, self.rows, self.world, self.server = pages, rows, world, server
        self.statements = dict(re.findall(r'^requestor (\S+) .*?software-statement "([^"]*)"', world, re.M))
        self.required_xdi = required_xdi
        samples = [s for p in pages for s in p.samples]
        idents = [s.request.header("AP-Device-Identifier") for s in samples if s.request.header("AP-Device-Identifier")]
        infos = [s.request.header("X-Device-Info") for s in samples if s.request.header("X-Device-Info")]
        ident = max(set(idents), key=idents.count) if idents else "fingerprint " + b64("passim-docs-device")
        info = max(set(infos), key=infos.count) if infos else b64(json.dumps({"model": "x"}))
        self.usual_info_raw = info
        self.usual_device = (ident, self.xdi_repaired(info)[0])

    def xdi_repaired(self, value):
        """The X-Device-Info value as replayed, and what had to change: the JSON read leniently, and any
        key its appendix page marks required added with a value of passim's."""
        obj, repairs = b64json(value)
        texts = []
        if obj is None or not isinstance(obj, dict):
            return value, ["the sample's X-Device-Info is not Base64 of a JSON object"]
        if repairs:
            texts.append("is not valid JSON as published (" + "; ".join(
                re.sub(r"^sample: not valid JSON as published: | \(page line \d+\)$", "", r.text) for r in repairs) + ")")
        defaults = {"model": "Passim Box", "version": "1.0.0", "osName": "Linux", "osVersion": "1.0",
                    "connectionType": "LAN", "primaryHardwareType": "Unknown", "vendor": "Passim",
                    "osVendor": "Apple"}
        missing = [k for k in self.required_xdi if k not in obj]
        for k in missing:
            obj[k] = defaults.get(k, "passim")
        if missing:
            texts.append("lacks " + ", ".join(missing) + ", which the X-Device-Info page marks required")
        return b64(json.dumps(obj)), texts

    def sample_request(self, ctx):
        """The sample's request as sent, and the differences of the sample with its own page."""
        s = ctx.sample
        req = s.request
        repairs = []
        subs = dict(PLACEHOLDERS)
        # The path: the page's template, the placeholders, the session code of the set-up.
        target = req.target
        path, _, query = target.partition("?")
        for a, b in subs.items():
            if a in path or a in query:
                ctx.subs_named.append(f"{a}: {b}")
                path, query = path.replace(a, b), query.replace(a, b)
        params = {}
        if s.page.template:
            path, params, repair = repaired_path(s.page.template, path)
            if repair:
                repairs.append(repair)
        if "serviceProvider" in params:
            ctx.sp = params["serviceProvider"]
        if "code" in params and ctx.code:
            segs = path.split("/")
            segs = [ctx.code if seg == params["code"] else seg for seg in segs]
            path = "/".join(segs)
            ctx.subs_named.append("the path's code: the set-up's session code")
        elif "code" in params and not ctx.code:
            ctx.failures.append("set-up: no session code for the path's {code}")
        # Headers: the sample's, each kept unless it cannot be replayed literally.
        headers = []
        names = {n.lower() for n, _ in req.headers}
        for name, value in req.headers:
            low = name.lower()
            if low in ctx.override_headers:
                continue
            if low == "authorization" and value.lower().startswith("bearer"):
                value = "Bearer " + ctx.token(ctx.sp)
                if "Authorization: the page's Bearer token" not in " ".join(ctx.subs_named):
                    ctx.subs_named.append(f"Authorization: the page's Bearer token -> an access token of a DCR"
                                          f" client of {ctx.sp}")
            elif low == "x-device-info":
                value, texts = self.xdi_repaired(value)
                repairs += [f"sample: X-Device-Info {t}" for t in texts]
            elif low == "ap-partner-framework-status":
                obj, _ = b64json(value)
                raw = json.dumps(obj) if obj is not None else None
                if raw and any(a in raw for a in subs):
                    value = b64(substitute(raw, subs))
                    ctx.subs_named.append("AP-Partner-Framework-Status: its ${degradedMvpd} -> ATTOTT")
            elif low == "content-length":
                continue
            headers.append((name, value))
        for low, (name, value) in ctx.override_headers.items():
            headers.append((name, value))
        for need in s.page.required_headers:
            low = need.lower()
            if low in names or low in ctx.override_headers or low == "content-type" and not req.body:
                continue
            if low in ("adobe-subject-token", "x-roku-reserved-roku-connect-token", "ad-service-token"):
                continue
            value = {"authorization": lambda: "Bearer " + ctx.token(ctx.sp),
                     "ap-device-identifier": lambda: self.usual_device[0],
                     "x-device-info": lambda: self.usual_device[1]}.get(low)
            if value is None:
                continue
            headers.append((need, value()))
            repairs.append(f"sample: the request lacks {need}, which its page's Request table marks required"
                           f" (sent: the pages' usual value)")
        # The body.
        body = req.body
        ctype = (req.header("Content-Type") or "").lower()
        if body and not ctx.literal_body:
            if "json" in ctype:
                try:
                    obj = json.loads(body)
                except ValueError:
                    obj = None
                if obj is None:
                    obj, _ = lenient_json(re.sub(r"\s*\n\s*", "", body), 1)
                    repairs.append("sample: the request body is not valid JSON as published (a line break"
                                   " inside a string)")
                if isinstance(obj, dict):
                    obj = substitute(obj, subs)
                    obj.update(ctx.json_overrides)
                    body = json.dumps(obj)
            elif "x-www-form-urlencoded" in ctype:
                pairs = urllib.parse.parse_qsl(body.strip(), keep_blank_values=True)
                pairs = [(k, substitute(v, subs)) for k, v in pairs if k not in ctx.form_drop]
                pairs = [(k, ctx.form_overrides.get(k, v)) for k, v in pairs]
                body = urllib.parse.urlencode(pairs)
        url = Context.SP + path + ("?" + query if query else "")
        return req.method, url, headers, (body if body else None), repairs

    def replay(self, sample):
        fn, changes, unsupported, about = RECIPES.get(sample.id, (None, [], None, ""))
        result = Result(sample, about)
        if fn is None:
            result.unsupported = "the tool has no set-up for this sample (write its recipe in scripts/restv2-docs.py)"
            result.verdict = "UNSUPPORTED"
            return result
        if unsupported:
            result.unsupported = unsupported
            result.verdict = "UNSUPPORTED"
            return result
        self.server.load_world(world_text(self.world, changes))
        ctx = Context(self, sample)
        ident = sample.request.header("AP-Device-Identifier")
        if ident:
            ctx.device = (ident, self.xdi_repaired(sample.request.header("X-Device-Info") or self.usual_info_raw)[0])
        template = sample.page.template or ""
        params = template_match(template, repaired_path(template, sample.request.target.split("?")[0])[0]) \
            if template else None
        if params and "serviceProvider" in params:
            ctx.sp = substitute(params["serviceProvider"], PLACEHOLDERS)
        sent = None
        try:
            fn(ctx)
            method, url, headers, body, repairs = self.sample_request(ctx)
            sent = self.server.send(method, url, headers, body)
        except SetupFailed as error:
            if error.args:
                ctx.failures.append(f"set-up: {error.args[0]}")
            repairs = []
        differences = [r.text for r in sample.response.repairs] + repairs + ctx.failures
        if sent is not None:
            codes = {c for c in (ctx.code,) if c}
            codes |= {v for k, v in (sample.response.body or {}).items() if k == "code"} \
                if isinstance(sample.response.body, dict) else set()
            tm = template_match(template, repaired_path(template, sample.request.target.split("?")[0])[0]) \
                if template else None
            if tm and "code" in tm:
                codes.add(tm["code"])
            differences += compare_response(sample.response, sent.status, sent.headers, sent.json, sent.text,
                                            PLACEHOLDERS, codes)
        elif not ctx.failures:
            differences.append("set-up: the sample's request was not sent")
        result.steps, result.subs, result.notes = ctx.steps, ctx.subs_named, ctx.notes
        result.differences = judge(sample.id, differences, self.rows)
        result.verdict = verdict_of(result.differences)
        return result


# ---------------------------------------------------------------------------------------------------
# --hostile: every documented success replayed with one thing made wrong at a time
#
# For each sample whose documented answer is a success, after its recipe's set-up, the request as the
# normal mode sends it (the base) is replayed once as it is (the control), then once per mutant: one header
# the API reads, one body or query field, or the body as a whole, made wrong. Each answer is judged
# (`judge_mutant`): a refusal is a 4xx (a 5xx only with a code whose row says 500) carrying an enhanced
# error code with the status docs/WIRE.md's table gives it (DCR: its page's `error` and status), or a 200
# whose decisions each carry the refusal (the decisions pages put refusals there); a success is acceptable
# only where an entry of ALLOWED says why Adobe's pages let the request go without that thing. After each
# mutant a health request (the programmer's configuration) must answer 200, and what the API lets a client
# observe must be as before a refusal: the device's profiles (a TempPass started, a resource used, a profile
# made or ended), the session of the set-up's code, and any session code, client or token a refusal leaks.
# A refused mutant leaves the set-up as it was, so the next mutant reuses it; after a success, a changed
# state or an unacceptable answer the set-up is made again (the world reloaded, the recipe rerun).

API_HEADERS = ("Authorization", "AP-Device-Identifier", "X-Device-Info", "AP-TempPass-Identity",
               "AP-Partner-Framework-Status", "AD-Service-Token", "Adobe-Subject-Token")
B64_JSON_HEADERS = {"x-device-info", "ap-temppass-identity", "ap-partner-framework-status"}
JWS_HEADERS = {"ad-service-token", "adobe-subject-token"}
# A header or query value over the 8 KiB the API reads (docs/LIMITS.md, mock-v2-header-bytes) but under
# the 16 KB request head the HTTP layer takes (docs/SERVE.md, Limits: a longer head is its 431, before the
# API); a body field of 64 KiB (the body limit is 1 MB).
HEAD_OVERSIZE = 12 * 1024
BODY_OVERSIZE = 64 * 1024
NOT_BASE64 = "%%not*base64%%"
NOT_OBJECT = '["an", "array"]'
KINDS = {"missing", "empty", "oversized", "not-base64", "base64-not-json", "base64-not-object", "number", "object",
         "string", "element-number", "not-an-object", "not-json"}
DECISION_PAGES = {"authorize", "preauthorize"}
DCR_PAGES = {"dcr-register", "dcr-token"}
ERRORS_HEADING = "### Enhanced error codes"


class Req:
    """A request as sent: method, URL, headers (name, value) in order, body text or None."""

    def __init__(self, method, url, headers, body):
        self.method, self.url, self.headers, self.body = method, url, list(headers), body

    def header(self, name):
        return next((v for n, v in self.headers if n.lower() == name.lower()), None)

    def content_type(self):
        return (self.header("Content-Type") or "").split(";")[0].strip().lower()

    def json_body(self):
        if self.body is None or "json" not in self.content_type():
            return None
        try:
            value = json.loads(self.body)
        except ValueError:
            return None
        return value if isinstance(value, dict) else None

    def form(self):
        if self.body is None or self.content_type() != "application/x-www-form-urlencoded":
            return None
        return urllib.parse.parse_qsl(self.body, keep_blank_values=True)

    def query(self):
        return urllib.parse.parse_qsl(urllib.parse.urlsplit(self.url).query, keep_blank_values=True)


def mutations(req):
    """The mutants of a request, as (target, kind): each header of API_HEADERS it sends, each form, JSON
    and query field, and a JSON body as a whole."""
    out = []
    for name, _ in req.headers:
        canonical = next((h for h in API_HEADERS if h.lower() == name.lower()), None)
        if canonical is None:
            continue
        low = canonical.lower()
        kinds = ["missing", "empty", "oversized"]
        if low == "ap-device-identifier":
            kinds += ["not-base64"]
        elif low in B64_JSON_HEADERS:
            kinds += ["not-base64", "base64-not-json", "base64-not-object"]
        elif low in JWS_HEADERS:
            kinds += ["not-base64", "base64-not-object"]
        out += [(f"header {canonical}", k) for k in kinds]
    form = req.form()
    for name in dict.fromkeys(k for k, _ in form or []):
        out += [(f"form {name}", k) for k in ("missing", "empty", "oversized")]
    obj = req.json_body()
    if obj is not None:
        for name, value in obj.items():
            if isinstance(value, str):
                kinds = ["missing", "empty", "oversized", "number", "object"]
            elif isinstance(value, list):
                kinds = ["missing", "empty", "oversized", "number", "object", "string", "element-number"]
            else:
                kinds = ["missing", "string", "object"]
            out += [(f"json {name}", k) for k in kinds]
        out += [("body", "not-an-object"), ("body", "not-json")]
    for name in dict.fromkeys(k for k, _ in req.query()):
        out += [(f"query {name}", k) for k in ("missing", "empty", "oversized")]
    return out


def _pad(value, size, filler="x"):
    return value + filler * max(0, size - len(value))


def _b64url(text):
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def _padded_object(obj, size):
    """Base64 of `obj` with a padding member making the encoded value at least `size` bytes."""
    obj = dict(obj) if isinstance(obj, dict) else {}
    obj["passimPadding"] = "x" * (size * 3 // 4)
    return b64(json.dumps(obj))


def header_value(name, value, kind):
    """The header's wrong value for a mutation kind (None: the header is left out)."""
    low = name.lower()
    if kind == "missing":
        return None
    if kind == "empty":
        return ""
    if low == "authorization":
        if kind == "oversized":
            return _pad(value, HEAD_OVERSIZE, "A")
    elif low == "ap-device-identifier":
        if kind == "oversized":
            return "fingerprint " + b64("passim-device-" + "x" * (HEAD_OVERSIZE * 3 // 4))
        if kind == "not-base64":
            return "fingerprint " + NOT_BASE64
    elif low in B64_JSON_HEADERS:
        if kind == "oversized":
            return _padded_object(b64json(value)[0], HEAD_OVERSIZE)
        if kind == "not-base64":
            return NOT_BASE64
        if kind == "base64-not-json":
            return b64("not json at all")
        if kind == "base64-not-object":
            return b64(NOT_OBJECT)
    elif low in JWS_HEADERS:
        parts = value.split(".")
        head, sig = (parts[0], parts[-1]) if len(parts) == 3 else (_b64url('{"alg":"RS256"}'), "c2ln")
        if kind == "oversized":
            try:
                claims = json.loads(base64.urlsafe_b64decode(parts[1] + "=" * (-len(parts[1]) % 4)))
            except (ValueError, IndexError):
                claims = {}
            claims = dict(claims) if isinstance(claims, dict) else {}
            claims["passimPadding"] = "x" * (HEAD_OVERSIZE * 3 // 4)
            return f"{head}.{_b64url(json.dumps(claims))}.{sig}"
        if kind == "not-base64":
            return f"{head}.{NOT_BASE64}.{sig}"
        if kind == "base64-not-object":
            return f"{head}.{_b64url(NOT_OBJECT)}.{sig}"
    raise ValueError(f"no {kind} value for the header {name}")


def json_value(value, kind):
    if kind == "empty":
        return [] if isinstance(value, list) else ""
    if kind == "oversized":
        if isinstance(value, list):
            first = value[0] if value and isinstance(value[0], str) else "passim"
            return [_pad(first, BODY_OVERSIZE)]
        return _pad(value if isinstance(value, str) else "passim", BODY_OVERSIZE)
    if kind == "number":
        return 42
    if kind == "object":
        return {"value": value}
    if kind == "string":
        return value[0] if isinstance(value, list) and value and isinstance(value[0], str) else "passim"
    if kind == "element-number":
        return [42]
    raise ValueError(f"no {kind} value for a JSON field")


def mutate(req, target, kind):
    """The request with one thing made wrong."""
    what, _, name = target.partition(" ")
    headers, body, url = list(req.headers), req.body, req.url
    if what == "header":
        i = next(i for i, (n, _) in enumerate(headers) if n.lower() == name.lower())
        value = header_value(name, headers[i][1], kind)
        if value is None:
            del headers[i]
        else:
            headers[i] = (headers[i][0], value)
    elif what == "form":
        pairs = req.form()
        if kind == "missing":
            pairs = [(k, v) for k, v in pairs if k != name]
        else:
            pairs = [(k, "" if kind == "empty" else _pad(v, BODY_OVERSIZE)) if k == name else (k, v)
                     for k, v in pairs]
        body = urllib.parse.urlencode(pairs)
    elif what == "json":
        obj = dict(req.json_body())
        if kind == "missing":
            del obj[name]
        else:
            obj[name] = json_value(obj[name], kind)
        body = json.dumps(obj)
    elif what == "query":
        parts = urllib.parse.urlsplit(url)
        pairs = req.query()
        if kind == "missing":
            pairs = [(k, v) for k, v in pairs if k != name]
        else:
            pairs = [(k, "" if kind == "empty" else _pad(v, HEAD_OVERSIZE)) if k == name else (k, v)
                     for k, v in pairs]
        url = urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(pairs)))
    elif target == "body":
        if kind == "not-an-object":
            body = json.dumps([req.json_body()])
        elif kind == "not-json":
            body = req.body[:max(1, len(req.body) // 2)].rstrip() + " not json"
        else:
            raise ValueError(f"no {kind} for the body")
    else:
        raise ValueError(f"unknown target {target}")
    return Req(req.method, url, headers, body)


class Allow:
    """A mutation the API may take: the pages (by short name), the targets and kinds it covers, why
    Adobe's pages let the request go without it, and, when the success must say so, a condition on the
    answer (`when(target, answer, reference)`, the reference being the answer to the same request without
    the header or field). `optional`: the header is one each page's Request table marks optional (the run
    checks it)."""

    def __init__(self, aid, pages, targets, kinds, why, when=None, optional=False):
        self.id, self.pages, self.targets, self.kinds, self.why = aid, pages, targets, kinds, why
        self.when, self.optional = when, optional
        self.matched = 0

    def covers(self, page, target, kind):
        return page in self.pages and target in self.targets and kind in self.kinds

    def holds(self, target, answer, reference=None):
        return self.when is None or bool(self.when(target, answer, reference))


def _lists_missing(target, answer, _reference=None):
    """The session answer lists the field among its missingParameters (Adobe's resume/retry)."""
    name = target.partition(" ")[2]
    return isinstance(answer, dict) and name in (answer.get("missingParameters") or [])


def _authorized_session(_target, answer, _reference=None):
    """The session answer sends the device to its decisions: no login is left to make."""
    return isinstance(answer, dict) and answer.get("actionName") == "authorize" and answer.get("reasonType") in (
        "authenticated", "authenticatedSSO", "temporary", "degraded")


def _reason(value):
    def when(_target, answer, _reference=None):
        return isinstance(answer, dict) and answer.get("reasonType") == value
    return when


def _as_if_absent(_target, answer, reference=None):
    """The answer is the one the request gets without the header (the comparer finds no difference):
    the value was ignored, not taken for an identity or a device."""
    if reference is None or answer is None:
        return False
    return not compare_json(reference, answer, codes=())


# Each entry: which header/field, which operation, why Adobe's pages make it optional there.
ALLOWED = [
    Allow("A1", {"sessions-create", "sessions-resume", "partner-request"},
          {"form mvpd", "form domainName", "form redirectUrl"}, {"missing", "empty", "oversized"},
          "a session may lack a valid parameter: each one's row on the create, resume and partner session pages"
          " says an application that cannot give a valid value resumes the session with one later; the create"
          " page's sample 2 sends none and is answered with them in missingParameters, the partner page's"
          " fallbacks (pfs_fallback, missing_parameters_fallback, its sample 5) list them there too; taken"
          " only when the answer lists the field as missing", when=_lists_missing),
    Allow("A2", {"sessions-create", "sessions-resume", "partner-request"}, {"form domainName", "form redirectUrl"},
          {"missing", "empty", "oversized"},
          "the pages' missingParameters are what 'the basic authentication flow' needs: a device the answer sends"
          " straight to its decisions (authorize: authenticated, temporary, degraded) has no login left to"
          " make with them; taken only for such an answer", when=_authorized_session),
    Allow("A3", {"partner-request"}, {"header AP-Partner-Framework-Status"},
          {"missing", "empty", "oversized", "not-base64", "base64-not-json", "base64-not-object"},
          "the partner session page's reasonType pfs_fallback is the answer to a missing or invalid"
          " AP-Partner-Framework-Status (the header is optional there); taken only when the answer says"
          " pfs_fallback", when=_reason("pfs_fallback"), optional=True),
    Allow("A4", {"profiles", "profiles-mvpd", "logout"}, {"header AD-Service-Token", "header Adobe-Subject-Token"},
          {"missing"},
          "each page's Request table marks the single sign-on token optional: without it the request is"
          " the device's own", optional=True),
    Allow("A5", {"profiles", "profiles-mvpd", "logout"}, {"header AD-Service-Token", "header Adobe-Subject-Token"},
          {"empty", "oversized", "not-base64", "base64-not-object"},
          "the token is optional and the single sign-on flow pages say the endpoints validate the required"
          " parameters and headers: a token Adobe cannot verify shares nothing; taken only when the answer is"
          " the one without the token", when=_as_if_absent, optional=True),
    Allow("A6", {"configuration"}, {"header AP-Device-Identifier", "header X-Device-Info"}, {"missing"},
          "the configuration page's Request table marks both device headers optional", optional=True),
    Allow("A7", {"configuration"}, {"header AP-Device-Identifier", "header X-Device-Info"},
          {"empty", "oversized", "not-base64", "base64-not-json", "base64-not-object"},
          "optional on the configuration page's Request table, and as A5: a value the API does not use may be"
          " ignored; taken only when the answer is the one without the header", when=_as_if_absent, optional=True),
    Allow("A8", {"dcr-register", "dcr-token"}, {"header X-Device-Info"}, {"missing"},
          "the DCR pages say that without X-Device-Info the backend uses the values it extracts itself"),
    Allow("A9", {"partner-profile"}, {"header AP-Partner-Framework-Status"}, {"missing"},
          "the partner profile page's Request table marks AP-Partner-Framework-Status optional: the SAML"
          " response names the MVPD", optional=True),
    Allow("A10", {"dcr-register"}, {"json redirect_uri"}, {"missing"},
          "the register page's Request table marks redirect_uri optional"),
]


def header_marks(text):
    """The page's Request table: header name (lower case) -> `required` or `optional`."""
    m = re.search(r"^## Request\b(.*?)^## ", text, re.S | re.M)
    if not m:
        return {}
    parser = Cells()
    parser.feed(m.group(1))
    marks, section = {}, ""
    for row in parser.rows:
        if row and row[0] in ("HTTP", "Path Parameters", "Body Parameters", "Query Parameters", "Headers") \
                and (len(row) < 2 or not any(row[1:])):
            section = row[0]
            continue
        if section == "Headers" and len(row) >= 2 and row[-1].strip() in ("required", "optional"):
            # "Adobe-Subject-Token or X-Roku-…" (the cell's words run together when its <br/>s are dropped)
            for name in re.split(r"\s*\bor\b\s*|(?<=[a-z])or(?=[A-Z])", row[0]):
                if name.strip():
                    marks[name.strip().lower()] = row[-1].strip()
    return marks


def wrong_allowances(allowed, marks):
    """The entries that say a header is optional where a page's Request table does not."""
    out = []
    for a in allowed:
        if not a.optional:
            continue
        for page in sorted(a.pages):
            for target in sorted(a.targets):
                name = target.partition(" ")[2].lower()
                if target.startswith("header ") and marks.get(page, {}).get(name) != "optional":
                    out.append(f"allow-list entry {a.id}: the {page} page's Request table does not mark"
                               f" {target.partition(' ')[2]} optional ({marks.get(page, {}).get(name, 'absent')})")
    return out


def read_error_codes(path=WIRE):
    """docs/WIRE.md's table of enhanced error codes: code -> status."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    try:
        start = next(i for i, l in enumerate(lines) if l.strip() == ERRORS_HEADING)
    except StopIteration:
        raise ValueError(f"{path}: no section {ERRORS_HEADING!r}")
    header, codes = None, {}
    for line in lines[start + 1:]:
        s = line.strip()
        if s.startswith("#"):
            break
        if not s.startswith("|"):
            if codes:
                break
            continue
        cells = [c.strip() for c in s.strip("|").split("|")]
        if header is None:
            header = [c.lower() for c in cells]
            if "code" not in header or "status" not in header:
                raise ValueError(f"{path}: the table under {ERRORS_HEADING!r} needs columns code and status")
            continue
        if set(s.replace("|", "").strip()) <= set("-: "):
            continue
        row = dict(zip(header, cells))
        m = re.fullmatch(r"`([a-z0-9_]+)`", row.get("code", ""))
        if m and row.get("status", "").isdigit():
            codes[m.group(1)] = int(row["status"])
    if not codes:
        raise ValueError(f"{path}: the table under {ERRORS_HEADING!r} has no codes")
    return codes


def dcr_errors(text):
    """A DCR page's Error section: (its status, the `error` values it lists)."""
    m = re.search(r"^### Error\b(.*?)^## ", text, re.S | re.M)
    if not m:
        return None, set()
    status = re.search(r">\s*Status\s*</td>\s*<td[^>]*>\s*(\d{3})\s*<", m.group(1))
    values = set(re.findall(r"<td[^>]*>\s*([a-z]+(?:_[a-z]+)+)\s*</td>", m.group(1)))
    return (int(status.group(1)) if status else None), values


def classify(page, status, body):
    """`success`, `refused inside` (a 200 whose every decision carries its refusal), `refused`,
    `redirect`."""
    if 200 <= status < 300:
        if page in DECISION_PAGES and isinstance(body, dict) and isinstance(body.get("decisions"), list) \
                and body["decisions"] and all(isinstance(d, dict) and d.get("authorized") is not True
                                              and isinstance(d.get("error"), dict) for d in body["decisions"]):
            return "refused inside"
        return "success"
    if 300 <= status < 400:
        return "redirect"
    return "refused"


def answer_code(page, body):
    """The code an answer names: the error object's, DCR's `error`, or the decisions' codes."""
    if not isinstance(body, dict):
        return ""
    if page in DCR_PAGES and isinstance(body.get("error"), str):
        return body["error"]
    if isinstance(body.get("code"), str) and ("status" in body or "action" in body):
        return body["code"]
    if isinstance(body.get("decisions"), list):
        codes = [d["error"].get("code") for d in body["decisions"]
                 if isinstance(d, dict) and isinstance(d.get("error"), dict)]
        return ",".join(dict.fromkeys(str(c) for c in codes))
    return ""


def judge_mutant(page, target, kind, status, body, codes, dcr, allowed, changed=(), reference=None):
    """(acceptable, verdict text) for one mutant's answer. `codes`: WIRE.md's code -> status; `dcr`:
    the page's (status, error values) for a DCR page; `allowed`: the ALLOWED entries; `changed`: what the
    observable state lost or gained; `reference`: the answer without the header or field."""
    state = "; ".join(changed)
    what = classify(page, status, body)
    if what == "success":
        entry = next((a for a in allowed if a.covers(page, target, kind) and a.holds(target, body, reference)), None)
        if entry:
            entry.matched += 1
            return True, f"allowed ({entry.id})"
        return False, f"BAD: taken ({status}): the API answered as if nothing were wrong"
    if what == "redirect":
        return False, f"BAD: a redirect ({status}) for a request the API should refuse"
    problems = []
    if what == "refused inside":
        for d in body["decisions"]:
            e = d["error"]
            code, want = e.get("code"), codes.get(e.get("code"))
            if want is None:
                problems.append(f"decision code {code} is not in WIRE.md's table")
            elif e.get("status") != want:
                problems.append(f"decision code {code} with status {e.get('status')}, WIRE.md says {want}")
    elif page in DCR_PAGES:
        want_status, values = dcr
        error = body.get("error") if isinstance(body, dict) else None
        if not isinstance(error, str):
            problems.append(f"a {status} without an OAuth error")
        elif error not in values:
            problems.append(f"error {error} is not one its page lists")
        elif status != want_status:
            problems.append(f"error {error} with status {status}, its page says {want_status}")
    else:
        code = body.get("code") if isinstance(body, dict) else None
        if not isinstance(code, str) or not ("status" in body or "action" in body):
            problems.append(f"a {status} without an enhanced error code")
        elif code not in codes:
            problems.append(f"code {code} is not in WIRE.md's table")
        elif codes[code] != status:
            problems.append(f"code {code} with status {status}, WIRE.md says {codes[code]}")
        elif body.get("status") is not None and body.get("status") != status:
            problems.append(f"its body says status {body.get('status')}, the answer {status}")
    if state:
        problems.append(f"refused but stored: {state}")
    if problems:
        return False, "BAD: " + "; ".join(problems)
    return True, what


def state_changes(before, after):
    """What differs between two observations (dicts of name -> JSON-able value), as lines."""
    out = []
    for key in sorted(set(before) | set(after)):
        b, a = before.get(key), after.get(key)
        if b == a:
            continue
        if key == "profiles" and isinstance(b, dict) and isinstance(a, dict):
            for m in sorted(set(b) | set(a)):
                if m not in a:
                    out.append(f"the {m} profile ended")
                elif m not in b:
                    out.append(f"a {m} profile appeared")
                elif a[m] != b[m]:
                    out.append(f"the {m} profile changed")
        else:
            out.append(f"{key} changed")
    return out


class Mutant:
    def __init__(self, sample, target, kind):
        self.sample, self.target, self.kind = sample, target, kind
        self.status, self.code, self.verdict, self.ok = None, "", "", False
        self.explanation, self.text = "", ""

    @property
    def label(self):
        return f"{self.target} {self.kind}"


class Hostile:
    """The --hostile run over a Run's samples."""

    def __init__(self, run, codes, dcr):
        self.run, self.server, self.codes, self.dcr = run, run.server, codes, dcr
        self.mutants, self.controls, self.setups = [], [], 0
        self.reference = {}  # (sample id, target) -> the answer without that header or field

    def setup(self, sample):
        """The world loaded, the recipe run, the base request built: (ctx, Req), or raises SetupFailed."""
        fn, changes, _, _ = RECIPES[sample.id]
        self.server.load_world(world_text(self.run.world, changes))
        self.setups += 1
        ctx = Context(self.run, sample)
        ident = sample.request.header("AP-Device-Identifier")
        if ident:
            ctx.device = (ident, self.run.xdi_repaired(sample.request.header("X-Device-Info")
                                                       or self.run.usual_info_raw)[0])
        template = sample.page.template or ""
        params = template_match(template, repaired_path(template, sample.request.target.split("?")[0])[0]) \
            if template else None
        if params and "serviceProvider" in params:
            ctx.sp = substitute(params["serviceProvider"], PLACEHOLDERS)
        fn(ctx)
        method, url, headers, body, _ = self.run.sample_request(ctx)
        if ctx.failures:
            raise SetupFailed("; ".join(ctx.failures))
        return ctx, Req(method, url, headers, body)

    def observe(self, ctx, base):
        """What a client can see of the state a request may change."""
        seen = {}
        if ctx.sample.page.short in DCR_PAGES:
            return seen
        headers = [("Authorization", "Bearer " + ctx.token(ctx.sp)), ("Accept", "application/json")]
        device = [(n, base.header(n)) for n in ("AP-Device-Identifier", "X-Device-Info") if base.header(n)]
        headers += device if len(device) == 2 else ctx.device_headers()
        headers += [(n, base.header(n)) for n in ("AD-Service-Token", "Adobe-Subject-Token", "AP-TempPass-Identity")
                    if base.header(n)]
        r = self.server.send("GET", f"{ctx.SP}/api/v2/{ctx.sp}/profiles", headers)
        seen["profiles"] = r.json.get("profiles") if r.status == 200 and isinstance(r.json, dict) else r.summary()
        if ctx.code:
            r = self.server.send("GET", f"{ctx.SP}/api/v2/{ctx.sp}/sessions/{ctx.code}",
                                 [("Authorization", "Bearer " + ctx.token(ctx.sp)), ("Accept", "application/json")])
            seen["the session of the set-up's code"] = r.json if r.json is not None else r.summary()
        return seen

    def leaks(self, ctx, page, body):
        """A refusal that hands out a session code, a client or a token: each must be unknown."""
        out = []
        if not isinstance(body, dict):
            return out
        bearer = [("Authorization", "Bearer " + ctx.token(ctx.sp)), ("Accept", "application/json")]
        code = body.get("code")
        if page not in DCR_PAGES and isinstance(code, str) and "status" not in body and "action" not in body:
            r = self.server.send("GET", f"{ctx.SP}/api/v2/{ctx.sp}/sessions/{code}", bearer)
            if r.status < 400:
                out.append(f"the refusal's session code {code} is a live session")
        if isinstance(body.get("client_id"), str):
            form = {"grant_type": "client_credentials", "client_id": body["client_id"],
                    "client_secret": body.get("client_secret") or ""}
            r = self.server.send("POST", ctx.SP + "/o/client/token",
                                 [("Content-Type", "application/x-www-form-urlencoded")], urllib.parse.urlencode(form))
            if r.status < 300:
                out.append("the refusal's client_id is a registered client")
        if isinstance(body.get("access_token"), str):
            r = self.server.send("GET", f"{ctx.SP}/api/v2/{ctx.sp}/configuration",
                                 [("Authorization", "Bearer " + body["access_token"])])
            if r.status < 300:
                out.append("the refusal's access_token is accepted")
        return out

    def healthy(self, ctx):
        r = self.server.send("GET", f"{ctx.SP}/api/v2/{ctx.sp}/configuration",
                             [("Authorization", "Bearer " + ctx.token(ctx.sp)), ("Accept", "application/json")])
        return r.status == 200, r.summary()

    def sample(self, sample):
        """The control, then every mutant of one sample. Returns False when the server stopped serving."""
        page = sample.page.short
        dcr = self.dcr.get(page, (None, set()))
        try:
            ctx, base = self.setup(sample)
            control = self.server.send(base.method, base.url, base.headers, base.body)
        except SetupFailed as error:
            self.controls.append((sample, f"set-up failed: {error.args[0] if error.args else ''}", [], None))
            return True
        self.controls.append((sample, control.summary(), mutations(base), control.status))
        fresh, before = False, {}  # the control may have used the set-up up (a session resumed, a profile ended)
        for target, kind in mutations(base):
            m = Mutant(sample, target, kind)
            self.mutants.append(m)
            try:
                if not fresh:
                    ctx, base = self.setup(sample)
                    before = self.observe(ctx, base)
                sent = mutate(base, target, kind)
                try:
                    answer = self.server.send(sent.method, sent.url, sent.headers, sent.body)
                except (OSError, http.client.HTTPException) as error:
                    m.status, m.verdict = "-", f"BAD: no answer ({type(error).__name__}: {error})"
                    fresh = False
                    ok, what = self.healthy_or_down(ctx)
                    if not ok:
                        m.verdict += f"; then the health request failed ({what}): the server stopped serving"
                        return False
                    continue
                m.status, m.code = answer.status, answer_code(page, answer.json)
                m.explanation = answer.headers.get("x-passim-explanation", "")
                m.text = " ".join(answer.text.split())[:400]
                if kind == "missing":
                    self.reference[(sample.id, target)] = answer.json
                try:
                    ok, what = self.healthy(ctx)
                except (OSError, http.client.HTTPException) as error:
                    ok, what = False, f"{type(error).__name__}: {error}"
                if not ok:
                    m.verdict = f"BAD: the health request after it answered {what}: the server stopped serving"
                    return False
                after = self.observe(ctx, base)
                kind_of = classify(page, answer.status, answer.json)
                changed = state_changes(before, after) if kind_of != "success" else []
                if kind_of != "success":
                    changed += self.leaks(ctx, page, answer.json)
                m.ok, m.verdict = judge_mutant(page, target, kind, answer.status, answer.json, self.codes, dcr,
                                               ALLOWED, changed, self.reference.get((sample.id, target)))
                fresh = m.ok and kind_of != "success" and not changed
            except SetupFailed as error:
                m.status, m.verdict = "-", f"BAD: the set-up failed ({error.args[0] if error.args else ''})"
                fresh = False
        return True

    def healthy_or_down(self, ctx):
        try:
            return self.healthy(ctx)
        except (OSError, http.client.HTTPException, SetupFailed) as error:
            return False, f"{type(error).__name__}: {error}"


def hostile_table(mutants):
    rows = [(m.sample.id, m.label, str(m.status), m.code or "-", m.verdict) for m in mutants]
    heads = ("sample", "mutation", "status", "code", "verdict")
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(heads[:4])]
    line = lambda r: "  ".join(c.ljust(w) for c, w in zip(r[:4], widths)) + "  " + r[4]
    return "\n".join([line(heads)] + [line(r) for r in rows])


def success_samples(pages, only=None):
    """The samples whose documented answer is a success (below 400) and that have a set-up."""
    out = []
    for p in pages:
        for s in p.samples:
            if s.response.status >= 400 or (only and not glob_match(only, s.id)):
                continue
            fn, _, unsupported, _ = RECIPES.get(s.id, (None, [], None, ""))
            if fn is not None and not unsupported:
                out.append(s)
    return out


def run_hostile(args, pages, world, server, required_xdi):
    try:
        codes = read_error_codes(args.rows)
    except (OSError, ValueError) as error:
        print(f"{TOOL}: {error}", file=sys.stderr)
        return 2
    dcr, marks = {}, {}
    for p in pages:
        with open(p.path, encoding="utf-8") as f:
            text = f.read()
        marks[p.short] = header_marks(text)
        if p.short in DCR_PAGES:
            dcr[p.short] = dcr_errors(text)
            if dcr[p.short][0] is None or not dcr[p.short][1]:
                print(f"{TOOL}: no Error section with a status and error values on {p.rel}", file=sys.stderr)
                return 2
    wrong = wrong_allowances(ALLOWED, marks)
    if wrong:
        for line in wrong:
            print(f"{TOOL}: {line}", file=sys.stderr)
        return 1
    run = Run(pages, [], world, server, required_xdi)
    hostile = Hostile(run, codes, dcr)
    chosen = success_samples(pages, args.only)
    for a in ALLOWED:
        a.matched = 0
    started = time.time()
    serving = True
    try:
        for s in chosen:
            if not hostile.sample(s):
                serving = False
                break
    except (RuntimeError, OSError, ValueError, http.client.HTTPException) as error:
        print(f"{TOOL}: the server could not be driven: {error}", file=sys.stderr)
        return 2
    print(hostile_table(hostile.mutants))
    bad = [m for m in hostile.mutants if not m.ok]
    status = 0 if not bad and serving else 1
    for sample, control, _, got in hostile.controls:
        if got is None:
            print(f"{TOOL}: {sample.id}: {control}; its mutants were not run", file=sys.stderr)
            status = 1
        elif got != sample.response.status:
            print(f"{TOOL}: note: {sample.id}'s request unmutated answered {control}, documented"
                  f" {sample.response.status} (the normal mode's difference)", file=sys.stderr)
    if not args.only:
        generated = {(s.page.short, t, k) for s, _, ms, _ in hostile.controls for t, k in ms}
        for a in ALLOWED:
            if not any(a.covers(p, t, k) for p, t, k in generated):
                print(f"{TOOL}: allow-list entry {a.id} covers no mutant: a stale entry; remove or correct it",
                      file=sys.stderr)
                status = 1
    if bad:
        print(f"\n{TOOL}: unacceptable answers ({len(bad)}):")
        for m in bad:
            why = f" [mock: {m.explanation}]" if m.explanation else ""
            print(f"  {m.sample.id}  {m.label}: {m.status}{' ' + m.code if m.code else ''}: {m.verdict}{why}")
            if args.verbose and m.text:
                print(f"      answered: {m.text}")
    used = [a for a in ALLOWED if a.matched]
    if used:
        print(f"\n{TOOL}: successes the allow-list takes:")
        for a in used:
            print(f"  {a.id} ({a.matched}): {', '.join(sorted(a.targets))} {'/'.join(sorted(a.kinds))}"
                  f" on {', '.join(sorted(a.pages))}: {a.why}")
    if not serving:
        print(f"{TOOL}: the server stopped serving; the remaining mutants were not run", file=sys.stderr)
    print(f"{TOOL} --hostile: {len(hostile.mutants) - len(bad)} of {len(hostile.mutants)} mutants acceptable;"
          f" {len(bad)} not ({len(chosen)} documented successes, {hostile.setups} set-ups,"
          f" {server.requests} requests, {time.time() - started:.1f} s)")
    return status


# ---------------------------------------------------------------------------------------------------
# Reports


def first_difference(result):
    if result.unsupported:
        return "needs " + result.unsupported
    uncovered = [t for t, r in result.differences if r is None]
    if uncovered:
        return uncovered[0] + (f" (+{len(uncovered) - 1} more)" if len(uncovered) > 1 else "")
    return ""


def summary(results):
    total = len(results)
    matched = [r for r in results if r.verdict.startswith("MATCH")]
    covered = [r for r in matched if "(row" in r.verdict]
    differ = [r for r in results if r.verdict == "DIFF"]
    unsupported = [r for r in results if r.verdict == "UNSUPPORTED"]
    return (f"{len(matched)} of {total} documented responses match; {len(covered)} covered by named rows; "
            f"{len(differ)} differ; {len(unsupported)} unsupported")


def table(results):
    width = max((len(r.sample.id) for r in results), default=0)
    vw = max(len(r.verdict) for r in results)
    lines = []
    for r in results:
        lines.append(f"{r.sample.id:<{width}}  {r.verdict:<{vw}}  {first_difference(r)}".rstrip())
    return "\n".join(lines)


def markdown(results, pages, docs_commit):
    out = [
        "# Adobe's REST API v2 and DCR samples against the mock",
        "",
        "Back to the [README](../README.md).",
        "",
        "Generated by the check `make rest-v2-docs` runs (`scripts/restv2-docs.py`): do not edit. After a change to",
        "the mock, the world or the rows, regenerate it with a built passim and commit it:",
        "`scripts/restv2-docs.sh .build/debug/passim --write` (any passim binary in place of `.build/debug/passim`).",
        "",
        "Running it: `make rest-v2-docs` builds passim, runs the tool's own tests",
        "(`scripts/test_restv2_docs.py`), then `scripts/restv2-docs.sh .build/debug/passim`, which starts `passim",
        "serve` on its world behind the forward proxy and prints a line per sample (id, verdict, first difference)",
        "and the summary. Exit status 0 when every sample matches or is covered by a row, 1 otherwise (or when a row",
        "is stale), 2 with `NOT RUN` when Adobe's pages are missing. `--only 'profiles-code#*'` replays some samples,",
        "`--verbose` prints every difference, `python3 scripts/restv2-docs.py --list` lists the extracted pairs",
        "without a server. A sample marked `UNSUPPORTED` gets its set-up (a recipe in `scripts/restv2-docs.py`) when",
        "the mock gains the feature it names.",
        "",
        "Bad input: `make rest-v2-hostile` (`scripts/restv2-docs.sh PASSIM --hostile`) replays every sample",
        "documented as a success after its set-up with one thing made wrong at a time: each of `Authorization`,",
        "`AP-Device-Identifier`, `X-Device-Info`, `AP-TempPass-Identity`, `AP-Partner-Framework-Status`,",
        "`AD-Service-Token` and `Adobe-Subject-Token` it sends, and each form, JSON or query field, missing, empty or",
        "oversized (12 KiB for a header or query value: over the API's 8 KiB, under the 16 KB request head; 64 KiB",
        "for a body field), a Base64 header not Base64 or Base64 of something that is not a JSON object, a JSON",
        "field of the wrong type, a JSON body that is not an object or not JSON. Each answer must be a refusal",
        "carrying an enhanced error code with the status [WIRE.md's table](WIRE.md#enhanced-error-codes) gives",
        "it (DCR: an `error` its page lists, with its page's status) or a refusal inside the decisions; never a",
        "5xx without a code, a reset or a server that stops serving (a health request follows each mutant). A",
        "refusal must leave what the API shows as it was: the device's profiles (no TempPass started, no resource",
        "used, no profile made or ended), the set-up's session, any code, client or token it hands out. A success",
        "is acceptable only where an entry of the tool's allow-list (`ALLOWED`) says why Adobe's pages let the",
        "request go without that header or field (an entry calling a header optional is checked against the",
        "page's Request table). It prints a line per mutant (sample, mutation, status, code, verdict), then the",
        "unacceptable ones; exit status 0 when every answer is acceptable, 1 otherwise, 2 (`NOT RUN`) without",
        "Adobe's pages. Its results are not part of this page.",
        "",
        "Every request/response pair of the `## Samples` sections of Adobe's REST API v2 and DCR API pages",
        f"(AdobeDocs/pass.en at {docs_commit}, MIT) is replayed against `passim serve` and its answer compared with the",
        "documented response. Adobe's pages are not part of this repository: the tool reads them from",
        "`$PASSIM_ADOBE_DOCS_DIR`, else from `shared/reference/adobe-pass-en` beside the clone (as CI lays it out), and",
        "says `NOT RUN` (exit 2) without them. No text of theirs is copied here: each sample is named by its page",
        "and place (`profiles-mvpd#4.2`: the fourth sample of the profile-for-MVPD page, its second response",
        "tab) and described in passim's own words.",
        "",
        "How a sample is replayed: the world [Fixtures/clients/restv2/docs-world.scenario](../Fixtures/clients/restv2/docs-world.scenario)",
        "with the sample's own conditions added is loaded through the admin endpoint (a fresh mock per sample), the",
        "set-up the example assumes is made (a DCR client, a session, a login walked through the user agent's HTML",
        "forms, a TempPass used, the clock moved), and the sample's request is sent through the proxy on Adobe's",
        "host names: its method, path, headers and body, with only what cannot be replayed literally substituted",
        "(tokens, the session code, SAML responses, the pages' `${degradedMvpd}`), each substitution listed.",
        "",
        "How it is compared: the status, the key set and nesting, the type of every value (a documented `null`",
        "says nothing of a type and matches any), the values of enumerations (`actionName`, `actionType`,",
        "`reasonType`, `type`, `source`, `code` of an error, `action`, `status`, `authorized`, `state`,",
        "`token_type`, `error`, `isTempPass`, `missingParameters`, `grant_types`, `scopes`, `issuer` when it is",
        "`Adobe`, `Apple` or the profile's own MVPD) and echoes (`mvpd`, `serviceProvider`, `resource`), URLs by",
        "path and query parameter names; never timestamps, tokens, codes, ids, hosts, messages. Values under",
        "`device` are the set-up's, not compared. Arrays of objects with an `id` or `resource` are matched by it.",
        "",
        "A difference is excused only by a row of [WIRE.md, \"Where Adobe's pages disagree with themselves\"]"
        "(WIRE.md#where-adobes-pages-disagree-with-themselves)",
        "(`MATCH (row Dn)`): a place where Adobe's own sources contradict each other, never the mock's choice alone.",
        "A row that covers nothing fails the run. `UNSUPPORTED` names the feature the mock lacks for the set-up.",
        "",
        f"**{summary(results)}.**",
        "",
    ]
    by_page = {}
    for r in results:
        by_page.setdefault(r.sample.page.short, []).append(r)
    for page in pages:
        rs = by_page.get(page.short)
        if not rs:
            continue
        out += [f"## {page.short}", "", f"`{page.rel}`" + (f" (`{page.method} {page.template}`)" if page.template else ""), ""]
        for r in rs:
            s = r.sample
            out.append(f"### {s.id}: {r.verdict}")
            out.append("")
            tab = f", response tab {s.pair} of {s.pairs}" if s.pairs > 1 else ""
            out.append(f"Sample {s.ordinal} of the page{tab}, documented {s.response.status}."
                       + (f" Set-up: {r.about}." if r.about and not r.unsupported else ""))
            if r.unsupported:
                out.append(f"Needs {r.unsupported}.")
            if r.steps:
                out.append("Steps: " + "; ".join(r.steps) + ".")
            if r.subs:
                out.append("Substituted: " + "; ".join(r.subs) + ".")
            if r.notes:
                out.append("Notes: " + "; ".join(r.notes) + ".")
            if r.differences:
                out.append("")
                for text, row in r.differences:
                    out.append(f"- {text}" + (f" (row {row.id})" if row else ""))
            out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def docs_commit(docs):
    readme = os.path.join(docs, "README.md")
    try:
        with open(readme, encoding="utf-8") as f:
            m = re.search(r"\b([0-9a-f]{40})\b", f.read())
            return m.group(1)[:7] if m else "an unknown commit"
    except OSError:
        return "an unknown commit"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--docs", default=default_docs_dir())
    parser.add_argument("--proxy")
    parser.add_argument("--ca")
    parser.add_argument("--admin")
    parser.add_argument("--admin-token")
    parser.add_argument("--world", default=WORLD)
    parser.add_argument("--rows", default=WIRE)
    parser.add_argument("--write", action="store_true", help="write docs/REST-V2-DOCS.md")
    parser.add_argument("--only", help="a glob over sample ids (no stale-row check, no --write)")
    parser.add_argument("--list", action="store_true", help="list the extracted pairs and exit")
    parser.add_argument("--verbose", action="store_true", help="every difference of every sample")
    parser.add_argument("--hostile", action="store_true",
                        help="every documented success replayed with one header or field made wrong at a time")
    args = parser.parse_args(argv)

    try:
        if not os.path.isdir(args.docs):
            raise NotRun(f"Adobe's pages are not at {args.docs}")
        pages = find_pages(args.docs)
    except NotRun as error:
        print(f"{TOOL}: NOT RUN: {error} (set PASSIM_ADOBE_DOCS_DIR to a folder holding rest-apis/ of"
              f" AdobeDocs/pass.en's integration guide)", file=sys.stderr)
        return 2
    samples = [s for p in pages for s in p.samples]
    if args.list:
        for s in samples:
            repairs = "; ".join(r.text for r in s.response.repairs)
            print(f"{s.id:<24} {s.request.method} {s.request.target[:60]:<60} -> {s.response.status}"
                  + (f"  [{repairs}]" if repairs else ""))
        print(f"{len(samples)} documented responses on {len(pages)} pages")
        return 0
    for need in ("proxy", "ca", "admin", "admin_token"):
        if not getattr(args, need):
            parser.error(f"--{need.replace('_', '-')} is required (or --list)")
    try:
        rows = read_rows(args.rows)
    except (OSError, ValueError) as error:
        print(f"{TOOL}: {error}", file=sys.stderr)
        return 2
    with open(args.world, encoding="utf-8") as f:
        world = f.read()
    server = Server(args.proxy, args.ca, args.admin, args.admin_token)
    if args.hostile:
        if args.write:
            parser.error("--write does not go with --hostile")
        return run_hostile(args, pages, world, server, xdi_required(args.docs))
    run = Run(pages, rows, world, server, xdi_required(args.docs))
    chosen = [s for s in samples if not args.only or glob_match(args.only, s.id)]
    started = time.time()
    results = []
    try:
        for s in chosen:
            results.append(run.replay(s))
    except (RuntimeError, OSError, ValueError, http.client.HTTPException) as error:
        print(f"{TOOL}: the server could not be driven: {error}", file=sys.stderr)
        return 2
    print(table(results))
    if args.verbose:
        for r in results:
            for text, row in r.differences:
                print(f"  {r.sample.id}: {text}" + (f" (row {row.id})" if row else ""))
    status = 0 if all(r.verdict.startswith("MATCH") for r in results) else 1
    if not args.only:
        for row in stale_rows(rows):
            print(f"{TOOL}: row {row.id} (docs/WIRE.md line {row.line}) covers no difference: a stale row;"
                  f" remove it or correct its samples/difference patterns", file=sys.stderr)
            status = 1
    print(f"{TOOL}: {summary(results)} ({len(samples)} extracted, {server.requests} requests,"
          f" {time.time() - started:.1f} s)")
    if args.write and not args.only:
        with open(DOC, "w", encoding="utf-8") as f:
            f.write(markdown(results, pages, docs_commit(args.docs)))
        print(f"{TOOL}: wrote {os.path.relpath(DOC, ROOT)}")
    return status


if __name__ == "__main__":
    sys.exit(main())
