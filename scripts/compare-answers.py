#!/usr/bin/env python3
"""Asks two running `pindrop serve` the same requests and compares their answers byte for byte.

    scripts/compare-answers.py URL_A URL_B PATHS [--limit N]

PATHS holds one request path a line (scripts/suggest-prefixes.py writes such a file). Prints how many answers
differ, in status, in the ids and their order, and in the JSON bytes, with the first few differences; exits 1
when any does. Made for speed work: a faster build must answer exactly as the one before it.
"""
import argparse
import http.client
import json
import sys
import urllib.parse

parser = argparse.ArgumentParser()
parser.add_argument("a")
parser.add_argument("b")
parser.add_argument("paths")
parser.add_argument("--limit", type=int, default=0, help="compare only the first N paths")
args = parser.parse_args()


def connection(url):
    parts = urllib.parse.urlsplit(url)
    return http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)


def ask(conn, path):
    conn.request("GET", path)
    response = conn.getresponse()
    return response.status, response.read()


def ids(body):
    """The answer's place ids in order: /v1's `results`, GeoJSON's `features`, or Nominatim's list (`place_id`)."""
    try:
        document = json.loads(body)
    except ValueError:
        return None
    if isinstance(document, list):
        return [r.get("place_id") for r in document if isinstance(r, dict)]
    if not isinstance(document, dict):
        return None
    found = document.get("results") or document.get("features") or []
    return [r.get("id") or (r.get("properties") or {}).get("osm_id") for r in found if isinstance(r, dict)]


with open(args.paths, encoding="ascii") as f:
    paths = [line.strip() for line in f if line.strip()]
if args.limit:
    paths = paths[: args.limit]
a, b = connection(args.a), connection(args.b)
status_differ = ids_differ = bytes_differ = results = 0
shown = []
for path in paths:
    status_a, body_a = ask(a, path)
    status_b, body_b = ask(b, path)
    results += len(ids(body_a) or [])
    if status_a != status_b:
        status_differ += 1
    if ids(body_a) != ids(body_b):
        ids_differ += 1
    if body_a != body_b:
        bytes_differ += 1
        if len(shown) < 5:
            shown.append((path, body_a[:300], body_b[:300]))
print(f"{len(paths)} requests ({results} results): status differs {status_differ}, ids or order differ {ids_differ}, "
      f"JSON bytes differ {bytes_differ}")
for path, body_a, body_b in shown:
    print(f"  {path}\n    A: {body_a!r}\n    B: {body_b!r}")
sys.exit(1 if status_differ or ids_differ or bytes_differ else 0)
