#!/usr/bin/env python3
"""geopy's own round trip against a running `pindrop serve` (a benchmark, not a test): the time of each geopy call,
request and parsed answer included, over a fixed mix of questions, with p50/p90/p99 per call kind.

    scripts/bench-geopy.py http://127.0.0.1:PORT [--rounds 200]

Needs geopy (pip install geopy==2.5.0). Each kind is asked `rounds` times, cycling through its questions."""
import argparse
import statistics
import time
import urllib.parse

from geopy.geocoders import Nominatim, Photon

parser = argparse.ArgumentParser()
parser.add_argument("url")
parser.add_argument("--rounds", type=int, default=200)
args = parser.parse_args()
domain = urllib.parse.urlparse(args.url).netloc
nominatim = Nominatim(domain=domain, scheme="http", user_agent="pindrop-bench", timeout=10)
photon = Photon(domain=domain, scheme="http", timeout=10)

texts = ["Mannerheimintie 5", "Helsinki", "Vaduz", "Städtle 35, Vaduz", "Paris", "Springfield", "Helsinky", "Kamppi"]
points = [(60.1699, 24.9384), (60.16835, 24.9401), (60.1675, 24.9458), (47.1415, 9.5215), (48.8534, 2.3488)]
prefixes = ["Manner", "Vadu", "Helsinki", "Pari", "Städtle", "Caf", "Springf", "Kamp"]
kinds = {
    "Nominatim geocode": lambda i: nominatim.geocode(texts[i % len(texts)]),
    "Nominatim geocode, addressdetails": lambda i: nominatim.geocode(texts[i % len(texts)], addressdetails=True),
    "Nominatim reverse": lambda i: nominatim.reverse(points[i % len(points)]),
    "Photon geocode": lambda i: photon.geocode(prefixes[i % len(prefixes)]),
    "Photon reverse": lambda i: photon.reverse(points[i % len(points)]),
}
for name, call in kinds.items():
    call(0)   # one warm-up call: the connection and the first answer
    times = []
    for i in range(args.rounds):
        start = time.perf_counter()
        call(i)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    print("%-36s p50 %.2f ms, p90 %.2f ms, p99 %.2f ms (%d calls)" % (
        name, statistics.median(times), times[int(0.9 * len(times))], times[int(0.99 * len(times))], len(times)))
