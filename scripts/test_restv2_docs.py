"""Tests of scripts/restv2-docs.py (`make rest-v2-docs` runs them first), on snippets written here, never
Adobe's text: the extractor (ids, pairs, request and response parts, the repairs of JSON that does not
parse, the page's path and required headers), the path repairs, the comparer (a status, a missing and an
extra key, an enumeration, a type, an echo, a URL, keyed arrays, an error for a success), the rows of
docs/WIRE.md (one covering a difference, a stale one) and the verdicts, so that the tool cannot pass for
want of looking. The real table of docs/WIRE.md must parse too."""
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


if __name__ == "__main__":
    unittest.main()
