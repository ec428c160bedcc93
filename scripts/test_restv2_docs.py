"""Tests of scripts/restv2-docs.py (`make rest-v2-docs` and `make rest-v2-hostile` run them first), on
snippets written here, never Adobe's text: the extractor (ids, pairs, request and response parts, the repairs
of JSON that does not parse, the page's path and required headers), the path repairs, the comparer (a status,
a missing and an extra key, an enumeration, a type, an echo, a URL, keyed arrays, an error for a success), the
rows of docs/WIRE.md (one covering a difference, a stale one) and the verdicts, so that the tool cannot pass
for want of looking; and --hostile's mutation generator (each mutant wrong in one thing only) and its verdicts
(codes against WIRE.md's table, DCR's errors, refusals inside decisions, the allow-list and its conditions, a
refusal that stored something). The real table of docs/WIRE.md must parse too."""
import importlib.util
import io
import os
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("restv2_docs", os.path.join(HERE, "restv2-docs.py"))
docs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(docs)

FENCE = "```"

PAGE = f"""---
title: Fetch widgets
---
# Fetch widgets

## Request

<table>
   <tr><th>HTTP</th><th></th><th></th></tr>
   <tr><td>path</td><td>/api/v2/{{serviceProvider}}/widgets/{{code}}</td><td></td></tr>
   <tr><td>method</td><td>POST</td><td></td></tr>
   <tr><th>Headers</th><th></th><th></th></tr>
   <tr><td>Authorization</td><td>A token.</td><td><i>required</i></td></tr>
   <tr><td>X-Widget</td><td>Optional.</td><td>optional</td></tr>
</table>

## Response

Nothing here.

## Samples

### 1. Two answers

>[!BEGINTABS]

>[!TAB Request]

{FENCE}HTTPS
POST /api/v2/widgets/W1/ABC123 HTTP/1.1

    Authorization: Bearer abc
    Content-Type: application/x-www-form-urlencoded

Body:

color=red&size=2
{FENCE}

>[!TAB Response - Found]

{FENCE}HTTPS
HTTP/1.1 200 OK

Content-Type: application/json

{{
    "kind": "round"
    "size": 2
}}
{FENCE}

>[!TAB Response - Gone]

{FENCE}HTTPS
HTTP/1.1 410 Gone

{{ "error": "gone", }}
{FENCE}

>[!ENDTABS]

### A sample without a number

>[!BEGINTABS]

>[!TAB Request]

{FENCE}HTTPS
GET /api/v2/W1/widgets/ABC123 HTTP/1.1

    Authorization: Bearer abc
{FENCE}

>[!TAB Response]

{FENCE}HTTPS
HTTP/1.1 302 Found

Location :  https://example.test/next?a=1&b=2
{FENCE}

>[!ENDTABS]
"""

ROWS = """# Wire

### Where Adobe's pages disagree with themselves

Some words.

| id | one source says | the other says | mock | why | samples | difference |
| --- | --- | --- | --- | --- | --- | --- |
| D1 | a | b | c | d | `widgets#1.*` | `missing key size` |
| D2 | a | b | c | d | `widgets#2`, `other#*` | `value of list: documented ["a"], got ["b"]` |

### Next section
"""


class Response:
    """A documented response as the comparer reads it."""

    def __init__(self, status, body=None, headers=(), text=None):
        self.status, self.body, self.headers = status, body, list(headers)
        self.body_text = text if text is not None else ("" if body is None else "json")

    def header(self, name):
        return next((v for n, v in self.headers if n.lower() == name.lower()), None)


def compare(documented, status, body, headers=None, codes=()):
    return docs.compare_response(documented, status, headers or {"content-type": "application/json"}, body,
                                 None, dict(docs.PLACEHOLDERS), set(codes))


class ExtractorTests(unittest.TestCase):
    def page(self, text=PAGE):
        folder = tempfile.mkdtemp()
        path = os.path.join(folder, "widgets.md")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return docs.extract_page("widgets", path, "widgets.md")

    def test_ids_pairs_and_numbers(self):
        page = self.page()
        self.assertEqual([s.id for s in page.samples], ["widgets#1.1", "widgets#1.2", "widgets#2"])
        self.assertEqual([s.tab for s in page.samples], ["Found", "Gone", ""])
        self.assertEqual([s.number for s in page.samples], [1, 1, None])
        self.assertTrue(all(s.request is page.samples[0].request for s in page.samples[:2]))

    def test_the_request_parts(self):
        req = self.page().samples[0].request
        self.assertEqual((req.method, req.target), ("POST", "/api/v2/widgets/W1/ABC123"))
        self.assertEqual(req.header("authorization"), "Bearer abc")
        self.assertEqual(req.body, "color=red&size=2")
        self.assertEqual(self.page().samples[2].request.body, "")

    def test_the_request_table(self):
        page = self.page()
        self.assertEqual(page.template, "/api/v2/{serviceProvider}/widgets/{code}")
        self.assertEqual(page.method, "POST")
        self.assertEqual(page.required_headers, ["Authorization"])

    def test_responses_are_read_as_meant_and_each_repair_named(self):
        found, gone, moved = (s.response for s in self.page().samples)
        self.assertEqual(found.status, 200)
        self.assertEqual(found.body, {"kind": "round", "size": 2})
        self.assertEqual(len(found.repairs), 1)
        self.assertIn("a missing ','", found.repairs[0].text)
        self.assertIn("page line", found.repairs[0].text)
        self.assertEqual(gone.body, {"error": "gone"})
        self.assertIn("a trailing ','", gone.repairs[0].text)
        self.assertEqual(moved.header("Location"), "https://example.test/next?a=1&b=2")
        self.assertIn("space before its colon", moved.repairs[0].text)

    def test_lenient_json_repairs(self):
        value, repairs = docs.lenient_json('{\n  "m": "say "hi" now",\n  "n": 1\n}', 10)
        self.assertEqual(value, {"m": 'say "hi" now', "n": 1})
        self.assertIn("unescaped quotes", repairs[0].text)
        value, repairs = docs.lenient_json('{\n "a":\n   "b": {\n "c": 1\n }\n }\n}', 1)
        self.assertEqual(value, {"a": {"b": {"c": 1}}})
        self.assertIn("a missing '{'", repairs[0].text)
        value, repairs = docs.lenient_json('[\n {"r": 1}\n {"r": 2}\n]', 1)
        self.assertEqual(value, [{"r": 1}, {"r": 2}])
        value, repairs = docs.lenient_json('{"a": 1}', 1)
        self.assertEqual((value, repairs), ({"a": 1}, []))
        value, repairs = docs.lenient_json("{nonsense", 1)
        self.assertIsNone(value)
        self.assertIn("cannot be read", repairs[-1].text)

    def test_a_page_without_samples_has_none(self):
        self.assertEqual(self.page("# Overview\n\nNo samples.\n").samples, [])

    def test_missing_pages_are_not_run(self):
        err = io.StringIO()
        with redirect_stderr(err), redirect_stdout(io.StringIO()):
            status = docs.main(["--docs", os.path.join(tempfile.mkdtemp(), "absent"), "--list"])
        self.assertEqual(status, 2)
        self.assertIn("NOT RUN", err.getvalue())
        with self.assertRaises(docs.NotRun):
            docs.find_pages(tempfile.mkdtemp())


class PathTests(unittest.TestCase):
    T = "/api/v2/{serviceProvider}/widgets/{code}"

    def test_a_path_that_fits_is_sent_as_is(self):
        self.assertEqual(docs.repaired_path(self.T, "/api/v2/W1/widgets/ABC"),
                         ("/api/v2/W1/widgets/ABC", {"serviceProvider": "W1", "code": "ABC"}, None))

    def test_a_trailing_slash_is_dropped_and_named(self):
        path, _, repair = docs.repaired_path(self.T, "/api/v2/W1/widgets/ABC/")
        self.assertEqual(path, "/api/v2/W1/widgets/ABC")
        self.assertIn("ends with a slash", repair)

    def test_swapped_segments_take_the_templates_order(self):
        path, params, repair = docs.repaired_path(self.T, "/api/v2/widgets/W1/ABC")
        self.assertEqual(path, "/api/v2/W1/widgets/ABC")
        self.assertEqual(params["serviceProvider"], "W1")
        self.assertIn("another order", repair)
        self.assertIn("{code}", repair)

    def test_a_path_that_cannot_fit_says_so(self):
        self.assertIn("does not fit", docs.repaired_path(self.T, "/elsewhere")[2])


class ComparerTests(unittest.TestCase):
    def test_identical_answers_have_no_difference(self):
        doc = Response(200, {"actionName": "authorize", "notAfter": 1, "code": "XYZ", "token": "t"})
        self.assertEqual(compare(doc, 200, {"actionName": "authorize", "notAfter": 99, "code": "QQQ", "token": "u"}), [])

    def test_a_status_difference(self):
        self.assertEqual(compare(Response(201, {}), 200, {}), ["status: documented 201, got 200"])

    def test_missing_and_extra_keys_with_their_path(self):
        doc = Response(200, {"profiles": {"X": {"attributes": {}, "type": "regular"}}})
        got = {"profiles": {"X": {"type": "regular", "extra": 1}}}
        self.assertEqual(compare(doc, 200, got), ["missing key profiles.X.attributes", "extra key profiles.X.extra"])

    def test_an_enum_difference(self):
        doc = Response(200, {"decisions": [{"resource": "r", "source": "temppass", "authorized": True}]})
        got = {"decisions": [{"resource": "r", "source": "mvpd", "authorized": True}]}
        self.assertEqual(compare(doc, 200, got), ["value of decisions.0.source: documented temppass, got mvpd"])

    def test_a_type_difference(self):
        self.assertEqual(compare(Response(200, {"notAfter": 1}), 200, {"notAfter": "1"}),
                         ["type of notAfter: documented number, got string"])
        self.assertEqual(compare(Response(200, {"ok": True}), 200, {"ok": 1}),
                         ["type of ok: documented bool, got number"])

    def test_a_documented_null_matches_any_type_but_not_the_other_way(self):
        self.assertEqual(compare(Response(200, {"model": None}), 200, {"model": "x"}), [])
        self.assertEqual(compare(Response(200, {"model": "x"}), 200, {"model": None}),
                         ["type of model: documented string, got null"])

    def test_literal_values_are_not_compared_but_echoes_and_error_codes_are(self):
        doc = Response(200, {"sessionId": "a", "code": "ABC", "mvpd": "Cable"})
        self.assertEqual(compare(doc, 200, {"sessionId": "b", "code": "DEF", "mvpd": "Other"}),
                         ["value of mvpd: documented Cable, got Other"])
        item = {"resource": "r", "error": {"status": 403, "code": "too_many", "action": "none"}}
        got = {"resource": "r", "error": {"status": 403, "code": "other", "action": "none"}}
        self.assertEqual(compare(Response(200, {"decisions": [item]}), 200, {"decisions": [got]}),
                         ["value of decisions.0.error.code: documented too_many, got other"])

    def test_placeholders_are_the_worlds_names(self):
        doc = Response(200, {"logouts": {"${degradedMvpd}": {"mvpd": "${degradedMvpd}"}}})
        self.assertEqual(compare(doc, 200, {"logouts": {"ATTOTT": {"mvpd": "ATTOTT"}}}), [])

    def test_urls_by_path_and_query_names_never_host_or_code(self):
        doc = Response(200, {"url": "https://a.test/api/v2/x/ABC?noflash=true&mso_id=M"})
        self.assertEqual(compare(doc, 200, {"url": "/api/v2/x/QQQ?mso_id=M&noflash=false"}, codes={"ABC"}), [])
        self.assertEqual(compare(doc, 200, {"url": "/api/v2/y/QQQ?mso_id=M&v=1"}, codes={"ABC"}),
                         ["path of url: documented /api/v2/x/ABC, got /api/v2/y/QQQ",
                          "query of url: missing noflash; extra v"])

    def test_a_location_header(self):
        doc = Response(302, headers=[("Location", "https://h.test/p?a=1")], text="")
        self.assertEqual(compare(doc, 302, None, headers={"location": "http://x/p?a=2"}), [])
        self.assertEqual(compare(doc, 302, None, headers={}), ["missing header Location"])

    def test_arrays_of_objects_by_key_and_the_same_difference_grouped(self):
        doc = Response(200, {"list": [{"id": "a", "k": 1}, {"id": "b", "k": 1}, {"id": "c", "k": 1}]})
        got = {"list": [{"id": "b", "k": 1, "x": 0}, {"id": "a", "k": 1, "x": 0}, {"id": "d", "k": 1}]}
        self.assertEqual(compare(doc, 200, got), ["extra key list.*.x (elements 0, 1)", "value of list.2.id: documented c, got d"])
        got = {"list": [{"id": "a", "k": 1}]}
        self.assertEqual(compare(doc, 200, got), ["missing element list.1 (id b)", "missing element list.2 (id c)"])

    def test_an_error_where_a_success_was_documented_is_one_line(self):
        doc = Response(200, {"decisions": []})
        self.assertEqual(compare(doc, 500, {"status": 500, "code": "boom", "action": "none"}),
                         ["status: documented 200, got 500", "body: documented {\"decisions\":[]}, got the error boom (500)"])

    def test_another_error_is_one_line_the_same_error_is_compared_field_by_field(self):
        doc = Response(403, {"status": 403, "code": "expired", "action": "authentication"})
        self.assertEqual(compare(doc, 400, {"status": 400, "code": "unknown", "action": "none", "trace": "t"}),
                         ["status: documented 403, got 400", "body: documented the error expired (403), got the error unknown (400)"])
        self.assertEqual(compare(doc, 403, {"status": 403, "code": "expired", "action": "none", "trace": "t"}),
                         ["extra key trace", "value of action: documented authentication, got none"])

    def test_an_answer_that_is_not_json(self):
        doc = Response(200, {"a": 1}, headers=[("Content-Type", "application/json;charset=UTF-8")])
        self.assertEqual(compare(doc, 404, None, headers={"content-type": "text/plain"}),
                         ["status: documented 200, got 404", "Content-Type: documented application/json, got text/plain",
                          "body: documented JSON, got nothing"])


class RowTests(unittest.TestCase):
    def rows(self, text=ROWS):
        path = os.path.join(tempfile.mkdtemp(), "WIRE.md")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return docs.read_rows(path)

    def test_the_table_is_read(self):
        rows = self.rows()
        self.assertEqual([r.id for r in rows], ["D1", "D2"])
        self.assertEqual(rows[1].samples, ["widgets#2", "other#*"])

    def test_a_row_covers_only_its_samples_and_differences(self):
        rows = self.rows()
        judged = docs.judge("widgets#1.2", ["missing key size"], rows)
        self.assertEqual(docs.verdict_of(judged), "MATCH (row D1)")
        self.assertEqual(docs.verdict_of(docs.judge("widgets#2", ["missing key size"], rows)), "DIFF")
        self.assertEqual(docs.verdict_of(docs.judge("widgets#1.1", ["missing key color"], rows)), "DIFF")
        self.assertEqual(docs.verdict_of(docs.judge("widgets#1.1", [], rows)), "MATCH")
        self.assertEqual(docs.verdict_of([], unsupported="a feature"), "UNSUPPORTED")

    def test_brackets_and_quotes_in_a_difference_are_plain_text(self):
        rows = self.rows()
        judged = docs.judge("other#3", ['value of list: documented ["a"], got ["b"]'], rows)
        self.assertEqual(docs.verdict_of(judged), "MATCH (row D2)")
        self.assertEqual(docs.verdict_of(docs.judge("other#3", ['value of list: documented ["a"], got ["c"]'], rows)),
                         "DIFF")

    def test_a_row_that_covers_nothing_is_stale(self):
        rows = self.rows()
        docs.judge("widgets#1.1", ["missing key size"], rows)
        self.assertEqual([r.id for r in docs.stale_rows(rows)], ["D2"])

    def test_a_table_without_its_columns_or_rows_is_refused(self):
        with self.assertRaises(ValueError):
            self.rows("### Where Adobe's pages disagree with themselves\n\n| id | samples |\n| --- | --- |\n| D1 | `x` |\n")
        with self.assertRaises(ValueError):
            self.rows("# Nothing\n")

    def test_the_projects_table_parses(self):
        rows = docs.read_rows(docs.WIRE)
        self.assertTrue(rows)
        self.assertTrue(all(r.samples and r.differences for r in rows))


class DeviceInfoTests(unittest.TestCase):
    def test_the_repair_restores_json_and_adds_required_keys(self):
        run = docs.Run([], [], 'requestor R software-statement "S"\n', None, ["model", "version", "connectionType"])
        raw = docs.b64('{\n "model": "M"\n "osName": "tvOS"\n}')
        value, texts = run.xdi_repaired(raw)
        obj, _ = docs.b64json(value)
        self.assertEqual(obj["model"], "M")
        self.assertIn("version", obj)
        self.assertIn("connectionType", obj)
        self.assertEqual(len(texts), 2)
        self.assertIn("not valid JSON", texts[0])
        self.assertIn("lacks version, connectionType", texts[1])
        value, texts = run.xdi_repaired(docs.b64('{"model": "M", "version": "1", "connectionType": "LAN"}'))
        self.assertEqual(texts, [])
        self.assertEqual(run.statements, {"R": "S"})


class HostileMutationTests(unittest.TestCase):
    """--hostile's mutants: which requests parts are made wrong, and that each mutant changes one thing."""

    XDI = docs.b64('{"model": "M", "version": "1", "osName": "Linux", "osVersion": "1", "connectionType": "LAN"}')
    JWS = "eyJhbGciOiJSUzI1NiJ9." + docs._b64url('{"iss": "I", "sub": "S"}') + ".c2ln"

    def json_request(self):
        return docs.Req("POST", "https://sp.test/api/v2/W1/widgets?redirectUrl=https%3A%2F%2Fa.test&x=1", [
            ("Authorization", "Bearer tok"), ("AP-Device-Identifier", "fingerprint " + docs.b64("dev")),
            ("X-Device-Info", self.XDI), ("AD-Service-Token", self.JWS), ("Accept", "application/json"),
            ("Content-Type", "application/json"), ("User-Agent", "ua")], '{"resources": ["r1"], "note": "n"}')

    def form_request(self):
        return docs.Req("POST", "https://sp.test/api/v2/W1/things", [
            ("Authorization", "Bearer tok"), ("AP-TempPass-Identity", docs.b64('{"email": "e@x.test"}')),
            ("Content-Type", "application/x-www-form-urlencoded")], "mvpd=M&domainName=d.test")

    def test_each_api_header_each_field_and_the_body_and_nothing_else(self):
        got = docs.mutations(self.json_request())
        targets = list(dict.fromkeys(t for t, _ in got))
        self.assertEqual(targets, ["header Authorization", "header AP-Device-Identifier", "header X-Device-Info",
                                   "header AD-Service-Token", "json resources", "json note", "body",
                                   "query redirectUrl", "query x"])
        kinds = lambda target: [k for t, k in got if t == target]
        self.assertEqual(kinds("header Authorization"), ["missing", "empty", "oversized"])
        self.assertEqual(kinds("header AP-Device-Identifier"), ["missing", "empty", "oversized", "not-base64"])
        self.assertEqual(kinds("header X-Device-Info"), ["missing", "empty", "oversized", "not-base64",
                                                         "base64-not-json", "base64-not-object"])
        self.assertEqual(kinds("header AD-Service-Token"), ["missing", "empty", "oversized", "not-base64",
                                                            "base64-not-object"])
        self.assertEqual(kinds("json resources"), ["missing", "empty", "oversized", "number", "object", "string",
                                                   "element-number"])
        self.assertEqual(kinds("json note"), ["missing", "empty", "oversized", "number", "object"])
        self.assertEqual(kinds("body"), ["not-an-object", "not-json"])
        self.assertEqual(kinds("query x"), ["missing", "empty", "oversized"])
        form = docs.mutations(self.form_request())
        self.assertEqual([t for t, _ in form if t.startswith("form")],
                         ["form mvpd"] * 3 + ["form domainName"] * 3)
        self.assertIn(("header AP-TempPass-Identity", "base64-not-object"), form)
        self.assertNotIn("body", [t for t, _ in form])
        self.assertTrue({k for _, k in got + form} <= docs.KINDS)

    def test_each_mutant_changes_one_thing_only(self):
        for req in (self.json_request(), self.form_request()):
            for target, kind in docs.mutations(req):
                m = docs.mutate(req, target, kind)
                what, _, name = target.partition(" ")
                same = lambda hs: [(n, v) for n, v in hs if what != "header" or n.lower() != name.lower()]
                self.assertEqual(same(m.headers), same(req.headers), (target, kind))
                self.assertEqual(m.body == req.body, what in ("header", "query"), (target, kind))
                self.assertEqual(m.url == req.url, what != "query", (target, kind))
                self.assertEqual(m.method, req.method)

    def test_the_wrong_values(self):
        req = self.json_request()
        header = lambda target, kind: docs.mutate(req, target, kind).header(target.partition(" ")[2])
        self.assertIsNone(header("header X-Device-Info", "missing"))
        self.assertEqual(header("header X-Device-Info", "empty"), "")
        for target in ("header Authorization", "header AP-Device-Identifier", "header X-Device-Info",
                       "header AD-Service-Token"):
            self.assertTrue(8192 < len(header(target, "oversized")) < 16000, target)
        big, _ = docs.b64json(header("header X-Device-Info", "oversized"))
        self.assertEqual(big["model"], "M")  # the same object, padded: only its size is wrong
        self.assertIsNone(docs.b64json(header("header X-Device-Info", "not-base64"))[0])
        self.assertIsNone(docs.b64json(header("header X-Device-Info", "base64-not-json"))[0])
        self.assertIsInstance(docs.b64json(header("header X-Device-Info", "base64-not-object"))[0], list)
        self.assertTrue(header("header AP-Device-Identifier", "not-base64").startswith("fingerprint %"))
        payload = header("header AD-Service-Token", "base64-not-object").split(".")[1]
        self.assertIsInstance(docs.json.loads(docs.base64.urlsafe_b64decode(payload + "==")), list)
        body = lambda target, kind: docs.json.loads(docs.mutate(req, target, kind).body)
        self.assertEqual(body("json resources", "missing"), {"note": "n"})
        self.assertEqual(body("json resources", "empty")["resources"], [])
        self.assertEqual(len(body("json resources", "oversized")["resources"][0]), 65536)
        self.assertEqual(body("json resources", "number")["resources"], 42)
        self.assertEqual(body("json resources", "object")["resources"], {"value": ["r1"]})
        self.assertEqual(body("json resources", "string")["resources"], "r1")
        self.assertEqual(body("json resources", "element-number")["resources"], [42])
        self.assertEqual(body("json note", "empty")["note"], "")
        self.assertEqual(body("body", "not-an-object"), [{"resources": ["r1"], "note": "n"}])
        with self.assertRaises(ValueError):
            docs.json.loads(docs.mutate(req, "body", "not-json").body)
        query = lambda kind: dict(docs.mutate(req, "query redirectUrl", kind).query())
        self.assertNotIn("redirectUrl", query("missing"))
        self.assertEqual(query("empty")["redirectUrl"], "")
        self.assertEqual(len(query("oversized")["redirectUrl"]), 12 * 1024)
        form = lambda kind: dict(docs.mutate(self.form_request(), "form mvpd", kind).form())
        self.assertEqual(form("missing"), {"domainName": "d.test"})
        self.assertEqual(form("empty")["mvpd"], "")
        self.assertEqual(len(form("oversized")["mvpd"]), 65536)


class HostileVerdictTests(unittest.TestCase):
    """judge_mutant: what makes a mutant's answer acceptable."""

    CODES = {"invalid_header_device_info": 400, "invalid_access_token_client_application": 401,
             "temporary_access_duration_limit_exceeded": 403, "internal_server_error": 500}
    DCR = (400, {"invalid_request", "invalid_client"})

    def error(self, code, status):
        return {"status": status, "code": code, "action": "none", "message": "m"}

    def judge(self, page, status, body, target="header X-Device-Info", kind="empty", allowed=(), changed=(),
              reference=None):
        return docs.judge_mutant(page, target, kind, status, body, self.CODES, self.DCR, list(allowed), changed,
                                 reference)

    def test_a_refusal_with_the_tables_code_and_status(self):
        self.assertEqual(self.judge("profiles", 400, self.error("invalid_header_device_info", 400)), (True, "refused"))
        self.assertEqual(self.judge("profiles", 500, self.error("internal_server_error", 500)), (True, "refused"))

    def test_a_refusal_without_a_code_or_with_another_status_is_not(self):
        ok, why = self.judge("profiles", 500, None)
        self.assertFalse(ok)
        self.assertIn("a 500 without an enhanced error code", why)
        ok, why = self.judge("profiles", 400, {"error": "bad"})
        self.assertIn("without an enhanced error code", why)
        ok, why = self.judge("profiles", 403, self.error("invalid_header_device_info", 403))
        self.assertIn("WIRE.md says 400", why)
        ok, why = self.judge("profiles", 400, self.error("made_up", 400))
        self.assertIn("not in WIRE.md's table", why)
        ok, why = self.judge("profiles", 400, self.error("invalid_header_device_info", 401) | {"status": 401})
        self.assertFalse(ok)
        self.assertFalse(self.judge("profiles", 302, None)[0])

    def test_refusals_inside_decisions_only_on_the_decisions_pages(self):
        refused = {"decisions": [{"resource": "r", "authorized": False,
                                  "error": self.error("temporary_access_duration_limit_exceeded", 403)}]}
        self.assertEqual(self.judge("authorize", 200, refused), (True, "refused inside"))
        self.assertFalse(self.judge("profiles", 200, refused)[0])
        wrong = {"decisions": [{"resource": "r", "authorized": False,
                                "error": self.error("temporary_access_duration_limit_exceeded", 400)}]}
        self.assertIn("WIRE.md says 403", self.judge("authorize", 200, wrong)[1])
        mixed = {"decisions": refused["decisions"] + [{"resource": "s", "authorized": True}]}
        self.assertIn("taken", self.judge("preauthorize", 200, mixed)[1])

    def test_dcr_refusals_are_the_pages_oauth_errors(self):
        self.assertEqual(self.judge("dcr-token", 400, {"error": "invalid_client"}), (True, "refused"))
        self.assertIn("its page says 400", self.judge("dcr-token", 401, {"error": "invalid_client"})[1])
        self.assertIn("not one its page lists", self.judge("dcr-token", 400, {"error": "server_error"})[1])
        self.assertIn("without an OAuth error", self.judge("dcr-register", 400, self.error("x", 400))[1])

    def test_a_success_needs_an_allow_entry_for_that_page_target_and_kind(self):
        entry = docs.Allow("T1", {"profiles"}, {"header X-Device-Info"}, {"missing"}, "optional there")
        self.assertEqual(self.judge("profiles", 200, {}, kind="missing", allowed=[entry]), (True, "allowed (T1)"))
        self.assertEqual(entry.matched, 1)
        self.assertFalse(self.judge("profiles", 200, {}, kind="empty", allowed=[entry])[0])
        self.assertFalse(self.judge("logout", 200, {}, kind="missing", allowed=[entry])[0])
        self.assertFalse(self.judge("profiles", 200, {}, target="header Authorization", kind="missing",
                                    allowed=[entry])[0])

    def test_an_allow_entrys_condition_on_the_answer(self):
        listed = docs.Allow("T2", {"sessions-create"}, {"form mvpd"}, {"missing"}, "resumed later",
                            when=docs._lists_missing)
        args = dict(target="form mvpd", kind="missing", allowed=[listed])
        self.assertTrue(self.judge("sessions-create", 200, {"missingParameters": ["mvpd"]}, **args)[0])
        self.assertFalse(self.judge("sessions-create", 200, {"missingParameters": ["redirectUrl"]}, **args)[0])
        absent = docs.Allow("T3", {"profiles"}, {"header AD-Service-Token"}, {"not-base64"}, "ignored",
                            when=docs._as_if_absent)
        args = dict(target="header AD-Service-Token", kind="not-base64", allowed=[absent])
        own = {"profiles": {"A": {"type": "regular"}}}
        shared = {"profiles": {"A": {"type": "regular"}, "B": {"type": "regular"}}}
        self.assertTrue(self.judge("profiles", 200, own, reference=own, **args)[0])
        self.assertFalse(self.judge("profiles", 200, shared, reference=own, **args)[0])
        self.assertFalse(self.judge("profiles", 200, own, reference=None, **args)[0])
        authorized = docs._authorized_session
        self.assertTrue(authorized("form redirectUrl", {"actionName": "authorize", "reasonType": "temporary"}))
        self.assertFalse(authorized("form redirectUrl", {"actionName": "authenticate", "reasonType": "none"}))

    def test_a_refusal_that_stored_something_is_not_acceptable(self):
        ok, why = self.judge("logout", 400, self.error("invalid_header_device_info", 400),
                             changed=["the M profile ended"])
        self.assertFalse(ok)
        self.assertIn("refused but stored: the M profile ended", why)

    def test_state_changes_name_the_profile(self):
        before = {"profiles": {"A": {"t": 1}, "B": {"t": 1}}, "session": {"x": 1}}
        after = {"profiles": {"B": {"t": 2}, "C": {}}, "session": {"x": 1}}
        self.assertEqual(docs.state_changes(before, after),
                         ["the A profile ended", "the B profile changed", "a C profile appeared"])
        self.assertEqual(docs.state_changes(before, before), [])
        self.assertEqual(docs.state_changes({"session": 1}, {"session": 2}), ["session changed"])


class HostileSourcesTests(unittest.TestCase):
    """What --hostile reads: WIRE.md's code table, a DCR page's Error section, a Request table's marks."""

    def test_the_code_table(self):
        path = os.path.join(tempfile.mkdtemp(), "WIRE.md")
        with open(path, "w", encoding="utf-8") as f:
            f.write("### Enhanced error codes\n\nWords.\n\n| code | action | status | what |\n| --- | --- | --- | --- |\n"
                    "| `a_code` | none | 400 | x |\n| `b_code` | retry | 403 | y |\n\n## Next\n| `c_code` | none | 500 | z |\n")
        self.assertEqual(docs.read_error_codes(path), {"a_code": 400, "b_code": 403})
        with open(path, "w", encoding="utf-8") as f:
            f.write("# Nothing\n")
        with self.assertRaises(ValueError):
            docs.read_error_codes(path)
        real = docs.read_error_codes(docs.WIRE)
        self.assertEqual(real["invalid_header_device_info"], 400)
        self.assertEqual(real["internal_server_error"], 500)

    def test_a_dcr_error_section(self):
        text = ("## Response\n\n### Error\n\n<table><tr><td>Status</td>\n<td>400</td><td><i>required</i></td></tr>"
                "<tr><td>error</td><td><table><tr><td>bad_thing</td><td>Why.</td></tr>"
                "<tr><td>other_bad_thing</td></tr></table></td></tr></table>\n\n## Samples\n")
        self.assertEqual(docs.dcr_errors(text), (400, {"bad_thing", "other_bad_thing"}))
        self.assertEqual(docs.dcr_errors("## Request\n"), (None, set()))

    def test_request_table_marks_and_wrong_allowances(self):
        text = ("## Request\n<table><tr><th>Headers</th><th></th><th></th></tr>"
                "<tr><td>Authorization</td><td>A token.</td><td><i>required</i></td></tr>"
                "<tr><td>One-Token<br/>or<br/>Two-Token</td><td>SSO.</td><td>optional</td></tr></table>\n## Response\n")
        marks = docs.header_marks(text)
        self.assertEqual(marks, {"authorization": "required", "one-token": "optional", "two-token": "optional"})
        good = docs.Allow("T1", {"w"}, {"header One-Token", "header Two-Token"}, {"missing"}, "optional", optional=True)
        bad = docs.Allow("T2", {"w"}, {"header Authorization"}, {"missing"}, "not really", optional=True)
        unchecked = docs.Allow("T3", {"w"}, {"header Authorization"}, {"missing"}, "its page says so")
        self.assertEqual(docs.wrong_allowances([good, unchecked], {"w": marks}), [])
        self.assertEqual(len(docs.wrong_allowances([bad], {"w": marks})), 1)

    def test_the_allow_list_is_well_formed(self):
        ids = [a.id for a in docs.ALLOWED]
        self.assertEqual(len(ids), len(set(ids)))
        for a in docs.ALLOWED:
            self.assertTrue(a.kinds <= docs.KINDS, a.id)
            self.assertTrue(all(t.partition(" ")[0] in ("header", "form", "json", "query") for t in a.targets), a.id)
            self.assertTrue(a.why and a.pages, a.id)
            self.assertNotIn("body", a.targets)

    def test_only_documented_successes_with_a_set_up_are_mutated(self):
        folder = tempfile.mkdtemp()
        path = os.path.join(folder, "widgets.md")
        with open(path, "w", encoding="utf-8") as f:
            f.write(PAGE)
        page = docs.extract_page("widgets", path, "widgets.md")
        saved = dict(docs.RECIPES)
        try:
            for sid in ("widgets#1.1", "widgets#1.2"):
                docs.RECIPES[sid] = (lambda ctx: None, [], None, "")
            self.assertEqual([s.id for s in docs.success_samples([page])], ["widgets#1.1"])
            docs.RECIPES["widgets#2"] = (lambda ctx: None, [], None, "")
            self.assertEqual([s.id for s in docs.success_samples([page])], ["widgets#1.1", "widgets#2"])
            self.assertEqual([s.id for s in docs.success_samples([page], "widgets#2")], ["widgets#2"])
        finally:
            docs.RECIPES.clear()
            docs.RECIPES.update(saved)

    def test_hostile_without_the_pages_is_not_run(self):
        err = io.StringIO()
        with redirect_stderr(err), redirect_stdout(io.StringIO()):
            status = docs.main(["--docs", os.path.join(tempfile.mkdtemp(), "absent"), "--hostile", "--proxy", "p",
                                "--ca", "c", "--admin", "a", "--admin-token", "t"])
        self.assertEqual(status, 2)
        self.assertIn("NOT RUN", err.getvalue())


if __name__ == "__main__":
    unittest.main()
