"""The offline basemap: GSHHG coastlines, lakes and country borders from /v1/basemap, drawn on a canvas
under everything, in a real headless Chromium against a second `pindrop serve` without online tiles (--tile-url "")
so only the offline map shows; and the Natural Earth countries when the server has no coastline data
(--coastline ""). Screenshots of Helsinki at zoom 3, 8 and 12, desktop and phone, go to build/screenshots/."""
import json
import urllib.request

import pytest
from selenium.webdriver.common.by import By

from app import js, js_errors
from conftest import make_driver, screenshot, wait
from test_hardening import start_server, stop_server   # a `pindrop serve` of the test's own with some flags

HELSINKI = [60.17, 24.94]
LAND_RGB, SEA_RGB = (242, 239, 233), (170, 211, 223)
# Per zoom: the resolution the server picks, a point on land and one at sea, both well away from any coast at
# that zoom's pixel size (about 10 km a pixel at zoom 3, 300 m at 8, 20 m at 12 this far north).
VIEWS = {
    3: ("c", (62.0, 26.0), (55.0, -30.0)),       # central Finland; the North Atlantic
    8: ("i", (60.30, 24.95), (59.90, 24.90)),    # Vantaa, north of Helsinki; the middle of the Gulf of Finland
    12: ("f", (60.17, 24.94), (60.14, 24.94)),   # Helsinki's centre; the open sea south of it, 1 km from any island
}


@pytest.fixture(scope="module")
def offline_url():
    process, port, work = start_server("--tile-url", "")
    yield "http://127.0.0.1:%d" % port
    stop_server(process, work)


def get_json(url):
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read())


def open_at(driver, url, center, zoom):
    driver.get(url + "/")
    wait(driver, lambda d: d.execute_script("return document.body.dataset.ready === 'true'"), message="the app did not start")
    show(driver, center, zoom)


def show(driver, center, zoom):
    js(driver, "pindrop.map.setView(arguments[0], arguments[1], {animate: false})", center, zoom)
    wait(driver, lambda d: js(d, "return pindrop.basemap.current && pindrop.basemap.featureCount > 0"), timeout=20,
         message="the basemap was not drawn at zoom %d" % zoom)
    # Leaflet paints its canvas on the next animation frames: read pixels after them.
    js(driver, "return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 50))))")


def pixel(driver, lat_lon):
    """The basemap canvas's colour [r, g, b, a] at a place (alpha 0: nothing painted, the sea-blue background)."""
    return js(driver, """const map = pindrop.map, p = map.latLngToContainerPoint(arguments[0]);
        const canvas = map.getPane('basemap').querySelector('canvas');
        const m = map.getContainer().getBoundingClientRect(), c = canvas.getBoundingClientRect();
        const x = Math.round((m.left + p.x - c.left) * canvas.width / c.width);
        const y = Math.round((m.top + p.y - c.top) * canvas.height / c.height);
        return Array.from(canvas.getContext('2d').getImageData(x, y, 1, 1).data);""", list(lat_lon))


def looks(rgba):
    near = lambda rgb: all(abs(a - b) <= 6 for a, b in zip(rgba, rgb))
    if rgba[3] == 0 or (rgba[3] == 255 and near(SEA_RGB)):
        return "water"
    return "land" if rgba[3] == 255 and near(LAND_RGB) else "other %s" % rgba


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_land_and_water_at_zoom_3_8_and_12_over_helsinki(offline_url, size):
    driver = make_driver(*size, mobile=size[0] < 600)
    if size[0] >= 600:   # the page itself 1280 × 900, not the window
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": False})
    try:
        open_at(driver, offline_url, HELSINKI, 3)
        for zoom, (resolution, land, sea) in VIEWS.items():
            show(driver, HELSINKI, zoom)
            assert js(driver, "return pindrop.basemap.resolution") == resolution
            # The canvas paints on the next frame: wait until both places show their colour.
            wait(driver, lambda d: looks(pixel(d, land)) == "land" and looks(pixel(d, sea)) == "water", timeout=5,
                 message="zoom %d: land %s looks %s, sea %s looks %s"
                 % (zoom, land, looks(pixel(driver, land)), sea, looks(pixel(driver, sea))))
            assert driver.find_elements(By.CSS_SELECTOR, ".leaflet-basemap-pane canvas")
            screenshot(driver, "basemap-z%d-helsinki%s" % (zoom, "-phone" if size[0] < 600 else ""))
        attribution = driver.find_element(By.CSS_SELECTOR, ".leaflet-control-attribution").text
        assert "GSHHG coastlines" in attribution
        assert js_errors(driver) == []
    finally:
        driver.quit()


def test_answers_are_small_where_people_look(offline_url):
    """A city view is a few tens of kilobytes at the finest detail; the world at zoom 3 is the crude set."""
    city = get_json(offline_url + "/v1/basemap?bbox=24.80,60.10,25.10,60.25&zoom=12")
    assert city["resolution"] == "f"
    assert 0 < len(json.dumps(city)) < 100_000
    kinds = {f["properties"]["kind"] for f in city["features"]}
    assert "land" in kinds
    world = get_json(offline_url + "/v1/basemap?bbox=-180,-85,180,85&zoom=3")
    assert world["resolution"] == "c"
    assert {"land", "water", "border"} <= {f["properties"]["kind"] for f in world["features"]}


def test_moving_the_map_redraws_and_stale_answers_never_win(offline_url):
    driver = make_driver(1280, 900)
    try:
        open_at(driver, offline_url, HELSINKI, 12)
        # Three quick moves: only the last view's answer may be drawn.
        for center in ([48.85, 2.35], [40.71, -74.0], [35.68, 139.76]):
            js(driver, "pindrop.map.setView(arguments[0], 10, {animate: false})", center)
        show(driver, [35.68, 139.76], 10)
        assert looks(pixel(driver, (35.80, 139.60))) == "land"        # Tokyo's north-west, inland
        assert looks(pixel(driver, (35.45, 139.85))) == "water"       # Tokyo Bay
        # Across the antimeridian (Fiji at 180°) both sides are drawn.
        show(driver, [-16.5, 180.0], 9)
        assert looks(pixel(driver, (-16.45, 179.3))) == "land"        # Vanua Levu, west of 180°
        assert looks(pixel(driver, (-16.15, 180.04))) == "land"       # its Udu Point beyond 180° (GSHHG: -179.96)
        assert looks(pixel(driver, (-17.5, 179.0))) == "water"        # the Koro Sea
        assert js_errors(driver) == []
    finally:
        driver.quit()


def test_without_coastline_data_the_natural_earth_countries_are_drawn(browser):
    process, port, work = start_server("--tile-url", "", "--coastline", "")
    url = "http://127.0.0.1:%d" % port
    try:
        assert get_json(url + "/v1/config")["coastline"] is False
        browser.get(url + "/")
        wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".leaflet-basemap-pane path")) > 100,
             message="the Natural Earth countries were not drawn")
        assert "Natural Earth" in browser.find_element(By.CSS_SELECTOR, ".leaflet-control-attribution").text
        screenshot(browser, "basemap-fallback-natural-earth")
        assert js_errors(browser) == []
    finally:
        stop_server(process, work)
