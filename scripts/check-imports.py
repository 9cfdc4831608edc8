#!/usr/bin/env python3
"""Fails, listing each one, when a module imports what the layers forbid (docs/architecture.md, "Modules").

Swift: each target's `import`s must be system modules or modules of its own dependency list in Package.swift
(a test target may also import what those dependencies depend on, as SwiftPM lets it), and each library's
dependencies on Pindrop's own modules must be allowed by LAYERS below: Core imports nothing of ours;
Server, Providers, Index, Import and Testing see only Core (and their C shims); Postgres sits above Index; the CLI
and the benchmarks compose. JavaScript: the web app's modules (Sources/PindropServer/Public) import only their
siblings, by relative path ("./name.js"), and nothing else.

    scripts/check-imports.py
"""
import os
import re
import sys

# Pindrop's own modules each library target may depend on: the layer rules, written once.
LIBRARIES = {"PindropCore", "PindropImport", "PindropIndex", "PindropPostgres", "PindropProviders", "PindropServer",
             "PindropTesting"}
LAYERS = {
    "PindropCore": set(),
    "CPrefetch": set(),
    "PindropImport": {"PindropCore", "CZlib", "CDeflate"},
    "PindropIndex": {"PindropCore", "CPrefetch"},
    "PindropPostgres": {"PindropCore", "PindropIndex"},
    "PindropProviders": {"PindropCore"},
    "PindropServer": {"PindropCore"},
    "PindropTesting": {"PindropCore"},
    "PindropFakeServices": {"PindropCore", "PindropTesting"},
    "PindropCLI": LIBRARIES - {"PindropTesting"},
    "PindropBench": LIBRARIES,
}
SYSTEM = {"Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "Dispatch", "Glibc", "Musl", "Darwin",
          "Synchronization", "_Concurrency"}
TEST_SYSTEM = {"Testing", "XCTest"}
# Modules a product brings besides the one of its own name.
PRODUCT_MODULES = {"Metrics": {"Metrics", "CoreMetrics"}}
IMPORT = re.compile(r"^\s*(?:@\w+\s+)*(?:(?:public|internal|package|private|fileprivate)\s+)?import\s+"
                    r"(?:(?:struct|class|enum|protocol|typealias|func|let|var)\s+)?([A-Za-z_][A-Za-z0-9_]*)", re.M)


def balanced(text, start, opening, closing):
    """The text from `start` (an `opening` character) to its matching `closing` one, inclusive."""
    depth = 0
    for i in range(start, len(text)):
        depth += (text[i] == opening) - (text[i] == closing)
        if depth == 0:
            return text[start:i + 1]
    raise ValueError(f"unbalanced {opening} in Package.swift")


def targets(manifest):
    """{name: (kind, folder, set of dependency modules, set of our target dependencies)} from Package.swift."""
    found = {}
    for match in re.finditer(r"\.(target|executableTarget|testTarget|systemLibrary)\(", manifest):
        body = balanced(manifest, match.end() - 1, "(", ")")
        name = re.search(r'name:\s*"([^"]+)"', body).group(1)
        path = re.search(r'path:\s*"([^"]+)"', body)
        kind = match.group(1)
        folder = path.group(1) if path else ("Tests/" if kind == "testTarget" else "Sources/") + name
        ours, modules = set(), set()
        deps = re.search(r"dependencies:\s*\[", body)
        if deps:
            listed = balanced(body, deps.end() - 1, "[", "]")
            for product in re.finditer(r'\.product\(\s*name:\s*"([^"]+)"', listed):
                modules |= PRODUCT_MODULES.get(product.group(1), {product.group(1)})
            plain = re.sub(r"\.product\([^)]*\)", "", listed)
            ours = set(re.findall(r'"([^"]+)"', plain))
        found[name] = (kind, folder, modules | ours, ours)
    return found


def visible(name, all_targets, seen=None):
    """What a test target may import: its dependencies and, through our targets, theirs."""
    seen = set() if seen is None else seen
    if name in seen or name not in all_targets:
        return set()
    seen.add(name)
    _, _, modules, ours = all_targets[name]
    result = set(modules)
    for dependency in ours:
        result |= visible(dependency, all_targets, seen)
    return result


def swift_imports(folder):
    for root, _, files in os.walk(folder):
        for file in sorted(files):
            if file.endswith(".swift"):
                path = os.path.join(root, file)
                with open(path, encoding="utf-8") as f:
                    for module in IMPORT.findall(f.read()):
                        yield path, module


def swift_problems(manifest):
    problems = []
    all_targets = targets(manifest)
    for name, (kind, folder, modules, ours) in sorted(all_targets.items()):
        if kind == "systemLibrary":
            continue
        if kind != "testTarget":
            if name not in LAYERS:
                problems.append(f"Package.swift: {name} has no row in scripts/check-imports.py's LAYERS")
                continue
            for dependency in sorted(ours - LAYERS[name]):
                problems.append(f"Package.swift: {name} must not depend on {dependency} (imports point down)")
        allowed = SYSTEM | (TEST_SYSTEM | visible(name, all_targets) if kind == "testTarget" else modules) | {name}
        for path, module in swift_imports(folder):
            if module not in allowed:
                problems.append(f"{path}: {name} imports {module}, which its dependencies do not allow")
    return problems


def js_problems(folder):
    problems = []
    siblings = {f for f in os.listdir(folder) if f.endswith(".js")}
    pattern = re.compile(r"""(?:^|[;\s])(?:import\s[^'"]*?from\s*|import\s*\(?\s*|export\s[^'"]*?from\s*)['"]([^'"]+)['"]""",
                         re.M)
    for file in sorted(siblings):
        with open(os.path.join(folder, file), encoding="utf-8") as f:
            text = f.read()
        for target in pattern.findall(text):
            name = target[2:] if target.startswith("./") else None
            if name is None or "/" in name or name not in siblings:
                problems.append(f"{folder}/{file}: imports {target!r}; the web app's modules import only their "
                                "siblings, as \"./name.js\"")
        if re.search(r"\brequire\s*\(", text):
            problems.append(f"{folder}/{file}: require() is not how the web app's modules import")
    return problems


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.chdir(root)
    with open("Package.swift", encoding="utf-8") as f:
        problems = swift_problems(f.read())
    problems += js_problems("Sources/PindropServer/Public")
    if problems:
        print("imports that break the layers:\n" + "\n".join("  " + p for p in problems), file=sys.stderr)
        return 1
    print("imports: every module imports only what its layer allows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
