"""Changes folded into the extract (`pindrop update --fold`, done by itself once the changes recorded outgrow the
extract), on the shipped Liechtenstein extract and the change files of scripts/make-osm-changes.py:
- the PBF file the fold writes holds, read by pyosmium, the objects `osmium apply-changes` makes of the same extract
  and changes (ids, coordinates, tags, way nodes, relation members, timestamps), its texts without the control
  characters Pindrop's reader removes from every text it reads;
- updates laid over a folded extract answer as a fresh import of the changed data;
- a file folded in is still known: applied again, it changes nothing."""
import glob
import shutil
import subprocess

import osmium

from processes import pindrop
from test_updates import EXTRACT, assert_answers_as_a_fresh_import, base_home, changes, home, material  # noqa: F401


CONTROL = dict.fromkeys([*range(0x20), *range(0x7F, 0xA0)])


def tags(o):
    return sorted((t.k.translate(CONTROL), t.v.translate(CONTROL)) for t in o.tags)


def objects(path):
    """Every object of an OSM file, by kind and id, as pyosmium reads it."""
    found = {}

    class Reader(osmium.SimpleHandler):
        def node(self, n):
            found[("n", n.id)] = (round(n.location.lat, 7), round(n.location.lon, 7), tags(n),
                                  int(n.timestamp.timestamp()))

        def way(self, w):
            found[("w", w.id)] = ([r.ref for r in w.nodes], tags(w), int(w.timestamp.timestamp()))

        def relation(self, r):
            found[("r", r.id)] = ([(m.type, m.ref, m.role.translate(CONTROL)) for m in r.members], tags(r),
                                  int(r.timestamp.timestamp()))

    Reader().apply_file(path)
    return found


def test_a_folded_extract_holds_what_osmium_applies(material, home):
    folder, _ = material
    assert f"osm extract: {EXTRACT}\n" in pindrop(home, "status")
    out = pindrop(home, "update", "--fold", *changes(folder, 1, 2, 3))
    assert "were folded into the extract" in out, out
    [folded] = glob.glob(f"{home}/*.updates/extract-*.osm.pbf")
    # The operator is told which file updates now rely on, and that nothing is left recorded.
    status = pindrop(home, "status")
    assert f"osm extract: {folded}\n" in status and "changes recorded: 0 KB" in status, status
    expected = f"{home}/osmium-applied.osm.pbf"
    subprocess.run(["osmium", "apply-changes", "-o", expected, EXTRACT, *changes(folder, 1, 2, 3)], check=True, timeout=300)
    ours, theirs = objects(folded), objects(expected)
    differing = [key for key in theirs if ours.get(key) != theirs[key]] + [key for key in ours if key not in theirs]
    assert len(ours) == len(theirs) and differing == [], f"{len(differing)} objects differ, first: {differing[:5]}"
    assert ("n", 90000000001) in ours
    # Applied again after the fold: known, so nothing changes.
    again = pindrop(home, "update", *changes(folder, 2))
    assert "0 created, 0 modified, 0 deleted" in again and "already applied" in again, again


def test_updates_over_a_folded_extract_answer_as_a_fresh_import(material, home, base_home):  # noqa: F811
    folder, edits = material
    fresh = home + "-fresh"
    shutil.copytree(base_home, fresh)
    try:
        pindrop(fresh, "import", "osm", f"{folder}/stage3.osm.pbf")
        pindrop(home, "update", "--fold", *changes(folder, 1))
        pindrop(home, "update", "--fold", *changes(folder, 2))
        out = pindrop(home, "update", *changes(folder, 3))
        assert "folded" not in out, out
        assert_answers_as_a_fresh_import(home, fresh, edits)
    finally:
        shutil.rmtree(fresh, ignore_errors=True)
