"""United States ZIP+4 codes on a small extract written here with pyosmium: addresses near the Empire State Building,
some tagged with a ZIP+4 (`addr:postcode=10118-0110`), some with the five-digit ZIP. The postcode place is the
five-digit ZIP at the centre of all of them (the extra four digits name a delivery segment that no open data places),
every address answers with the five digits, and a ZIP+4 typed in search, in the CLI or Nominatim's structured
`postalcode=`, finds that place."""
import json
import os
import shutil
import subprocess
import tempfile
import urllib.parse
import urllib.request

import osmium
import pytest

from processes import BIN, ROOT, free_port, pindrop, wait_until_answering

# (id, latitude, longitude, house number, street, postcode or None)
ADDRESSES = [
    (1, 40.748440, -73.985664, "350", "5th Avenue", "10118-0110"),
    (2, 40.748020, -73.985020, "20", "West 34th Street", "10118"),
    (3, 40.748900, -73.986100, "362", "5th Avenue", "10118-0200"),
    (4, 40.747300, -73.987600, "11", "West 33rd Street", "10001-4003"),
    (5, 40.747100, -73.988000, "15", "West 33rd Street", "10001"),
    (6, 40.748300, -73.985400, "354", "5th Avenue", None),
]
STREETS = [(100, "5th Avenue", [(40.7470, -73.9848), (40.7495, -73.9867)]),
           (101, "West 34th Street", [(40.7490, -73.9880), (40.7480, -73.9848)]),
           (102, "West 33rd Street", [(40.7480, -73.9895), (40.7468, -73.9862)])]


def write_extract(path):
    writer = osmium.SimpleWriter(path)
    for number, lat, lon, house, street, postcode in ADDRESSES:
        tags = {"addr:housenumber": house, "addr:street": street, "addr:city": "New York"}
        if postcode:
            tags["addr:postcode"] = postcode
        writer.add_node(osmium.osm.mutable.Node(id=number, location=(lon, lat), tags=tags, version=1))
    node = 1000
    for way, name, points in STREETS:
        refs = []
        for lat, lon in points:
            node += 1
            writer.add_node(osmium.osm.mutable.Node(id=node, location=(lon, lat), version=1))
            refs.append(node)
        writer.add_way(osmium.osm.mutable.Way(id=way, nodes=refs, tags={"highway": "primary", "name": name}, version=1))
    writer.close()


def centre(code):
    points = [(lat, lon) for _, lat, lon, _, _, postcode in ADDRESSES if postcode and postcode[:5] == code]
    return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)


@pytest.fixture(scope="module")
def home():
    home = tempfile.mkdtemp(prefix="pindrop-zip-")
    write_extract(f"{home}/manhattan.osm.pbf")
    pindrop(home, "import", "osm", f"{home}/manhattan.osm.pbf")
    yield home
    shutil.rmtree(home, ignore_errors=True)


def search(home, text, *flags):
    return json.loads(pindrop(home, "search", text, "--json", "--limit", "5", *flags))["results"]


def test_the_postcode_place_is_the_five_digit_zip_at_the_centre_of_its_addresses(home):
    places = [r for r in search(home, "10118") if r["category"] == "postcode"]
    assert [p["name"] for p in places] == ["10118"]
    latitude, longitude = centre("10118")
    assert abs(places[0]["latitude"] - latitude) < 1e-5 and abs(places[0]["longitude"] - longitude) < 1e-5
    assert places[0]["countryCode"] == "US"
    # No place is named by a ZIP+4.
    assert not [r for r in search(home, "10118-0110") if r["name"] != "10118" and r["category"] == "postcode"]


def test_a_zip_plus_four_finds_its_five_digit_place(home):
    for text in ["10118-0110", "10118 0110", "10001-9999"]:
        first = search(home, text)[0]
        assert (first["category"], first["name"]) == ("postcode", text[:5]), text


def test_addresses_answer_with_the_five_digits(home):
    first = search(home, "350 5th Avenue")[0]
    assert (first["address"]["houseNumber"], first["address"]["postcode"]) == ("350", "10118")
    # An address with no postcode takes the nearest one, five digits.
    reverse = json.loads(pindrop(home, "reverse", "40.748300", "-73.985400", "--json"))["results"][0]
    assert reverse["address"]["houseNumber"] == "354" and reverse["address"]["postcode"] == "10118"


def test_nominatim_structured_postalcode_takes_a_zip_plus_four(home):
    port = free_port()
    log = open(f"{home}/serve.log", "w+")
    server = subprocess.Popen([BIN, "serve", "--port", str(port), "--coastline", "", "--tile-url", ""],
                              env=dict(os.environ, PINDROP_HOME=home), stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_until_answering(server, port, "/status", lambda: open(f"{home}/serve.log").read())
        query = urllib.parse.urlencode({"postalcode": "10118-0110", "country": "us", "format": "jsonv2", "addressdetails": 1})
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/search?{query}", timeout=30) as answer:
            results = json.loads(answer.read())
        assert (results[0]["type"], results[0]["address"]["postcode"]) == ("postcode", "10118")
    finally:
        server.terminate()
        server.wait(timeout=60)
        log.close()


def test_the_shared_store_keeps_the_five_digits_too(home):
    server_url = os.environ["PINDROP_TEST_DATABASE_URL"]
    database = "pindrop_zip_%d" % os.getpid()
    url = urllib.parse.urlunsplit(urllib.parse.urlsplit(server_url)._replace(path="/" + database))
    subprocess.run(["psql", server_url, "-qc", "CREATE DATABASE " + database], check=True, timeout=120)
    shared = tempfile.mkdtemp(prefix="pindrop-zip-pg-")
    try:
        pindrop(shared, "import", "geonames", f"{ROOT}/Tests/PindropImportTests/Fixtures/mini", "--store", url)
        pindrop(shared, "import", "osm", f"{home}/manhattan.osm.pbf", "--store", url)
        first = search(shared, "10118-0110", "--store", url)[0]
        assert (first["category"], first["name"]) == ("postcode", "10118")
        address = search(shared, "350 5th Avenue", "--store", url)[0]["address"]
        assert (address["houseNumber"], address["postcode"]) == ("350", "10118")
    finally:
        shutil.rmtree(shared, ignore_errors=True)
        subprocess.run(["psql", server_url, "-qc", "DROP DATABASE IF EXISTS " + database], timeout=120)
