#!/usr/bin/env python3
"""Writes GeoNames and OpenStreetMap inputs of real shape at several sizes, offline, for `pindrop-bench scale`
(docs/scaling.md).

GeoNames (the 19-column `geoname` dump, tab-separated, UTF-8), ×1, ×10, ×50 of cities500 by default:
- ×1 is the shipped cities500 itself. ×N adds N-1 copies of every row.
- A copy stays in its row's country and lands on land: near a random real place of that country (within
  30 km, uniform over the disc), kept only when the point is inside that country's Natural Earth polygon
  (shapely). Countries Natural Earth 1:110m does not draw (small islands, microstates) and the few rows
  that miss 8 times land within 2 km of a real place of their country instead. admin1..admin4 and the
  timezone come from the nearest real place when it is in the same country (else from the anchor place),
  so codes agree with where the copy lies. Population, feature class and elevation are the row's own;
  capital and seat codes (PPLC, PPLA..) become PPL, so each country keeps one capital.
- Ids are new and unique: 20,000,000 + 100 × row number + copy number (room for ×100; real ids end
  near 13 M), so every file is sorted by geonameid, as the real dumps are, and ×10 is a prefix-by-id of
  what ×50 holds (copy k of a row is the same in every size).
- Names are perturbed letter by letter, keeping scripts and lengths: in each name, 1 to 3 letters (by
  length; never the first letter unless the name has no other) are replaced by letters of the same script
  and case, drawn with the frequencies those letters have in the input. Spellings of a row that fold to
  the same key (name, asciiname, "Sao Paulo"/"São Paulo" among the alternate names) get the same edit,
  so asciiname stays the folded name and the number of distinct index keys per place is the real one.
  Alternate names keep their count, order and kind (letters are edited, digits and punctuation are not).
  A copy's name differs from the original's and from the other copies' whenever the name has room for it.
- Beside each dump: admin1CodesASCII.txt and countryInfo.txt (copied), so `pindrop import geonames FOLDER`
  works. ×1 is `cities500.txt`, larger sizes `allCountries.txt` (the name pindrop looks for first).

OpenStreetMap PBF, ×1, ×10, ×100 of the Helsinki extract by default: the extract's nodes, ways and
relations tiled onto a grid (ceil(sqrt(N)) columns, each tile a shifted copy 5% apart from its
neighbours); tile t adds t × 10^10 to every id and to every reference (way nodes, relation members), so
tile 0 is the original. In every other tile the name-like tags (name, name:*, alt_name, addr:street,
addr:city, ...) are perturbed as GeoNames names are (1-3 letters of the same script), the same way for one
value throughout a tile, so each tile is a town of its own whose addr:street still matches its streets;
--osm-names copy keeps them unchanged (then every tile repeats Helsinki's street names and addresses). Written with pyosmium (libosmium): dense nodes, zlib blobs, version + timestamp
metadata as in the source, sorted by type then id. Tiles are written by several processes and the files'
blobs concatenated after one header (a PBF blob is self-contained), which is still one valid PBF.

Deterministic: the same seed and sizes give byte-identical files (the work is split into fixed chunks,
each with its own seeded generators, whatever --jobs is). Needs (installed when missing): pip numpy,
scipy, shapely, osmium; apt osmium-tool for --check.

Usage: scripts/make-scaled-inputs.py [--out build/scale] [--seed 11] [--geonames 1,10,50] [--osm 1,10,100]
                                     [--osm-names perturb|copy] [--jobs 2] [--gzip] [--check]
       --geonames '' or --osm '' skips that part. Output:
       OUT/geonames-x{N}/{cities500,allCountries}.txt[.gz] + admin1CodesASCII.txt + countryInfo.txt
       OUT/osm/helsinki-x{N}.osm.pbf, OUT/manifest.json
Data: © GeoNames (CC-BY 4.0); © OpenStreetMap contributors (ODbL 1.0); Natural Earth (public domain).
The outputs are derived from them and carry the same licences; never commit them (build/ is ignored).
"""
import argparse
import gzip
import importlib.util
import json
import math
import os
import shutil
import struct
import subprocess
import sys
import time
import unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PIP_PACKAGES = {"numpy": "numpy", "scipy": "scipy", "shapely": "shapely", "osmium": "osmium"}


def ensure_packages(check):
    missing = [pip for module, pip in PIP_PACKAGES.items() if importlib.util.find_spec(module) is None]
    if missing:
        print(f"installing {' '.join(missing)} (pip)", file=sys.stderr)
        subprocess.check_call([sys.executable, "-m", "pip", "install", "-q", *missing])
        importlib.invalidate_caches()
    if check and shutil.which("osmium") is None:
        print("installing osmium-tool (apt)", file=sys.stderr)
        sudo = [] if os.geteuid() == 0 else ["sudo"]
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.check_call(sudo + ["apt-get", "update", "-q"], env=env)
        subprocess.check_call(sudo + ["apt-get", "install", "-y", "-q", "osmium-tool"], env=env)


# ---------------------------------------------------------------------------------------------------------
# GeoNames
# ---------------------------------------------------------------------------------------------------------

CHUNK_ROWS = 8192          # rows per unit of work; fixed, so output does not depend on --jobs
ID_BASE = 20_000_000       # first id of the copies
ID_STRIDE = 100            # copies per row the id scheme has room for
NEAR_KM = 30.0             # a copy lands within this of a real place of its country
FALLBACK_KM = 2.0          # ... or this, when the country has no polygon or 8 tries missed
TRIES = 8
NE_CODE_FIXES = {"CYN": "CY", "SOL": "SO", "-99": "XK"}  # N. Cyprus, Somaliland, Kosovo in Natural Earth
SEAT_CODES = {"PPLC", "PPLA", "PPLA2", "PPLA3", "PPLA4", "PPLA5", "PPLG"}
SPECIAL_FOLD = {"ß": "ss", "ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "ı": "i", "þ": "th",
                "ħ": "h", "ə": "e"}

G = {}  # what the forked workers share (set before the pool starts)


def open_text(path):
    return gzip.open(path, "rt", encoding="utf-8", newline="\n") if path.endswith(".gz") \
        else open(path, encoding="utf-8", newline="\n")


class Letters:
    """Per-character facts for every character of the input: its fold as the index folds it (when that is
    one character: then spellings that differ only by marks or case line up position by position), its
    class (script and case) when it is a letter, its form without marks, and for each class a pool of
    letters drawn with the frequencies they have in the input."""

    POOL = 4096  # a power of two: draws pick from it with a bit mask

    def __init__(self, counts, seed):
        import numpy as np
        self.fold1 = {}       # translate table: ord → one-character fold (others map to themselves)
        self.cls = {}         # letter → class number
        self.plain = {}       # letter → the same letter without marks, case kept
        by_class = {}
        for ch in sorted(counts):
            low = ch.lower()
            f = SPECIAL_FOLD.get(low)
            if f is None:
                f = "".join(c for c in unicodedata.normalize("NFKD", low) if not unicodedata.combining(c))
            if len(f) == 1 and f != ch:
                self.fold1[ord(ch)] = f
            cat = unicodedata.category(ch)
            if cat[0] == "L":
                try:
                    script = unicodedata.name(ch).split(" ")[0]
                except ValueError:
                    script = "?"
                by_class.setdefault((script, cat), []).append(ch)
                s = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
                self.plain[ch] = s if len(s) == 1 else ch
        rng = np.random.default_rng([seed, 2])
        self.pools = []
        for number, key in enumerate(sorted(by_class)):
            chars = by_class[key]
            weights = np.array([counts[c] for c in chars], dtype=float)
            picks = rng.choice(len(chars), size=self.POOL, p=weights / weights.sum())
            self.pools.append([chars[i] for i in picks])
            for ch in chars:
                self.cls[ch] = number


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


class RowNames:
    """The spellings of one row (name, asciiname, alternate names), grouped by folded key position by
    position, with the letter positions each group may edit and their letter pools."""
    __slots__ = ("distinct", "slots", "groups", "name_group", "need")

    def __init__(self, name, ascii_name, alternates, letters):
        self.distinct = []
        position = {}
        self.slots = []
        for s in [name, ascii_name] + alternates:
            i = position.get(s)
            if i is None:
                i = position[s] = len(self.distinct)
                self.distinct.append(s)
            self.slots.append(i)
        groups = {}
        for i, s in enumerate(self.distinct):
            groups.setdefault(s.translate(letters.fold1), []).append(i)
        self.groups = []
        self.name_group = -1
        cls, pools = letters.cls, letters.pools
        for members in groups.values():
            rep = self.distinct[members[0]]
            editable = [p for p in range(1, len(rep)) if rep[p] in cls]
            if not editable and rep and rep[0] in cls:
                editable = [0]
            if editable:
                if members[0] == 0:
                    self.name_group = len(self.groups)
                n = len(editable)
                edits = 1 if n < 8 else 2 if n < 14 else 3
                self.groups.append((members, editable, [pools[cls[rep[p]]] for p in editable], edits))
        # The most random numbers one copy can use.
        self.need = sum(g[3] * (6 if i == self.name_group else 1) for i, g in enumerate(self.groups))

    def perturbed(self, draws, at, plain, avoid_name):
        """New spellings (in the row's order) for one copy, using random numbers draws[at:]; the name
        avoids `avoid_name` when it can. Returns (spellings, next at)."""
        distinct = self.distinct
        out = list(distinct)
        name_group = self.name_group
        for g, (members, editable, pools, edits) in enumerate(self.groups):
            rep = distinct[members[0]]
            n = len(editable)
            for attempt in range(6 if g == name_group else 1):
                if edits == 1:
                    r = draws[at]
                    at += 1
                    i = r % n
                    pool = pools[i]
                    p = editable[i]
                    new = pool[(r >> 24) & 4095]
                    if new == rep[p]:
                        new = pool[(r >> 36) & 4095]
                    changes = ((p, new),)
                else:
                    changes = []
                    taken = []
                    for e in range(edits):
                        r = draws[at]
                        at += 1
                        i = r % n
                        while i in taken:
                            i = (i + 1) % n
                        taken.append(i)
                        pool = pools[i]
                        p = editable[i]
                        new = pool[(r >> 24) & 4095]
                        if new == rep[p]:
                            new = pool[(r >> 36) & 4095]
                        changes.append((p, new))
                if len(members) == 1:
                    for p, new in changes:
                        rep = rep[:p] + new + rep[p + 1:]
                    out[members[0]] = rep
                    rep = distinct[members[0]]
                else:
                    for m in members:
                        s = distinct[m]
                        for p, new in changes:
                            old = s[p]
                            if old != rep[p]:  # the same letter without marks, or in the other case
                                new = plain.get(new, new)
                                new = new.upper() if old.isupper() else new.lower()
                            s = s[:p] + new + s[p + 1:]
                        out[m] = s
                if g != name_group or out[0] not in avoid_name:
                    break
        return [out[i] for i in self.slots], at


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
        copies = len(lines) * (size - 1)
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


# ---------------------------------------------------------------------------------------------------------
# OpenStreetMap
# ---------------------------------------------------------------------------------------------------------

ID_TILE_OFFSET = 10 ** 10  # above every id of the extract (its largest node id is 6.4e9)
TILE_GAP = 0.05
O = {}
# Tags that name things: in tiles after the first their values are perturbed (see --osm-names).
NAME_KEYS = {"name", "alt_name", "official_name", "short_name", "old_name", "loc_name", "addr:street",
             "addr:place", "addr:city"}


def is_name_key(key):
    return key in NAME_KEYS or key.startswith("name:")


def perturbed_name(value, tile):
    """The value as tile `tile` spells it: 1 to 3 letters (by length; never the first) replaced by letters
    of the same script and case, with their frequencies in the extract's names. A pure function of
    (seed, tile, value), so every process and every object of a tile spells a street the same way and
    addr:street still matches the street's name."""
    import hashlib
    cache = O["name_cache"].setdefault(tile, {})
    out = cache.get(value)
    if out is None:
        letters = O["letters"]
        editable = [p for p in range(1, len(value)) if value[p] in letters.cls]
        out = value
        if editable:
            n = len(editable)
            edits = min(n, 1 if n < 8 else 2 if n < 14 else 3)
            digest = hashlib.blake2b(f"{O['seed']}/{tile}/{value}".encode(), digest_size=32).digest()
            taken = []
            for e in range(edits):
                r = int.from_bytes(digest[8 * e:8 * e + 8], "little")
                i = r % n
                while i in taken:
                    i = (i + 1) % n
                taken.append(i)
                p = editable[i]
                pool = letters.pools[letters.cls[value[p]]]
                new = pool[(r >> 24) & 4095]
                if new == out[p]:
                    new = pool[(r >> 36) & 4095]
                out = out[:p] + new + out[p + 1:]
        cache[value] = out
    return out


def tile_tags(tags, tile):
    if tile == 0 or not O["perturb_names"] or not any(is_name_key(k) for k, _ in tags):
        return tags
    return [(k, perturbed_name(v, tile) if is_name_key(k) else v) for k, v in tags]


def load_osm(path):
    import osmium
    nodes, ways, relations = [], [], []
    for o in osmium.FileProcessor(path):
        tags = [(t.k, t.v) for t in o.tags]
        if o.is_node():
            nodes.append((o.id, o.location.lon, o.location.lat, tags, o.version, o.timestamp))
        elif o.is_way():
            ways.append((o.id, [n.ref for n in o.nodes], tags, o.version, o.timestamp))
        elif o.is_relation():
            relations.append((o.id, [(m.type, m.ref, m.role) for m in o.members], tags, o.version, o.timestamp))
    for items in (nodes, ways, relations):
        items.sort(key=lambda x: x[0])
    return nodes, ways, relations


def tile_shift(size, t):
    cols = math.ceil(math.sqrt(size))
    return (t // cols) * O["step_lat"], (t % cols) * O["step_lon"]


def osm_header(size):
    import osmium
    cols = math.ceil(math.sqrt(size))
    rows = math.ceil(size / cols)
    header = osmium.io.Header()
    header.set("generator", "pindrop scripts/make-scaled-inputs.py")
    header.set("sorting", "Type_then_ID")
    w, s, e, n = O["bounds"]
    header.add_box(osmium.osm.Box(w, s, e + (cols - 1) * O["step_lon"], n + (rows - 1) * O["step_lat"]))
    return header


def osm_part(job):
    """Writes one kind of object of a range of tiles to a PBF of its own."""
    import osmium
    from osmium.osm.mutable import Node, Relation, Way
    size, kind, first, last, path = job
    writer = osmium.SimpleWriter(osmium.io.File(path, "pbf,pbf_dense_nodes=true,pbf_compression=zlib,"
                                                "add_metadata=version+timestamp"),
                                 header=osm_header(size), overwrite=True)
    try:
        for t in range(first, last):
            off = t * ID_TILE_OFFSET
            dlat, dlon = tile_shift(size, t)
            if kind == "n":
                for i, lon, lat, tags, version, ts in O["nodes"]:
                    writer.add_node(Node(id=i + off, location=(lon + dlon, lat + dlat), tags=tile_tags(tags, t),
                                         version=version, timestamp=ts))
            elif kind == "w":
                for i, refs, tags, version, ts in O["ways"]:
                    writer.add_way(Way(id=i + off, nodes=[r + off for r in refs], tags=tile_tags(tags, t),
                                       version=version,
                                       timestamp=ts))
            else:
                for i, members, tags, version, ts in O["relations"]:
                    writer.add_relation(Relation(id=i + off, members=[(m, r + off, role) for m, r, role in members],
                                                 tags=tile_tags(tags, t), version=version, timestamp=ts))
    finally:
        writer.close()
    return path


def pbf_blocks(path):
    """The file blocks of a PBF: (type, raw bytes of the whole block)."""
    with open(path, "rb") as f:
        data = f.read()
    blocks, offset = [], 0
    while offset < len(data):
        (header_len,) = struct.unpack(">I", data[offset:offset + 4])
        header = data[offset + 4:offset + 4 + header_len]
        kind, datasize, p = None, None, 0
        while p < len(header):
            key, p = varint(header, p)
            if key >> 3 == 1 and key & 7 == 2:
                n, p = varint(header, p)
                kind = header[p:p + n].decode()
                p += n
            elif key >> 3 == 3 and key & 7 == 0:
                datasize, p = varint(header, p)
            elif key & 7 == 2:
                n, p = varint(header, p)
                p += n
            else:
                _, p = varint(header, p)
        end = offset + 4 + header_len + datasize
        blocks.append((kind, data[offset:end], data[offset + 4 + header_len:end]))
        offset = end
    return blocks


def varint(buf, p):
    result, shift = 0, 0
    while True:
        b = buf[p]
        p += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, p
        shift += 7


def blob_kinds(blob):
    """Which fields a Blob message uses: 'raw', 'zlib', ..."""
    names = {1: "raw", 3: "zlib", 4: "lzma", 5: "bzip2", 6: "lz4", 7: "zstd"}
    p, found = 0, []
    while p < len(blob):
        key, p = varint(blob, p)
        if key & 7 == 2:
            n, p = varint(blob, p)
            p += n
            if key >> 3 in names:
                found.append(names[key >> 3])
        else:
            _, p = varint(blob, p)
    return found


def make_osm(args, pool_context, manifest):
    started = time.time()
    nodes, ways, relations = load_osm(args.osm_file)
    lons = [n[1] for n in nodes]
    lats = [n[2] for n in nodes]
    w, e, s, n = min(lons), max(lons), min(lats), max(lats)
    import collections
    counts = collections.Counter()
    for items in (nodes, ways, relations):
        for o in items:
            for k, v in o[-3 if items is nodes else 2]:
                if is_name_key(k):
                    counts.update(v)
    O.update(nodes=nodes, ways=ways, relations=relations, bounds=(w, s, e, n),
             step_lon=(e - w) * (1 + TILE_GAP), step_lat=(n - s) * (1 + TILE_GAP),
             perturb_names=args.osm_names == "perturb", letters=Letters(counts, args.seed), seed=args.seed,
             name_cache={})
    print(f"osm: {len(nodes):,} nodes, {len(ways):,} ways, {len(relations):,} relations read "
          f"({time.time() - started:.1f} s)", file=sys.stderr)
    folder = os.path.join(args.out, "osm")
    os.makedirs(folder, exist_ok=True)
    base = os.path.basename(args.osm_file).split(".")[0].replace("-center", "")
    for size in sorted(args.osm_sizes):
        t0 = time.time()
        # Pieces of about equal work: nodes of a few tiles, ways of more, relations of all.
        jobs = []
        for kind, per in (("n", 5), ("w", 20), ("r", 100)):
            for first in range(0, size, per):
                jobs.append((size, kind, first, min(size, first + per),
                             os.path.join(folder, f".part-x{size}-{kind}-{first:04d}.osm.pbf")))
        with pool_context.Pool(args.jobs) as pool:
            parts = pool.map(osm_part, jobs, chunksize=1)
        path = os.path.join(folder, f"{base}-x{size}.osm.pbf")
        kinds = {}
        with open(path + ".tmp", "wb") as out:
            for i, part in enumerate(parts):
                for kind, raw, blob in pbf_blocks(part):
                    if kind == "OSMHeader" and i > 0:
                        continue
                    for k in blob_kinds(blob):
                        kinds[k] = kinds.get(k, 0) + 1
                    out.write(raw)
                os.remove(part)
        os.replace(path + ".tmp", path)
        manifest.setdefault("osm", {})[f"x{size}"] = {
            "file": os.path.relpath(path, args.out), "bytes": os.path.getsize(path), "tiles": size,
            "names": args.osm_names,
            "nodes": len(nodes) * size, "ways": len(ways) * size, "relations": len(relations) * size,
            "blobs": kinds}
        print(f"osm ×{size}: {len(nodes) * size:,} nodes, {len(ways) * size:,} ways, "
              f"{len(relations) * size:,} relations, {os.path.getsize(path) / 1e6:.1f} MB, blobs {kinds}, "
              f"{time.time() - t0:.0f} s, {path}", file=sys.stderr)


# ---------------------------------------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------------------------------------

def check(args, manifest):
    """osmium fileinfo -e on each PBF against the expected counts; each GeoNames dump re-read: columns,
    unique and sorted ids, valid country and admin1 codes, coordinates in range."""
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
    countries, admin1 = set(), set()
    with open(os.path.join(args.geonames_dir, "countryInfo.txt"), encoding="utf-8") as f:
        for line in f:
            if not line.startswith("#"):
                countries.add(line.split("\t")[0])
    original_admin1 = set()
    with open_text(args.geonames_file) as f:
        for line in f:
            c = line.split("\t")
            original_admin1.add((c[8], c[10]))
    for key, entry in manifest.get("geonames", {}).items():
        if "file" not in entry:
            continue
        path = os.path.join(args.out, entry["file"])
        rows, bad, previous, unsorted, names = 0, 0, 0, 0, set()
        scripts_chars = 0
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
        ok &= good
        entry["distinct_names"] = len(names)
        print(f"check geonames {key}: {rows:,} rows (expected {entry['rows']:,}), {bad} with a bad column count, "
              f"country, admin1 pair or coordinate, {unsorted} ids not increasing, {len(names):,} distinct names "
              f"({len(names) / rows:.1%}): {'ok' if good else 'WRONG'}", file=sys.stderr)
    return ok


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=os.path.join(ROOT, "build", "scale"))
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--geonames", default="1,10,50", help="sizes, comma-separated ('' for none)")
    p.add_argument("--osm", default="1,10,100", help="sizes, comma-separated ('' for none)")
    p.add_argument("--geonames-dir", default=os.path.join(ROOT, "data", "geonames"))
    p.add_argument("--osm-file", default=os.path.join(ROOT, "data", "osm", "helsinki-center.osm.pbf"))
    p.add_argument("--naturalearth", default=os.path.join(ROOT, "data", "naturalearth", "countries-110m.geojson"))
    p.add_argument("--osm-names", choices=("perturb", "copy"), default="perturb",
                   help="in tiles after the first, perturb name-like tags (name, name:*, addr:street, addr:city, ...) "
                        "so each tile is its own town with its own street names (default), or copy them unchanged")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    p.add_argument("--gzip", action="store_true", help="write the GeoNames dumps as .gz (level 1; slower)")
    p.add_argument("--check", action="store_true", help="verify the outputs (osmium fileinfo -e, re-read dumps)")
    args = p.parse_args()
    args.geonames_sizes = [int(x) for x in args.geonames.split(",") if x.strip()]
    args.osm_sizes = [int(x) for x in args.osm.split(",") if x.strip()]
    if any(s < 1 for s in args.geonames_sizes + args.osm_sizes):
        p.error("sizes are whole numbers ≥ 1")
    for name in ("cities500.txt", "cities500.txt.gz"):
        if os.path.exists(os.path.join(args.geonames_dir, name)):
            args.geonames_file = os.path.join(args.geonames_dir, name)
            break
    else:
        p.error(f"no cities500.txt(.gz) in {args.geonames_dir}")
    ensure_packages(args.check)
    import multiprocessing
    context = multiprocessing.get_context("fork")
    os.makedirs(args.out, exist_ok=True)
    manifest_path = os.path.join(args.out, "manifest.json")
    manifest = json.load(open(manifest_path)) if os.path.exists(manifest_path) else {}
    if manifest.get("seed") != args.seed:
        manifest = {}
    manifest.update(seed=args.seed, generator="scripts/make-scaled-inputs.py")
    started = time.time()
    if args.geonames_sizes:
        make_geonames(args, context, manifest)
    if args.osm_sizes:
        make_osm(args, context, manifest)
    manifest["seconds_last_run"] = round(time.time() - started, 1)
    good = check(args, manifest) if args.check else True
    with open(manifest_path, "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"done in {time.time() - started:.0f} s; {os.path.join(args.out, 'manifest.json')}", file=sys.stderr)
    sys.exit(0 if good else 1)


if __name__ == "__main__":
    main()
