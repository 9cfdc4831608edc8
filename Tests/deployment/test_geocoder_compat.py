"""geopy's own Nominatim and Photon geocoders (PyPI, pinned in scripts/test-shared.sh), unchanged, against a real
`pindrop serve` on the shipped index (cities500, central Helsinki, Liechtenstein): each answer is held against what
/v1 gives for the same question (docs/api-compat.md)."""
import json
import shutil
import subprocess
import tempfile
import urllib.parse
import urllib.request

import pytest
from geopy.exc import GeocoderQueryError
from geopy.geocoders import Nominatim, Photon

from processes import BIN, free_port, wait_until_answering


@pytest.fixture(scope="module")
def server():
    home = tempfile.mkdtemp(prefix="pindrop-compat-")
    port = free_port()
    log = open(f"{home}/serve.log", "w+")
    process = subprocess.Popen([BIN, "serve", "--port", str(port)], env={"PINDROP_HOME": home, "PATH": "/usr/bin:/bin"},
                               stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_until_answering(process, port, "/v1/status", lambda: open(f"{home}/serve.log").read())
        yield port
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()
        shutil.rmtree(home, ignore_errors=True)


def v1(port, path, **query):
    """The results of a /v1 question."""
    url = f"http://127.0.0.1:{port}{path}?" + urllib.parse.urlencode(query)
    with urllib.request.urlopen(url, timeout=10) as answer:
        return json.load(answer)["results"]


def nominatim(port):
    return Nominatim(domain=f"127.0.0.1:{port}", scheme="http", user_agent="pindrop-compat-test", timeout=10)


def photon(port):
    return Photon(domain=f"127.0.0.1:{port}", scheme="http", timeout=10)


def same_point(location, result):
    return abs(location.latitude - result["latitude"]) < 1e-6 and abs(location.longitude - result["longitude"]) < 1e-6


def nominatim_line_start(place):
    """How Nominatim's display_name starts for a /v1 place: its house number and street ("5, Mannerheimintie"), else
    its name."""
    address = place.get("address") or {}
    if address.get("houseNumber") and address.get("street"):
        return "%s, %s" % (address["houseNumber"], address["street"])
    return place["name"]


def test_nominatim_free_form_is_v1_search(server):
    for text in ["Mannerheimintie 5", "Helsinki", "Vaduz", "Städtle 35, Vaduz", "Helsinky"]:
        location = nominatim(server).geocode(text)
        first = v1(server, "/v1/search", q=text, limit=1)[0]
        assert location is not None, text
        assert same_point(location, first), (text, location.raw, first)
        assert location.address.startswith(nominatim_line_start(first)), (location.address, first)


def test_nominatim_structured_street_in_a_town(server):
    location = nominatim(server).geocode({"street": "Mannerheimintie 5", "city": "Helsinki", "country": "Finland"})
    first = v1(server, "/v1/search", q="Mannerheimintie 5", city="Helsinki", limit=1)[0]
    assert same_point(location, first)
    assert location.raw["osm_type"] == "node" and "osm:node/%d" % location.raw["osm_id"] == first["id"]
    # The town narrows: Liechtenstein's "Landstrasse" in Triesen, not in another town.
    triesen = nominatim(server).geocode({"street": "Landstrasse", "city": "Triesen"}, addressdetails=True)
    # Nominatim names the town by its kind: Triesen is a village in OpenStreetMap (place=village).
    assert triesen.raw["address"].get("village") == "Triesen", triesen.raw["address"]


def test_nominatim_many_answers_in_v1_order(server):
    locations = nominatim(server).geocode("Paris", exactly_one=False, limit=5)
    results = v1(server, "/v1/search", q="Paris", limit=5)
    assert len(locations) == len(results) == 5
    assert all(same_point(l, r) for l, r in zip(locations, results))
    assert locations[0].address == "Paris, Ile-de-France, France"


def test_nominatim_address_details_and_language(server):
    location = nominatim(server).geocode("Mannerheimintie 5", addressdetails=True, language="de")
    assert location.raw["address"] == {"house_number": "5", "road": "Mannerheimintie", "city": "Helsinki", "state": "Uusimaa",
                                       "postcode": "00100", "country": "Finnland", "country_code": "fi"}
    assert location.raw["class"] == "place" and location.raw["type"] == "house"
    assert isinstance(location.raw["lat"], str) and len(location.raw["boundingbox"]) == 4


def test_nominatim_filters(server):
    geocoder = nominatim(server)
    assert geocoder.geocode("Paris", country_codes=["us"]).raw["display_name"].endswith("United States")
    # A box around Liechtenstein, as a filter: only its places.
    inside = geocoder.geocode("Vaduz", exactly_one=False, viewbox=[(47.0, 9.4), (47.3, 9.7)], bounded=True)
    assert inside and all(9.4 <= l.longitude <= 9.7 and 47.0 <= l.latitude <= 47.3 for l in inside)
    assert geocoder.geocode("Helsinki", viewbox=[(47.0, 9.4), (47.3, 9.7)], bounded=True) is None


def test_nominatim_reverse_to_a_street_address_in_helsinki(server):
    """Nominatim's reverse answers the nearest address or point of interest; /v1's (the centre pin) the address."""
    for point in [(60.1699, 24.9384), (60.16835, 24.9401), (60.1675, 24.9458)]:
        location = nominatim(server).reverse(point)
        first = v1(server, "/v1/reverse", lat=point[0], lon=point[1])[0]
        address = location.raw["address"]
        assert address["city"] == "Helsinki" and address["country_code"] == "fi" and location.address.endswith("Finland")
        if location.raw["class"] in ("place", "building"):
            # An address: the one /v1 reads at the spot.
            assert address["road"] == first["address"]["street"], (point, address, first)
            assert address.get("house_number") == first["address"].get("houseNumber")
            assert location.address.startswith(nominatim_line_start(first))
        else:
            # A point of interest nearer than that address: one of the venues /v1 lists there, with its street.
            venues = v1(server, "/v1/nearby", lat=point[0], lon=point[1], radius=100, kind="venue", limit=50)
            ids = [venue["id"] for venue in venues]
            assert "osm:%s/%s" % (location.raw["osm_type"], location.raw["osm_id"]) in ids[:3], (point, location.raw, ids[:3])
            assert address.get("road") and location.address.startswith(location.raw["name"])


def test_nominatim_reverse_zoom_answers_the_town(server):
    location = nominatim(server).reverse((47.152407, 9.594155), zoom=10)
    assert location.raw["name"] == "Balzers"
    assert location.raw["addresstype"] == "city"


def test_nominatim_bad_input_is_a_query_error(server):
    with pytest.raises(GeocoderQueryError):
        nominatim(server).geocode({"street": ""})


def test_photon_suggest_is_v1_suggest(server):
    for text in ["Mannerheimintie 5", "Vadu", "Helsinky", "Caf"]:
        location = photon(server).geocode(text)
        first = v1(server, "/v1/suggest", q=text, limit=1, minChars=1)[0]
        assert location is not None, text
        assert same_point(location, first), (text, location.raw, first)
    many = photon(server).geocode("Paris", exactly_one=False, limit=3)
    assert [round(l.latitude, 4) for l in many] == [round(r["latitude"], 4) for r in v1(server, "/v1/suggest", q="Paris", limit=3)]


def test_photon_filters_and_bias(server):
    geocoder = photon(server)
    near_texas = geocoder.geocode("Paris", location_bias=(33.66, -95.55))
    assert near_texas.raw["properties"]["state"] == "Texas"
    streets = geocoder.geocode("Mannerheim", exactly_one=False, osm_tag="highway")
    assert streets and all(s.raw["properties"]["osm_key"] == "highway" for s in streets)


def test_photon_reverse_to_a_street_address(server):
    location = photon(server).reverse((60.1699, 24.9384))
    first = v1(server, "/v1/reverse", lat=60.1699, lon=24.9384)[0]
    properties = location.raw["properties"]
    assert properties["street"] == first["address"]["street"]
    assert properties["housenumber"] == first["address"]["houseNumber"]
    assert properties["countrycode"] == "FI"
    assert same_point(location, first)


def test_nominatim_language_names_the_country(server):
    # Nominatim's language scenario: Liechtenstein asked in Chinese, then German (geopy sends accept-language).
    location = nominatim(server).geocode("Liechtenstein", language="zh,de")
    assert location.raw["osm_type"] == "relation" and location.raw["osm_id"] == 1155955
    assert location.raw["name"] == location.address == "列支敦士登"


def test_nominatim_geometry_and_details(server):
    # osmnx's geocode_to_gdf asks polygon_geojson=1: a town with a boundary comes back as an area.
    location = nominatim(server).geocode("Vaduz", geometry="geojson", namedetails=True, extratags=True)
    first = v1(server, "/v1/search", q="Vaduz", limit=1)[0]
    box = first["boundingBox"]
    shape = location.raw["geojson"]
    assert shape["type"] == "Polygon"
    corners = {(round(lon, 7), round(lat, 7)) for lon, lat in shape["coordinates"][0]}
    assert corners == {(round(lon, 7), round(lat, 7)) for lon in (box["west"], box["east"]) for lat in (box["south"], box["north"])}
    assert location.raw["namedetails"]["name"] == first["name"]
    assert isinstance(location.raw["extratags"], dict)
    text = nominatim(server).geocode("Mannerheimintie 5", geometry="wkt")
    assert text.raw["geotext"] == "POINT(%s %s)" % (text.raw["lon"].rstrip("0"), text.raw["lat"].rstrip("0"))


def test_nominatim_coordinate_only_is_reverse(server):
    # A text that is only a coordinate answers what is there, as reverse does.
    for text, point in [("60.16835, 24.9401", (60.16835, 24.9401)), ("N 60.16835° E 24.9401°", (60.16835, 24.9401))]:
        location = nominatim(server).geocode(text, addressdetails=True)
        there = nominatim(server).reverse(point)
        assert location is not None, text
        assert location.raw["osm_id"] == there.raw["osm_id"] and location.address == there.address
    assert nominatim(server).geocode("-21.0,-33.0") is None
