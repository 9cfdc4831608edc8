#!/usr/bin/env bash
# The Swift lint step: the toolchain's `swift format lint` with the repository's .swift-format, over Sources, Tests,
# Benchmarks and Package.swift. Fails, listing them, on findings of the enabled rules and on line length, trailing
# whitespace and tabs. The pretty printer's layout findings (Indentation, AddLines, RemoveLine, Spacing,
# TrailingComma) are left out: the code aligns continuation lines and keeps short bodies on one line, which the
# printer would reflow, and its configuration cannot turn those findings off.
#
#   scripts/lint-swift.sh [PATH ...]
set -euo pipefail
cd "$(dirname "$0")/.."
if (( $# == 0 )); then set -- Sources Tests Benchmarks Package.swift; fi
SWIFT_FORMAT=${SWIFT_FORMAT:-$(command -v swift-format || echo "$(dirname "$(readlink -f "$(command -v swift)")")/swift-format")}
if [[ ! -x "$SWIFT_FORMAT" ]]; then
    echo "lint: swift-format not found (it ships with the Swift toolchain; SWIFT_FORMAT=path picks one)" >&2
    exit 1
fi
LAYOUT='\[(Indentation|AddLines|RemoveLine|Spacing|TrailingComma)\]'
# A finding's note lines ("note: ...") belong to the finding above them and go with it.
findings=$("$SWIFT_FORMAT" lint --configuration .swift-format --recursive --parallel "$@" 2>&1 \
    | grep -Ev "$LAYOUT" | grep -E ': (warning|error): ' || true)
if [[ -n "$findings" ]]; then
    echo "$findings" >&2
    echo "lint: $(wc -l <<<"$findings") finding(s); the rules are in .swift-format, CONTRIBUTING.md says why" >&2
    exit 1
fi
echo "lint: no findings"
