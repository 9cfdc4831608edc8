"""OpenStreetMap tiles: the extract copied onto a grid, its names respelled per tile (scripts/make-scaled-inputs.py)."""
import math
import os
import struct
import sys
import time

from .names import Letters

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
    lons = sorted(n[1] for n in nodes)
    lats = sorted(n[2] for n in nodes)
    w, e, s, n = lons[0], lons[-1], lats[0], lats[-1]
    # Nodes far off (Liechtenstein's extract holds a few in Alabama) would spread the tiles off the globe: then the
    # extent of the nodes within 2° of the median one.
    mlon, mlat = lons[len(lons) // 2], lats[len(lats) // 2]
    near = [(x[1], x[2]) for x in nodes if abs(x[1] - mlon) <= 2 and abs(x[2] - mlat) <= 2]
    nw, ne = min(p[0] for p in near), max(p[0] for p in near)
    ns, nn = min(p[1] for p in near), max(p[1] for p in near)
    if (e - w) > 10 * (ne - nw) or (n - s) > 10 * (nn - ns):
        w, e, s, n = nw, ne, ns, nn
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
