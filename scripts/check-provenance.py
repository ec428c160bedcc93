#!/usr/bin/env python3
"""The provenance check (issue 16, item 5), run by CI.

Two rules, so that every behaviour the suite pins and every choice the project made can be traced to
its source:
- a scenario's leading comment (the first block of `#` lines, its description in the generated pages)
  cites the clause of BEHAVIOR.md it pins: `BEHAVIOR.md` followed by the name of one of its sections or
  named paragraphs, e.g. `(BEHAVIOR.md, Authentication 4)` or `(BEHAVIOR.md, "Cancel via nil")`;
- each numbered item of docs/CONFORMANCE.md's "Choices" cites the seed passage it rests on, as
  `seeds/NNN #anchor` (a seed file's number and one of its heading anchors), or says "seeds silent".

BEHAVIOR.md and the seeds live beside the repository (../shared), which CI does not check out: the
clause names and anchors are therefore listed here; the unittest compares them with the real files
when they are there.

Usage: scripts/check-provenance.py [ROOT]   (ROOT: the package root, default: this script's parent)
Exit status: 0 clean, 1 a file or choice without provenance (each printed), 2 unusable input.
"""
import os
import re
import sys

# BEHAVIOR.md's sections (`##`, without their parenthesised tails) and its named paragraphs (the bold
# run that opens them), the names a citation may start with ("Client registration" stands for its
# section, "Client registration and request signing").
CLAUSES = (
    "Vocabulary", "Constants", "The MVPD object", "Invariants", "Startup", "Queueing",
    "Client registration", "SDK 3.x: registration",
    "SDK 2.x tvOS: signed second-screen calls", "The mock enforces what the world declares",
    "Authentication", "Cancel via nil", "Promotional TempPass", "Apple SSO", "tvOS",
    "Authorization", "Logout", "Overlapping calls", "Queries", "Tracking data", "Time",
    "Throttling", "`withData:`", "`getAuthenticationToken`",
)

# The heading anchors of the seeds (../shared/seeds): the API reference in French (000), Dutch (002)
# and Portuguese (004) share one set; 001 is the cookbook. 003, the French reference as plain text,
# has no anchors (cite 000, the same text).
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
SEED_ANCHORS = {"000": API_ANCHORS, "001": COOKBOOK_ANCHORS, "002": API_ANCHORS, "004": API_ANCHORS}

CITATION = re.compile(r"BEHAVIOR\.md[,:]?\s*[\"“]?([^\"”)]*)")
SEED = re.compile(r"seeds/(\d{3})(?:_[0-9a-f]+(?:\.txt)?)? #([A-Za-z0-9_-]+)")
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


def cites_clause(comment):
    for match in CITATION.finditer(comment):
        cited = match.group(1).strip()
        if any(cited.lower().startswith(name.lower()) for name in CLAUSES):
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
    unknown = [f"seeds/{f} #{a}" for f, a in cited if a not in SEED_ANCHORS.get(f, ())]
    if unknown:
        return "cites no such seed passage: " + ", ".join(unknown)
    if cited or SILENT.search(body):
        return None
    return 'cites no seed passage (seeds/NNN #anchor) and does not say "seeds silent"'


def check(root):
    scenarios = os.path.join(root, "Scenarios")
    conformance = os.path.join(root, "docs", "CONFORMANCE.md")
    if not os.path.isdir(scenarios) or not os.path.isfile(conformance):
        print(f"{root}: needs Scenarios/ and docs/CONFORMANCE.md", file=sys.stderr)
        return 2
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
            elif not cites_clause(comment):
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
        print(f"provenance: every scenario cites its BEHAVIOR.md clause, every one of {len(items)} choices its seed passage")
    return 1 if problems else 0


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    sys.exit(check(sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..")))
