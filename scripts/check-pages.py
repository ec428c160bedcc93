#!/usr/bin/env python3
"""passim's pages in a real browser: headless Chromium (the system's, driven by Playwright) opens each
page from disk and the page must load with no console error and no uncaught exception, make no request
but to its own file or a data: URL (any other is recorded, then refused, so nothing leaves the
machine), and show what it is for:

  --run FILE         a `passim run --report-html` page: one row per scenario (--scenarios N), the
                     failing ones (--failed N) each with its diff table, its first difference marked,
                     and an open sequence diagram; every scenario that ran a diagram with App and Engine.
  --svg FILE...      sequence diagrams of `passim doc`: an <svg> with --participants' labels, every
                     text inside the picture (the layout's estimated widths hold in a real font).
  --lint FILE        a `passim lint --format html` report card: its counts, a row per rule, findings.
  --self-test        first, a page that breaks each rule must fail each check (the checks can fail).

Usage: scripts/check-pages.py --chromium /usr/bin/chromium [--self-test] [--run FILE --scenarios N
       --failed N] [--svg FILE... --participants A,B] [--lint FILE]
Exit status: 0 every page passed, 1 a page failed (each problem on a line), 2 bad usage.
"""

import argparse
import pathlib
import sys
import tempfile

from playwright.sync_api import sync_playwright


class Page:
    """One page opened in a fresh context, with what it logged and asked for."""

    def __init__(self, browser, path, settle=200):
        self.problems = []
        self.context = browser.new_context(java_script_enabled=True)
        self.page = self.context.new_page()
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.problems.append(f"uncaught exception: {error}"))
        # Every request goes through here: the page's own file and data: URLs load, anything else is
        # a problem, refused before it leaves.
        self.context.route("**/*", self._route)
        self.open(path, settle)

    def open(self, path, settle=200):
        """Loads `path` in this page (the checks of the one before must be read first)."""
        self.path = pathlib.Path(path).resolve()
        self.url = self.path.as_uri()
        self.page.goto(self.url, wait_until="load")
        # Late requests (lazy images, fonts) start after load: give them a moment to show.
        if settle:
            self.page.wait_for_timeout(settle)

    def _console(self, message):
        if message.type in ("error", "assert"):
            self.problems.append(f"console {message.type}: {message.text}")

    def _route(self, route):
        url = route.request.url
        if url.split("#")[0] == self.url or url.startswith("data:"):
            route.continue_()
        else:
            self.problems.append(f"request leaving the page: {url}")
            route.abort()

    def expect(self, condition, what):
        if not condition:
            self.problems.append(what)

    def count(self, selector):
        return self.page.locator(selector).count()

    def overflowing_texts(self, scope="svg"):
        """Texts of the <svg> elements under `scope` that stick out of their picture (rendered ones only)."""
        return self.page.evaluate(
            """scope => {
                const out = [];
                for (const svg of document.querySelectorAll(scope)) {
                    const box = svg.getBoundingClientRect();
                    if (box.width === 0) continue;  // not rendered (a closed <details>)
                    for (const t of svg.querySelectorAll('text')) {
                        const r = t.getBoundingClientRect();
                        if (r.left < box.left - 1 || r.right > box.right + 1)
                            out.push(t.textContent);
                    }
                }
                return out;
            }""",
            scope,
        )

    def close(self):
        self.context.close()


def check_run(browser, path, scenarios, failed):
    p = Page(browser, path)
    rows = p.count("#results tbody tr.scenario")
    p.expect(rows == scenarios, f"{rows} scenario rows, expected {scenarios}")
    statuses = p.page.locator("#results tbody tr.scenario td.status").all_inner_texts()
    known = {"passed", "failed", "unimplemented", "expected failure", "unexpected pass", "unusable", "skipped", "not run"}
    p.expect(all(s in known for s in statuses), f"unknown statuses: {sorted(set(statuses) - known)}")
    failing = p.count("#results tbody tr.scenario.failed")
    p.expect(failing == failed, f"{failing} failed rows, expected {failed}")
    p.expect(p.page.locator("#summary").is_visible(), "no visible #summary")
    p.expect(p.count("#wall-time-note") == 1, "no note saying the durations are wall time")
    sections = p.page.locator("section.detail.failed")
    p.expect(sections.count() == failed, f"{sections.count()} failure sections, expected {failed}")
    for i in range(sections.count()):
        s = sections.nth(i)
        title = s.locator("h3").inner_text()
        p.expect(s.locator("table.diff").is_visible(), f"{title}: no visible diff table")
        first = s.locator("table.diff tr.first")
        p.expect(first.count() == 1 and first.is_visible(), f"{title}: the first difference is not marked")
        p.expect(s.locator("details.diagram[open] svg").is_visible(), f"{title}: no open sequence diagram")
    diagrams = p.count("section.detail svg")
    ran = p.count("section.detail")
    p.expect(diagrams == ran and ran > 0, f"{diagrams} diagrams for {ran} scenarios that ran")
    labels = set(p.page.locator("section.detail svg text").all_text_contents())
    p.expect({"App", "Engine"} <= labels, "the diagrams have no App and Engine participants")
    for text in p.overflowing_texts("section.detail svg"):
        p.problems.append(f"diagram text outside its picture: {text!r}")
    p.close()
    return p.problems, f"{rows} rows, {failing} failed with their diffs, {diagrams} diagrams"


def check_svg(browser, paths, participants):
    # One page for all of them (a context per file costs more than the checks): an SVG document's
    # requests would all be made before its load event.
    problems = []
    p = None
    for path in paths:
        if p is None:
            p = Page(browser, path, settle=0)
        else:
            p.open(path, settle=0)
        # One round trip for all of a diagram's facts.
        facts = p.page.evaluate(
            """() => {
                const root = document.documentElement, box = root.getBoundingClientRect();
                const texts = [...document.querySelectorAll('text')];
                return {
                    root: root.localName,
                    texts: texts.map(t => t.textContent),
                    paths: document.querySelectorAll('path').length,
                    overflow: texts.filter(t => {
                        const r = t.getBoundingClientRect();
                        return r.left < box.left - 1 || r.right > box.right + 1;
                    }).map(t => t.textContent),
                };
            }"""
        )
        p.expect(facts["root"] == "svg", "not an SVG document")
        missing = [name for name in participants if name not in facts["texts"]]
        p.expect(not missing, f"participants missing: {missing}")
        p.expect(facts["paths"] > 0, "no lines drawn")
        for text in facts["overflow"]:
            p.problems.append(f"text outside the picture: {text!r}")
        problems += [f"{path}: {x}" for x in p.problems]
        p.problems = []
    if p is not None:
        p.close()
    return problems, f"{len(paths)} diagrams"


def check_lint(browser, path):
    p = Page(browser, path)
    p.expect(p.page.locator("#counts").is_visible(), "no visible #counts")
    rules = p.count("#rules tr") - 1
    p.expect(rules > 10, f"{rules} rule rows")
    findings = p.count("#findings > li")
    p.expect(findings > 0, "no findings (the journal breaks rules)")
    p.close()
    return p.problems, f"{rules} rules, {findings} findings"


def self_test(browser):
    """A page that loads a remote image, logs an error and throws must fail each check; a clean page passes."""
    with tempfile.TemporaryDirectory() as tmp:
        bad = pathlib.Path(tmp, "bad.html")
        bad.write_text(
            "<!DOCTYPE html><title>bad</title><img src='https://example.invalid/x.png'>"
            "<script>console.error('boom'); throw new Error('thrown')</script>\n"
        )
        p = Page(browser, bad)
        p.close()
        text = "\n".join(p.problems)
        missing = [w for w in ("request leaving the page: https://example.invalid", "console error", "uncaught") if w not in text]
        good = pathlib.Path(tmp, "good.html")
        good.write_text("<!DOCTYPE html><title>good</title><p>ok</p>\n")
        clean = Page(browser, good)
        clean.close()
        return (
            [f"self-test: a bad page was not flagged for {w!r}" for w in missing]
            + [f"self-test: a clean page was flagged: {x}" for x in clean.problems]
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chromium", required=True)
    parser.add_argument("--self-test", action="store_true")
    parser.add_argument("--run")
    parser.add_argument("--scenarios", type=int)
    parser.add_argument("--failed", type=int, default=0)
    parser.add_argument("--svg", nargs="*", default=[])
    parser.add_argument("--participants", default="App,Engine")
    parser.add_argument("--lint")
    args = parser.parse_args()
    if args.run and args.scenarios is None:
        parser.error("--run needs --scenarios N")
    failures = 0
    with sync_playwright() as pw:
        # --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
        browser = pw.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
        checks = []
        if args.self_test:
            checks.append(("self-test", lambda: (self_test(browser), "a bad page fails each check, a clean one passes")))
        if args.run:
            checks.append((args.run, lambda: check_run(browser, args.run, args.scenarios, args.failed)))
        if args.svg:
            names = [n for n in args.participants.split(",") if n]
            checks.append((f"{len(args.svg)} SVG diagrams", lambda: check_svg(browser, args.svg, names)))
        if args.lint:
            checks.append((args.lint, lambda: check_lint(browser, args.lint)))
        for name, check in checks:
            problems, summary = check()
            if problems:
                failures += 1
                print(f"check-pages: {name}: FAILED")
                for problem in problems:
                    print(f"  {problem}")
            elif name == "self-test":
                print(f"check-pages: {name}: ok ({summary})")
            else:
                print(f"check-pages: {name}: ok ({summary}; no console error, no request leaving the page)")
        browser.close()
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
