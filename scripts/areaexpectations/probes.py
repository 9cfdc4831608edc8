"""The areas holding each probe point, as far as a clipped extract can tell (scripts/area-expectations.py)."""
import osmium

from .areas import fmt, write


def boundary_relations(path, candidates, assembled, way_ids):
    """The candidate relations not assembled: those that hold the whole extract (whole: id -> why) and those cut by
    its edge (cut), read again with their members."""
    node_pos, members = {}, {}
    for o in osmium.FileProcessor(path, osmium.osm.NODE | osmium.osm.RELATION):
        if o.is_node():
            node_pos[o.id] = (o.location.lon, o.location.lat)
        elif ("r", o.id) in candidates:
            members[o.id] = [(m.type, m.ref, m.role) for m in o.members]

    def open_candidate(rid, ms):
        return ("r", rid) not in assembled and not any(t == "w" and r in way_ids for t, r, _ in ms)

    # Whole-box relations: no member way in the file, and an admin_centre/label node in the box ...
    whole = {}
    for rid, ms in members.items():
        if open_candidate(rid, ms) and any(t == "n" and r in node_pos and role in ("admin_centre", "label")
                                           for t, r, role in ms):
            whole[rid] = "admin_centre node inside the extract, no boundary way inside it"
    # ... or a subarea relation that holds the whole box (repeat until nothing changes).
    changed = True
    while changed:
        changed = False
        for rid, ms in members.items():
            if rid in whole or not open_candidate(rid, ms):
                continue
            sub = [r for t, r, role in ms if t == "r" and role == "subarea" and r in whole]
            if sub:
                whole[rid] = f"subarea r{sub[0]} holds the extract, no boundary way inside it"
                changed = True
    cut = {rid for rid, ms in members.items() if ("r", rid) not in assembled and rid not in whole}
    return whole, cut


def probe_files(path, folder, filename, probes, candidates, assembled, index, way_ids, data_box):
    """The areas holding each probe: the assembled ones, and those the clipped extract still proves."""
    x0, y0, x1, y1 = data_box
    whole, cut = boundary_relations(path, candidates, assembled, way_ids)

    def level(r):
        return int(candidates[("r", r)][0].get("admin_level", 99))

    rows = []
    for label, x, y in probes:
        inside = x0 <= x <= x1 and y0 <= y <= y1
        found = index.containing(x, y)
        derived = sorted((level(r), candidates[("r", r)][0].get("name", "")) for r in whole) if inside else []
        rows.append((label, fmt(y), fmt(x), "yes" if inside else "no",
                     " | ".join(f"{a.kind}{a.level}:{a.name}" for a in found),
                     " | ".join(f"admin{lv}:{n}" for lv, n in derived),
                     " | ".join(f"admin{candidates[('r', r)][0].get('admin_level')}:{candidates[('r', r)][0].get('name', '')}"
                                for r in sorted(cut, key=lambda r: (level(r), r)))
                     if inside else ""))
    write(folder, filename, ["probe", "lat", "lon", "inside_extract", "assembled_areas", "whole_extract_areas",
                             "undetermined_areas"], rows)
    print(f"    extract box: lon {x0:.7f}..{x1:.7f}, lat {y0:.7f}..{y1:.7f}")
    for rid in sorted(whole, key=level):
        tags = candidates[("r", rid)][0]
        print(f"    holds the whole extract: r{rid} admin{tags.get('admin_level')} {tags.get('name')!r} ({whole[rid]})")
    for rid in sorted(cut):
        tags = candidates[("r", rid)][0]
        print(f"    cut by the extract edge, undetermined: r{rid} admin{tags.get('admin_level')} {tags.get('name')!r}")
    for row in rows:
        print(f"    {row[0]} {row[1]} {row[2]} inside={row[3]}: assembled [{row[4]}] whole-extract [{row[5]}]")
