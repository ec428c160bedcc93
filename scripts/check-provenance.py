#!/usr/bin/env python3
"""The provenance check, run by CI (`make provenance`).

Two rules, so that every behaviour the suite pins and every choice the project made can be traced to
its source:
- a scenario's leading comment (the first block of `#` lines, its description in the generated pages)
  cites the clause of docs/spec/BEHAVIOR.md it pins: `BEHAVIOR.md` followed by the name of one of its
  sections or named paragraphs, e.g. `(BEHAVIOR.md, Authentication 4)` or `(BEHAVIOR.md, "Cancel via nil")`;
  the names are read from BEHAVIOR.md itself;
- each numbered item of docs/CONFORMANCE.md's "Choices" cites the passage of Adobe's pages it rests on,
  as `api-reference #anchor` or `cookbook #anchor` (the page, and one of its headings' anchors; the
  pages and their URLs: docs/spec/README.md), or says "seeds silent".

Adobe's pages are not in the repository: their anchors are listed here. When PASSIM_PASS_EN names a
checkout of AdobeDocs/pass.en, the unittest compares the lists with the pages.

Usage: scripts/check-provenance.py [ROOT]   (ROOT: the package root, default: this script's parent)
Exit status: 0 clean, 1 a file or choice without provenance (each printed), 2 unusable input.
"""
import os
import re
import sys

# The heading anchors (`{#anchor}`) of Adobe's two iOS/tvOS pages, in AdobeDocs/pass.en under
# help/authentication/integration-guide-programmers/legacy/sdks/ios-tvos-sdk/.
API_ANCHORS = frozenset("""
    iostvos-sdk-api-reference intro apis initWithSoftwareStatement init setOptions setReqV3 setReq
    setReq_tvos setReqComplete checkAuthN getAuthN getAuthN_filter dispProvDialog setSelProv nav2url
    nav2urlSVC handleExternalURL getAuthNToken setAuthNStatus checkPreauth checkPreauthCache
    preauthResources checkAuthZ getAuthZ setToken tokenReqFailed logout getSelProv selProv getMeta
    presentTvDialog dismissTvDialog setMetaStatus mvpd tracking sendTracking
""".split())
COOKBOOK_ANCHORS = frozenset("""
    iostvos-sdk-cookbook intro visitorIDSetup entitlement prereqs startup_flow authn_flow_wo_applesso
    authn_flow_with_applesso authn_flow_with_applesso_tvOS authz_flow media_flow
    logout_flow_wo_AppleSSO logout_flow_with_AppleSSO related
""".split())
PAGES = {"api-reference": ("iostvos-sdk-api-reference.md", API_ANCHORS),
         "cookbook": ("iostvos-sdk-cookbook.md", COOKBOOK_ANCHORS)}


def clause_names(behavior_text):
    """BEHAVIOR.md's sections (`##`) and named paragraphs (the bold run that opens a line), without
    parenthesised tails, backticks or the closing full stop: the names a citation may start with."""
    names = []
    for line in behavior_text.splitlines():
        if line.startswith("## "):
            raw = line[3:]
        elif line.startswith("**"):
            raw = line[2:line.find("**", 2)] if line.find("**", 2) > 0 else ""
        else:
            continue
        name = re.sub(r"\*\*.*$", "", raw)
        name = name.split("(")[0].replace("`", "").strip().rstrip(".").strip()
        if name:
            names.append(name)
    return names


CITATION = re.compile(r"BEHAVIOR\.md[,:]?\s*[\"“]?([^\"”)]*)")
SEED = re.compile(r"(api-reference|cookbook) #([A-Za-z0-9_-]+)")
SILENT = re.compile(r"seeds\s+silent", re.IGNORECASE)
CHOICE = re.compile(r"^(\d+)\.\s")


def leading_comment(text):
    """The first block of comment lines, as the scenario parser reads the description."""
    block = []
    for line in text.lstrip("\ufeff").splitlines():
        stripped = line.strip()
        if stripped.startswith("#"):
            block.append(stripped[1:].strip())
        elif block or stripped:
            break
    return " ".join(block)


def names_clause(cited, name):
    """`Authentication 4` names `Authentication`; `Client registration:` names the section
    `Client registration and request signing` by its first words (two at least, whole words)."""
    cited, name = cited.lower(), name.lower()
    if cited.startswith(name):
        return True
    short = re.split(r"[:;,.]", cited)[0].strip()
    return len(short.split()) >= 2 and (name == short or name.startswith(short + " "))


def cites_clause(comment, clauses):
    for match in CITATION.finditer(comment):
        cited = match.group(1).replace("`", "").strip()
        if any(names_clause(cited, name) for name in clauses):
            return True
    return False


def choices(text):
    """(number, text) of each numbered item under `## Choices`, continuation lines joined."""
    items, inside = [], False
    for line in text.splitlines():
        if line.startswith("## "):
            inside = line.strip() == "## Choices"
            continue
        if not inside:
            continue
        start = CHOICE.match(line)
        if start:
            items.append([start.group(1), line])
        elif items and line.strip():
            items[-1][1] += " " + line.strip()
    return [(number, body) for number, body in items]


def seed_problem(body):
    """None when the choice cites a seed passage that exists or says the seeds are silent."""
    cited = SEED.findall(body)
    unknown = [f"{page} #{a}" for page, a in cited if a not in PAGES[page][1]]
    if unknown:
        return "cites no such passage of Adobe's pages: " + ", ".join(unknown)
    if cited or SILENT.search(body):
        return None
    return 'cites no passage of Adobe\'s pages (api-reference #anchor, cookbook #anchor) and does not say "seeds silent"'


def check(root):
    scenarios = os.path.join(root, "Scenarios")
    conformance = os.path.join(root, "docs", "CONFORMANCE.md")
    behavior = os.path.join(root, "docs", "spec", "BEHAVIOR.md")
    if not os.path.isdir(scenarios) or not os.path.isfile(conformance) or not os.path.isfile(behavior):
        print(f"{root}: needs Scenarios/, docs/CONFORMANCE.md and docs/spec/BEHAVIOR.md", file=sys.stderr)
        return 2
    with open(behavior, encoding="utf-8") as f:
        clauses = clause_names(f.read())
    problems = []
    for folder, dirs, files in os.walk(scenarios):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith(".scenario"):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as f:
                comment = leading_comment(f.read())
            shown = os.path.relpath(path, root)
            if not comment:
                problems.append(f"{shown}: no leading comment")
            elif not cites_clause(comment, clauses):
                problems.append(f"{shown}: the leading comment cites no clause of BEHAVIOR.md "
                                "(e.g. \"(BEHAVIOR.md, Authentication 4)\")")
    with open(conformance, encoding="utf-8") as f:
        items = choices(f.read())
    if not items:
        problems.append("docs/CONFORMANCE.md: no numbered choice under \"## Choices\"")
    for number, body in items:
        problem = seed_problem(body)
        if problem:
            problems.append(f"docs/CONFORMANCE.md: choice {number} {problem}")
    for problem in problems:
        print(problem)
    if not problems:
        print(f"provenance: every scenario cites its BEHAVIOR.md clause, every one of {len(items)} choices its passage of Adobe's pages")
    return 1 if problems else 0


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    sys.exit(check(sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..")))
