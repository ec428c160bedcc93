#!/usr/bin/env python3
"""The layering check of ARCHITECTURE.md ("Modules (Sources/)" and "Never: ..."), run by CI.

Reads every `import X` line of each module under Sources/ and fails when a module imports what the
architecture does not let it: each module may import what its row lists and, transitively, what
those may import (each layer imports only layers below it); libxml2 is PassXML's alone and libcurl
Live's alone, whatever sits above them. A module missing from the table fails too, so a new module
must be placed in the architecture before it lands.

The engine's flows speak intents, not a wire (ARCHITECTURE.md, Entitlement): outside its dialects
(`Sources/Entitlement/Dialects/`), no Entitlement file names a route, the v2 reader, a wire, or an XML
encoder or parser; client registration (the same on every wire) and the configuration that declares
the wire are the exceptions.

Usage: scripts/check-layers.py [ROOT]   (ROOT: the package root, default: this script's parent)
Exit status: 0 clean, 1 a forbidden import (each printed as file:line: message), 2 unusable input.
"""
import os
import re
import sys

# System modules every layer above PassModel may use (PassModel's row: Foundation).
SYSTEM = {"Foundation", "FoundationEssentials", "Glibc", "Musl", "Darwin", "Dispatch"}
# Third-party products, by what the table calls them.
NIO = {"NIO", "NIOCore", "NIOPosix", "NIOHTTP1", "NIOConcurrencyHelpers", "NIOSSL", "NIOTLS",
       "NIOExtras", "X509", "SwiftASN1", "_CryptoExtras", "Crypto"}
CRYPTO = {"Crypto", "_CryptoExtras"}

# ARCHITECTURE.md, "Modules (Sources/)": the direct imports each module may have.
ALLOWED = {
    "CLibXML2": set(),
    "CCurl": set(),
    "PassModel": SYSTEM,
    "PassXML": {"PassModel", "CLibXML2"},
    # Crypto: HMAC-SHA1 for the REST API's signatures and the tvOS signed calls.
    "Entitlement": {"PassModel", "PassXML"} | CRYPTO,
    # Crypto: HMAC-SHA1 signatures, RSA for signed SAML (proposed for ARCHITECTURE.md's table).
    "MockPass": {"PassModel", "PassXML"} | CRYPTO,
    "Simulation": {"Entitlement", "MockPass"},
    "Live": {"MockPass", "CCurl"} | NIO,
    # Client rules judged over the mock's request journal.
    "Lint": {"MockPass"},
    # Lint: the liveness rules a port run judges on its app calls (driver protocol 1.2). ScenarioSyntax:
    # the expectations file's `differ` rules name callbacks in the scenario syntax.
    "Port": {"PassModel", "Entitlement", "Simulation", "Lint", "ScenarioSyntax"},
    "Harness": {"Simulation", "Live", "Port"},
    "ScenarioSyntax": {"PassModel"},
    "Scenario": {"ScenarioSyntax", "Harness", "Lint"},
    "Fuzz": {"Scenario", "Harness", "ScenarioSyntax"},
    "FuzzSupport": SYSTEM,
    "FuzzScenarioParser": {"FuzzSupport", "ScenarioSyntax"},
    "FuzzPassXML": {"FuzzSupport", "PassXML"},
    "FuzzMockRequest": {"FuzzSupport", "MockPass"},
    "Passim": {"Scenario", "Harness", "Fuzz", "Lint"},
    # XCTest and Testing: its one assertion per test framework.
    "PassimConformance": {"Passim", "Scenario", "Harness", "XCTest", "Testing"},
    "PassimMock": {"Passim", "Live", "Harness"},
    "passim": {"Passim", "PassimConformance", "PassimMock", "Scenario", "Harness", "Fuzz", "Lint", "ArgumentParser"},
}
# Whatever sits above them: only these modules may import these.
EXCLUSIVE = {"CLibXML2": {"PassXML"}, "CCurl": {"Live"}}
# Below a module yet not its to import. "Never: Scenario building runtimes itself": what builds them
# (servers, libcurl, port processes) is Harness's; Scenario drives the Simulator Harness hands it.
FORBIDDEN = {"Scenario": {"Live", "Port", "CCurl"} | NIO}

IMPORT = re.compile(r"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*(?:public\s+|package\s+|internal\s+)?import\s+"
                    r"(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z_0-9]*)")


def closure(module):
    seen, todo = set(), [module]
    while todo:
        for dep in ALLOWED.get(todo.pop(), set()):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return seen if module in ("CLibXML2", "CCurl") else seen | SYSTEM


# A flow that names any of these is testing or encoding a wire: that is a dialect's work.
WIRE_WORDS = re.compile(r"\b(?:V2Route|V2Answer|Route)\.|\.restV2\b|\bwire\s*[!=]=|\bisRESTv2\b|XML\.(?:parse|build)\b")
WIRE_EXEMPT = {"Engine+Registration.swift", "EngineConfiguration.swift"}


def wire_words(root):
    """Where an Entitlement file outside Dialects/ names a wire (comments aside)."""
    problems = []
    engine = os.path.join(root, "Sources", "Entitlement")
    for folder, _, files in sorted(os.walk(engine)):
        if os.path.relpath(folder, engine).split(os.sep)[0] == "Dialects":
            continue
        for name in sorted(files):
            if not name.endswith(".swift") or name in WIRE_EXEMPT:
                continue
            file = os.path.join(folder, name)
            with open(file, encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    code = line.split("//", 1)[0]
                    m = WIRE_WORDS.search(code)
                    if m:
                        problems.append(f"{os.path.relpath(file, root)}:{number}: a flow names the wire "
                                        f"({m.group(0)}): encode it in a dialect (Sources/Entitlement/Dialects/)")
    return problems


def check(root):
    sources = os.path.join(root, "Sources")
    if not os.path.isdir(sources):
        print(f"{sources}: no Sources folder", file=sys.stderr)
        return 2
    problems = []
    for module in sorted(os.listdir(sources)):
        path = os.path.join(sources, module)
        if not os.path.isdir(path):
            continue
        if module not in ALLOWED:
            problems.append(f"Sources/{module}: a module ARCHITECTURE.md does not place (add its row first)")
            continue
        allowed = closure(module)
        for folder, _, files in sorted(os.walk(path)):
            for name in sorted(files):
                if not name.endswith(".swift"):
                    continue
                file = os.path.join(folder, name)
                with open(file, encoding="utf-8") as f:
                    for number, line in enumerate(f, 1):
                        m = IMPORT.match(line)
                        if not m:
                            continue
                        imported = m.group(1)
                        where = os.path.relpath(file, root)
                        if imported in EXCLUSIVE and module not in EXCLUSIVE[imported]:
                            owners = ", ".join(sorted(EXCLUSIVE[imported]))
                            problems.append(f"{where}:{number}: {module} imports {imported}, which only {owners} may import")
                        elif imported in FORBIDDEN.get(module, set()):
                            problems.append(f"{where}:{number}: {module} may not import {imported}: "
                                            f"the runtimes are composed by Harness (ARCHITECTURE.md, \"Never\")")
                        elif imported not in allowed and imported != module:
                            problems.append(f"{where}:{number}: {module} may not import {imported} "
                                            f"(ARCHITECTURE.md allows: {', '.join(sorted(ALLOWED[module])) or 'nothing'})")
    problems += wire_words(root)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} layering problem(s)")
        return 1
    print("layers: every import is one ARCHITECTURE.md allows; no flow names a wire")
    return 0


if __name__ == "__main__":
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    sys.exit(check(root))
