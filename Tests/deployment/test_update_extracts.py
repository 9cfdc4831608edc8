"""Change files on an index built from several OpenStreetMap extracts: the default index, which holds Helsinki's
centre and Liechtenstein read from two files, takes a change file with a new place in each; each place answers once,
in its country, and the rest of both extracts answers as before."""
import json
import os

from processes import pindrop

TWO_EXTRACTS_CHANGE = """<?xml version='1.0' encoding='UTF-8'?>
<osmChange version="0.6" generator="pindrop test">
  <create>
    <node id="90000000001" version="1" timestamp="2030-01-01T00:00:00Z" lat="47.1397" lon="9.5215">
      <tag k="amenity" v="cafe"/><tag k="name" v="Pindrop Café"/>
    </node>
    <node id="90000000002" version="1" timestamp="2030-01-01T00:00:00Z" lat="60.1699" lon="24.9384">
      <tag k="amenity" v="cafe"/><tag k="name" v="Pindrop Kahvila"/>
    </node>
  </create>
</osmChange>
"""


def test_the_default_index_of_two_extracts_takes_changes(tmp_path):
    """The index a first command builds holds Helsinki's centre and Liechtenstein, read from two extracts: a change
    file lays each new place over the extract it belongs to, so each answers once, in its country, and the rest of
    both extracts answers as before."""
    home = str(tmp_path / "home")
    os.makedirs(home)
    def search(text):
        return json.loads(pindrop(home, "search", "--json", "--limit", "5", text))["results"]
    assert search("Mannerheimintie")[0]["countryCode"] == "FI"
    assert search("Städtle")[0]["countryCode"] == "LI"
    change = tmp_path / "two.osc"
    change.write_text(TWO_EXTRACTS_CHANGE)
    pindrop(home, "update", str(change))
    for name, country in (("Pindrop Café", "LI"), ("Pindrop Kahvila", "FI")):
        found = [r for r in search(name) if r["name"] == name]
        assert [r["countryCode"] for r in found] == [country], (name, found)
    assert search("Mannerheimintie")[0]["countryCode"] == "FI"
    assert search("Städtle")[0]["countryCode"] == "LI"
