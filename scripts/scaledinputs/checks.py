"""The checks of `--check` (scripts/make-scaled-inputs.py): each PBF read by osmium, each GeoNames dump re-read."""
import json
import os
import subprocess
import sys
import time

from .names import open_text


def check(args, manifest):
    """osmium fileinfo -e on each PBF against the expected counts; each GeoNames dump re-read: columns,
    unique and sorted ids, valid country and admin1 codes, coordinates in range."""
    ok = check_osm(args, manifest)
    return check_geonames(args, manifest) and ok


def check_osm(args, manifest):
    ok = True
    for key, entry in manifest.get("osm", {}).items():
        path = os.path.join(args.out, entry["file"])
        t0 = time.time()
        run = subprocess.run(["osmium", "fileinfo", "-e", "-j", path], capture_output=True, text=True)
        seconds = time.time() - t0
        if run.returncode != 0:
            print(f"check osm {key}: osmium fileinfo failed: {run.stderr.strip()}", file=sys.stderr)
            ok = False
            continue
        info = json.loads(run.stdout)
        data = info["data"]
        got = (data["count"]["nodes"], data["count"]["ways"], data["count"]["relations"])
        want = (entry["nodes"], entry["ways"], entry["relations"])
        sorted_ok = data.get("objects_ordered")
        dense = "pbf_dense_nodes=true" in " ".join(f"{k}={v}" for k, v in info["header"]["option"].items()) \
            if isinstance(info["header"].get("option"), dict) else None
        good = got == want and sorted_ok and set(entry["blobs"]) == {"zlib"}
        ok &= bool(good)
        entry["osmium_fileinfo_e_seconds"] = round(seconds, 2)
        print(f"check osm {key}: osmium fileinfo -e {seconds:.2f} s: nodes/ways/relations {got} "
              f"(expected {want}), ordered {sorted_ok}, dense nodes {dense}, blobs {entry['blobs']}: "
              f"{'ok' if good else 'WRONG'}", file=sys.stderr)
    return ok


def check_geonames(args, manifest):
    countries = set()
    with open(os.path.join(args.geonames_dir, "countryInfo.txt"), encoding="utf-8") as f:
        for line in f:
            if not line.startswith("#"):
                countries.add(line.split("\t")[0])
    original_admin1 = set()
    with open_text(args.geonames_file) as f:
        for line in f:
            c = line.split("\t")
            original_admin1.add((c[8], c[10]))
    ok = True
    for key, entry in manifest.get("geonames", {}).items():
        if "file" not in entry:
            continue
        ok &= check_dump(os.path.join(args.out, entry["file"]), key, entry, countries, original_admin1)
    return ok


def check_dump(path, key, entry, countries, original_admin1):
    rows, bad, previous, unsorted, names = 0, 0, 0, 0, set()
    with open_text(path) as f:
        for line in f:
            c = line.rstrip("\n").split("\t")
            rows += 1
            gid = int(c[0])
            if gid <= previous:
                unsorted += 1
            previous = gid
            if len(c) != 19 or c[8] not in countries or (c[8], c[10]) not in original_admin1 \
                    or not (-90 <= float(c[4]) <= 90 and -180 <= float(c[5]) <= 180) or not c[1]:
                bad += 1
            names.add(c[1])
    good = rows == entry["rows"] and bad == 0 and unsorted == 0
    entry["distinct_names"] = len(names)
    print(f"check geonames {key}: {rows:,} rows (expected {entry['rows']:,}), {bad} with a bad column count, "
          f"country, admin1 pair or coordinate, {unsorted} ids not increasing, {len(names):,} distinct names "
          f"({len(names) / rows:.1%}): {'ok' if good else 'WRONG'}", file=sys.stderr)
    return good
