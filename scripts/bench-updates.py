#!/usr/bin/env python3
"""Benchmark of OpenStreetMap updates (a script, not a test), on the shipped Liechtenstein extract, each figure beside
its baseline measured in the same run: a fresh import of the extract.

    scripts/bench-updates.py [--store-too] [--geonames FOLDER] [--extract FILE]

For each change (the three sequences of scripts/make-osm-changes.py; 1,000, 10,000 and 100,000 nodes moved, then
1,000 again once the journal has been folded into the extract; then 100 venues moved, twice), it prints whether the
embedded index laid the change over its stored street level or rebuilt it, the wall time of `pindrop update` (and of
the fold, when there was one), the objects applied per second, the peak memory of the process, the journal on disk,
and a running server's memory before and after the update (the server follows the new build). With
--store-too the same on a PostgreSQL store (a cluster of scripts/postgres-cluster.sh). Uses PINDROP_BIN, else the
release build (built when missing). Needs pyosmium and osmium-tool. With --geonames, the index holds that GeoNames
dump (a folder `pindrop import geonames` takes, such as scripts/make-scaled-inputs.py writes) instead of the shipped
cities500: an update keeps the GeoNames structures file as it is and writes only the street level's, so its cost
should not grow with the GeoNames part, which this shows. With --extract, the index holds that extract instead of
Liechtenstein's, and the bulk changes move its nodes: made for a larger one of the same objects, such as
`scripts/make-scaled-inputs.py --osm-file data/osm/liechtenstein.osm.pbf --osm 40` writes (its first tile is
Liechtenstein itself, so the three sequences apply to it as well), to show how an update grows with the extract.
"""
import argparse
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import osmium

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXTRACT = f"{ROOT}/data/osm/liechtenstein.osm.pbf"
# The last, after the journal of the others outgrew the extract and was folded into it.
BULK = (1_000, 10_000, 100_000, 1_000)
# Then venues alone moved (named amenity nodes: no way or boundary is touched), which an embedded index lays over its
# stored street level rather than rebuilding it.
VENUES = (100, 100)


def bulk_change(count, step, path, extract, venues_only=False):
    """An osmChange moving `count` nodes spread over the extract `step` m north of where the extract has them, at
    10 × `step` versions after the extract's (so each file of a series, and the three sequences, come before it):
    the commonest edit in a minutely diff; with `venues_only`, named amenity nodes alone. Returns a venue among them
    (the same in every file), whose answer shows when the change is served."""
    every = []

    class Nodes(osmium.SimpleHandler):
        def node(self, n):
            every.append((n.id, "name" in n.tags and "amenity" in n.tags))

    Nodes().apply_file(extract)
    probe = next(node for node, venue in reversed(every) if venue)   # the last: the three sequences edit early ones
    pool = [(node, venue) for node, venue in every if venue] if venues_only else every
    chosen = {node for node, _ in pool[:: max(1, len(pool) // count)][: count - 1]} | {probe}
    writer = osmium.SimpleWriter(path)

    class Move(osmium.SimpleHandler):
        def node(self, n):
            if n.id in chosen:
                moved = osmium.osm.Location(n.location.lon, n.location.lat + 0.00001 * step)
                writer.add_node(n.replace(version=n.version + 10 * step, location=moved))

    Move().apply_file(extract)
    writer.close()
    return probe


def timed(home, *arguments):
    """(seconds, peak RSS in MB, stdout) of a pindrop command that must succeed."""
    started = time.perf_counter()
    result = subprocess.run(["/usr/bin/time", "-f", "%M", BIN, *arguments], env=dict(os.environ, PINDROP_HOME=home),
                            capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if result.returncode != 0:
        sys.exit(f"pindrop {' '.join(arguments)} failed: {result.stderr}")
    return seconds, int(result.stderr.strip().splitlines()[-1]) / 1024, result.stdout


def server_rss(pid):
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1)) / 1024


def serve(home, *flags):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    process = subprocess.Popen([BIN, "serve", "--port", str(port), "--coastline", "", "--tile-url", "", *flags],
                               env=dict(os.environ, PINDROP_HOME=home), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(600):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/status", timeout=2).read()
            break
        except OSError:
            time.sleep(0.2)
    for name in ("Vaduz", "Schaan", "Triesen", "Balzers"):   # the pages the first questions touch
        urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/search?q={name}", timeout=10).read()
    return process, port


def answer(port, path):
    return urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5).read()


def run(store, work, material, probes, geonames, extract):
    """One store's figures; `store` is [] for the embedded one or ["--store", URL]; `geonames` a dump's folder or None."""
    home = f"{work}/home-{'pg' if store else 'embedded'}"
    os.makedirs(home, exist_ok=True)
    if store or geonames:
        timed(home, "import", "geonames", geonames or f"{ROOT}/data/geonames", *store)
    else:
        timed(home, "search", "Vaduz")   # builds the default index from the shipped data
    seconds, peak, _ = timed(home, "import", "osm", extract, *store)
    label = ("shared store (PostgreSQL)" if store else "embedded index") + (f", GeoNames from {geonames}" if geonames else "") \
        + (f", extract {extract}" if extract != EXTRACT else "")
    print(f"\n{label}:")
    print(f"  fresh import of the extract (baseline)  {seconds:6.2f} s  peak {peak:4.0f} MB")
    serving = f"{work}/serve-pg" if store else home   # servers on the shared store keep their own cache
    os.makedirs(serving, exist_ok=True)
    server, port = serve(serving, *store)
    try:
        rss_before = server_rss(server.pid)
        print(f"  server memory before updates            {rss_before:6.0f} MB")
        changes = [("3 sequences, 12 objects", [f"{material}/replication/000/000/{n:03d}.osc.gz" for n in (1, 2, 3)], 12,
                    "/v1/search?q=Pindrop+Testhaus")]
        changes += [(f"{count:,} nodes moved" + (" again" if step == len(BULK) else ""), [f"{work}/bulk-{step}.osc.gz"], count,
                     f"/v1/places/osm:node%2F{probes[step]}") for step, count in enumerate(BULK, start=1)]
        changes += [(f"{count:,} venues moved" + (" again" if step > len(BULK) + 1 else ""), [f"{work}/bulk-{step}.osc.gz"], count,
                     f"/v1/places/osm:node%2F{probes[step]}") for step, count in enumerate(VENUES, start=len(BULK) + 1)]
        for name, files, objects, path in changes:
            before = answer(port, path)
            seconds, peak, out = timed(home, "update", *files, *store)
            fold = re.search(r"the (\d+) changed objects recorded were folded into the extract in ([\d.]+) s", out)
            waited = time.perf_counter()
            while answer(port, path) == before and time.perf_counter() - waited < 120:
                time.sleep(0.1)
            journal = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(home) for f in fs if f == "changes.osc")
            # An embedded update laid over the stored street level leaves an overlay file; a rebuild, none.
            laid = any(f.endswith(".overlay.structures") for f in os.listdir(home))
            print(f"  update, {name:25s} {'laid' if laid else 'rebuilt':7s} {seconds:6.2f} s  {objects / seconds:7.0f} objects/s  peak {peak:4.0f} MB"
                  f"  journal {journal / 1024:6.0f} KB  served {time.perf_counter() - waited:4.1f} s later"
                  f"  server {server_rss(server.pid):4.0f} MB")
            if fold:
                print(f"    of which folding the {int(fold[1]):,} changed objects recorded into the extract {float(fold[2]):5.2f} s")
    finally:
        server.terminate()
        server.wait(timeout=60)


def main():
    parser = argparse.ArgumentParser(description="Benchmark of OpenStreetMap updates on the Liechtenstein extract.")
    parser.add_argument("--store-too", action="store_true", help="the same on a PostgreSQL store")
    parser.add_argument("--geonames", help="a GeoNames dump's folder to import instead of the shipped cities500")
    parser.add_argument("--extract", default=EXTRACT, help="an extract holding Liechtenstein's objects, to import instead of it")
    options = parser.parse_args()
    geonames = options.geonames and os.path.realpath(options.geonames)
    extract = os.path.realpath(options.extract)
    work = tempfile.mkdtemp(prefix="pindrop-bench-updates-")
    try:
        subprocess.run([sys.executable, f"{ROOT}/scripts/make-osm-changes.py", EXTRACT, f"{work}/material"], check=True)
        probes = {step: bulk_change(count, step, f"{work}/bulk-{step}.osc.gz", extract) for step, count in enumerate(BULK, start=1)}
        probes |= {step: bulk_change(count, step, f"{work}/bulk-{step}.osc.gz", extract, venues_only=True)
                   for step, count in enumerate(VENUES, start=len(BULK) + 1)}
        print(f"updates, {time.strftime('%Y-%m-%d')}, {BIN}")
        run([], work, f"{work}/material", probes, geonames, extract)
        if options.store_too:
            cluster = subprocess.run([f"{ROOT}/scripts/postgres-cluster.sh", "start"], capture_output=True, text=True, check=True).stdout
            env = dict(re.findall(r"export (\w+)=['\"]?([^'\"\n]+)", cluster))
            try:
                run(["--store", env["PINDROP_TEST_DATABASE_URL"]], work, f"{work}/material", probes, geonames, extract)
            finally:
                subprocess.run([f"{ROOT}/scripts/postgres-cluster.sh", "stop", env["PINDROP_PG_CLUSTER"]], capture_output=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    if not os.environ.get("PINDROP_BIN"):
        subprocess.run(["swift", "build", "-c", "release", "--product", "pindrop"], cwd=ROOT, check=True)
    BIN = os.path.realpath(os.environ.get("PINDROP_BIN") or f"{ROOT}/.build/release/pindrop")
    main()
