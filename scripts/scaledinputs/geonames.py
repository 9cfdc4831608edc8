"""GeoNames copies: where each lands, its names and its codes (scripts/make-scaled-inputs.py)."""
import gzip
import json
import math
import os
import shutil
import sys
import time

from .names import Letters, RowNames, open_text

CHUNK_ROWS = 8192          # rows per unit of work; fixed, so output does not depend on --jobs
ID_BASE = 20_000_000       # first id of the copies
ID_STRIDE = 100            # copies per row the id scheme has room for
NEAR_KM = 30.0             # a copy lands within this of a real place of its country
FALLBACK_KM = 2.0          # ... or this, when the country has no polygon or 8 tries missed
TRIES = 8
NE_CODE_FIXES = {"CYN": "CY", "SOL": "SO", "-99": "XK"}  # N. Cyprus, Somaliland, Kosovo in Natural Earth
SEAT_CODES = {"PPLC", "PPLA", "PPLA2", "PPLA3", "PPLA4", "PPLA5", "PPLG"}

G = {}  # what the forked workers share (set before the pool starts)


def load_geonames(path, seed):
    import collections
    import numpy as np
    lines = []
    with open_text(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            lines.append(line.rstrip("\n"))
    n = len(lines)
    lat = np.empty(n)
    lon = np.empty(n)
    country, admin, tz = [], [], []
    counts = collections.Counter()
    for i, line in enumerate(lines):
        c = line.split("\t")
        if len(c) < 19:
            c += [""] * (19 - len(c))
        lat[i] = float(c[4])
        lon[i] = float(c[5])
        country.append(c[8].upper())
        admin.append("\t".join(c[10:14]))
        tz.append(c[17])
        counts.update(c[1])
        counts.update(c[2])
        counts.update(c[3])
    return lines, lat, lon, country, admin, tz, Letters(counts, seed)


def load_countries(geojson, country_info):
    import shapely
    from shapely.geometry import shape
    iso3 = {}
    with open(country_info, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                continue
            c = line.split("\t")
            iso3[c[1]] = c[0]
    parts = {}
    with open(geojson, encoding="utf-8") as f:
        features = json.load(f)["features"]
    for feature in features:
        a3 = feature["properties"]["iso_a3"]
        code = NE_CODE_FIXES.get(a3) or iso3.get(a3)
        if code:
            parts.setdefault(code, []).append(shape(feature["geometry"]))
    polygons = {}
    for code in sorted(parts):
        geom = shapely.union_all(parts[code]) if len(parts[code]) > 1 else parts[code][0]
        shapely.prepare(geom)
        polygons[code] = geom
    return polygons


def unit_vectors(lat, lon):
    import numpy as np
    la, lo = np.radians(lat), np.radians(lon)
    return np.column_stack((np.cos(la) * np.cos(lo), np.cos(la) * np.sin(lo), np.sin(la)))


def prepare_geonames(args):
    import numpy as np
    from scipy.spatial import cKDTree
    lines, lat, lon, country, admin, tz, letters = load_geonames(args.geonames_file, args.seed)
    polygons = load_countries(args.naturalearth, os.path.join(args.geonames_dir, "countryInfo.txt"))
    codes = sorted(set(country))
    code_index = {c: i for i, c in enumerate(codes)}
    cidx = np.array([code_index[c] for c in country], dtype=np.int32)
    order = np.argsort(cidx, kind="stable").astype(np.int32)
    counts = np.bincount(cidx, minlength=len(codes))
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    G.update(lines=lines, lat=lat, lon=lon, country=country, admin=admin, tz=tz, letters=letters,
             polygons=polygons, codes=codes, cidx=cidx, by_country=order, c_start=starts, c_count=counts,
             tree=cKDTree(unit_vectors(lat, lon)), seed=args.seed)


def place_copies(chunk, k, rows):
    """Where copy k of these rows lands: (lat, lon, donor row for admin codes and timezone), and how many
    fell back to a point near a real place."""
    import numpy as np
    import shapely
    rng = np.random.default_rng([G["seed"], 1, chunk, k])
    n = len(rows)
    cidx = G["cidx"][rows]
    out_lat = np.empty(n)
    out_lon = np.empty(n)
    anchor_of = np.empty(n, dtype=np.int64)
    pending = np.arange(n)
    has_polygon = np.array([G["codes"][c] in G["polygons"] for c in range(len(G["codes"]))])

    def propose(idx, km):
        ci = cidx[idx]
        pick = G["c_start"][ci] + np.floor(rng.random(len(idx)) * G["c_count"][ci]).astype(np.int64)
        anchor = G["by_country"][pick]
        bearing = rng.random(len(idx)) * 2 * math.pi
        dist = km * np.sqrt(rng.random(len(idx)))
        alat, alon = G["lat"][anchor], G["lon"][anchor]
        la = np.clip(alat + dist * np.cos(bearing) / 111.32, -89.99, 89.99)
        lo = alon + dist * np.sin(bearing) / (111.32 * np.maximum(np.cos(np.radians(alat)), 0.01))
        lo = (lo + 180.0) % 360.0 - 180.0
        return anchor, la, lo

    no_polygon = pending[~has_polygon[cidx[pending]]]
    if len(no_polygon):
        anchor, la, lo = propose(no_polygon, FALLBACK_KM)
        out_lat[no_polygon], out_lon[no_polygon], anchor_of[no_polygon] = la, lo, anchor
    pending = pending[has_polygon[cidx[pending]]]
    for _ in range(TRIES):
        if not len(pending):
            break
        anchor, la, lo = propose(pending, NEAR_KM)
        ok = np.zeros(len(pending), dtype=bool)
        pc = cidx[pending]
        for c in np.unique(pc):
            sel = np.nonzero(pc == c)[0]
            ok[sel] = shapely.contains_xy(G["polygons"][G["codes"][c]], lo[sel], la[sel])
        done = pending[ok]
        out_lat[done], out_lon[done], anchor_of[done] = la[ok], lo[ok], anchor[ok]
        pending = pending[~ok]
    fallbacks = len(no_polygon) + len(pending)
    if len(pending):
        anchor, la, lo = propose(pending, FALLBACK_KM)
        out_lat[pending], out_lon[pending], anchor_of[pending] = la, lo, anchor
    _, nearest = G["tree"].query(unit_vectors(out_lat, out_lon))
    same = G["cidx"][nearest] == cidx
    donor = np.where(same, nearest, anchor_of)
    return out_lat, out_lon, donor, fallbacks


def geonames_chunk(job):
    """Copies 1..max of the rows of one chunk: {size: text of that size's copies}, and statistics."""
    import numpy as np
    chunk, sizes = job
    lines, letters = G["lines"], G["letters"]
    first, last = chunk * CHUNK_ROWS, min((chunk + 1) * CHUNK_ROWS, len(lines))
    rows = np.arange(first, last)
    fields = [lines[r].split("\t") for r in rows]
    for c in fields:
        if len(c) < 19:
            c += [""] * (19 - len(c))
    names = [RowNames(c[1], c[2], c[3].split(",") if c[3] else [], letters) for c in fields]
    # What stays the same in every copy of a row: the columns before and after the ones that change.
    fixed = [(c[6], c[7] if c[7] not in SEAT_CODES else "PPL", c[8], c[9], c[14], c[15], c[16], c[18])
             for c in fields]
    used = [{c[1]} for c in fields]
    admin, tz, plain = G["admin"], G["tz"], letters.plain
    max_copies = max(sizes) - 1
    per_copy = []
    stats = {"fallbacks": 0, "name_repeats": 0}
    for k in range(1, max_copies + 1):
        lat, lon, donor, fallbacks = place_copies(chunk, k, rows)
        stats["fallbacks"] += fallbacks
        draws = np.random.default_rng([G["seed"], 3, chunk, k]).integers(
            0, 1 << 62, size=len(rows) * 24).tolist()
        at = 0
        text = []
        lat, lon, donor = lat.tolist(), lon.tolist(), donor.tolist()
        for j in range(len(fields)):
            if at + names[j].need > len(draws):
                draws += np.random.default_rng([G["seed"], 4, chunk, k, j]).integers(
                    0, 1 << 62, size=names[j].need + 4096).tolist()
            spell, at = names[j].perturbed(draws, at, plain, used[j])
            if spell[0] in used[j]:
                stats["name_repeats"] += 1
            used[j].add(spell[0])
            fclass, code, cc, cc2, population, elevation, dem, modified = fixed[j]
            d = donor[j]
            text.append(f"{ID_BASE + ID_STRIDE * (first + j) + k}\t{spell[0]}\t{spell[1]}\t{','.join(spell[2:])}\t"
                        f"{lat[j]:.5f}\t{lon[j]:.5f}\t{fclass}\t{code}\t{cc}\t{cc2}\t{admin[d]}\t{population}\t"
                        f"{elevation}\t{dem}\t{tz[d]}\t{modified}\n")
        per_copy.append(text)
    out = {}
    for size in sizes:
        out[size] = "".join(per_copy[k][j] for j in range(len(fields)) for k in range(size - 1)).encode("utf-8")
    return out, stats


def make_geonames(args, pool_context, manifest):
    started = time.time()
    prepare_geonames(args)
    lines = G["lines"]
    sizes = sorted(args.geonames_sizes)
    if max(sizes) > ID_STRIDE:
        sys.exit(f"sizes above ×{ID_STRIDE} need a wider id stride")
    print(f"geonames: {len(lines):,} rows read, {len(G['polygons'])} country polygons "
          f"({time.time() - started:.1f} s)", file=sys.stderr)
    outs = {}
    for size in sizes:
        folder = os.path.join(args.out, f"geonames-x{size}")
        os.makedirs(folder, exist_ok=True)
        for stale in os.listdir(folder):
            if stale.startswith(("cities500.txt", "allCountries.txt")):
                os.remove(os.path.join(folder, stale))
        for table in ("admin1CodesASCII.txt", "countryInfo.txt"):
            shutil.copyfile(os.path.join(args.geonames_dir, table), os.path.join(folder, table))
        name = ("cities500.txt" if size == 1 else "allCountries.txt") + (".gz" if args.gzip else "")
        path = os.path.join(folder, name)
        f = gzip.GzipFile(path, "wb", compresslevel=1, mtime=0) if args.gzip else open(path, "wb")
        f.write(("\n".join(lines) + "\n").encode("utf-8"))
        outs[size] = (path, f)
    copy_sizes = [s for s in sizes if s > 1]
    stats = {"fallbacks": 0, "name_repeats": 0}
    if copy_sizes:
        chunks = (len(lines) + CHUNK_ROWS - 1) // CHUNK_ROWS
        jobs = [(c, copy_sizes) for c in range(chunks)]
        with pool_context.Pool(args.jobs) as pool:
            for done, (texts, st) in enumerate(pool.imap(geonames_chunk, jobs), 1):
                for size, data in texts.items():
                    outs[size][1].write(data)
                for key in stats:
                    stats[key] += st[key]
                if sys.stderr.isatty() or done == chunks or done % 8 == 0:
                    print(f"\rgeonames: chunk {done}/{chunks} ({time.time() - started:.0f} s)", end="",
                          file=sys.stderr)
        print(file=sys.stderr)
    for size, (path, f) in outs.items():
        f.close()
        manifest.setdefault("geonames", {})[f"x{size}"] = {"file": os.path.relpath(path, args.out),
                                                          "rows": len(lines) * size,
                                                          "bytes": os.path.getsize(path)}
        print(f"geonames ×{size}: {len(lines) * size:,} rows, {os.path.getsize(path) / 1e6:.1f} MB, {path}",
              file=sys.stderr)
    total_copies = len(lines) * (max(sizes) - 1)
    manifest.setdefault("geonames", {})["largest_size_stats"] = {
        "copies": total_copies, "landed_near_a_real_place_without_polygon_test": stats["fallbacks"],
        "copy_names_repeating_an_earlier_spelling_of_their_row": stats["name_repeats"]}
    print(f"geonames: {stats['fallbacks']:,} of {total_copies:,} copies placed within {FALLBACK_KM:g} km of a real "
          f"place (no polygon or 8 misses); {stats['name_repeats']:,} copy names repeat an earlier spelling of "
          f"their row; {time.time() - started:.0f} s", file=sys.stderr)
