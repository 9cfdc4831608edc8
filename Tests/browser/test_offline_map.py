"""The offline map a person sees without a network: place names from the index at every zoom, the
tiles given up after they fail with one "Offline map" notice, and the map opened from a fresh page. Screenshots
of zooms 3, 8, 12 and 16 over Helsinki at both window sizes go to build/screenshots/."""
import pytest
from selenium.webdriver.common.by import By

from app import js, js_errors, open_app, wait_idle_map
from conftest import make_driver, screenshot, wait

HELSINKI = (60.1699, 24.9384)


def show(driver, zoom, center=HELSINKI):
    js(driver, "pindrop.map.setView([arguments[0], arguments[1]], arguments[2], {animate: false})", center[0], center[1], zoom)
    wait_idle_map(driver)
    wait(driver, lambda d: js(d, "return pindrop.labelsDrawnZoom()") == zoom, timeout=20,
         message="no place names drawn at zoom %d" % zoom)
    if zoom >= 14:                                     # the imported streets are drawn there too
        wait(driver, lambda d: js(d, "return pindrop.nearme.streetFeatureCount()") > 0, timeout=20,
             message="no streets at zoom %d" % zoom)
    return label_texts(driver)


def label_texts(driver):
    return js(driver, "return [...document.querySelectorAll('.map-label')].map(e => e.textContent)")


def label_boxes(driver):
    return js(driver, """return [...document.querySelectorAll('.map-label')].map(e => {
        const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom, e.textContent]; })""")


def overlapping(boxes):
    return [(a[4], b[4]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
            if a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1]


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_the_offline_map_names_places_at_every_zoom(server, size):
    driver = make_driver(*size, mobile=size[0] < 500)
    try:
        open_app(driver, server)
        wait(driver, lambda d: js(d, "return pindrop.map.tilesOffline === true"), timeout=20,
             message="the failed tiles were not given up")
        seen = {}
        for zoom in (3, 8, 12, 16):
            seen[zoom] = show(driver, zoom)
            assert overlapping(label_boxes(driver)) == [], "names drawn over each other at zoom %d" % zoom
            screenshot(driver, "offline-z%d-helsinki-%dx%d" % (zoom, size[0], size[1]))
        # The world view names countries and only the great cities; zooming in brings the towns, then districts.
        world = [t.upper() for t in seen[3]]
        assert {"RUSSIA", "SWEDEN"} <= set(world) or size[0] < 500 and "RUSSIA" in world, world
        assert "Helsinki" in seen[8] and ("Turku" in seen[8] or size[0] < 500), seen[8]
        assert any(t in seen[12] for t in ("Kallio", "Töölö", "Lauttasaari", "Pasila")), seen[12]
        assert "Kamppi" in seen[16] or "Kluuvi" in seen[16] or size[0] < 500 and seen[16], seen[16]
        assert all("<" not in t for z in seen for t in seen[z])
        assert js_errors(driver) == []
    finally:
        driver.quit()


def test_names_asked_for_before_a_pan_keep_clear_of_each_other(browser, server):
    """The map pans while the place names are asked for: the names drawn when they come keep clear of the country names
    placed before the pan (the boxes are compared where the names stand, not where the screen had them)."""
    open_app(browser, server)
    wait(browser, lambda d: js(d, "return pindrop.map.tilesOffline === true"), timeout=20)
    show(browser, 3)
    # The names' answers held until the test lets them go.
    js(browser, """window.heldLabels = []; const real = window.fetch;
        window.fetch = (url, ...rest) => String(url).includes('/v1/labels')
            ? new Promise((go) => window.heldLabels.push(go)).then(() => real(url, ...rest)) : real(url, ...rest);""")
    js(browser, "pindrop.map.setView([20, 10], 3, {animate: false})")
    wait(browser, lambda d: js(d, "return window.heldLabels.length") == 1, timeout=10,
         message="the place names were not asked for")
    # Pan, let the answer through at once, and look before the names are drawn again for the new view (120 ms on).
    boxes = js(browser, """pindrop.map.panBy([300, 120], {animate: false});
        window.heldLabels.forEach((go) => go());
        await new Promise((r) => setTimeout(r, 60));
        if (pindrop.labelsDrawnZoom() !== 3) return null;
        return [...document.querySelectorAll('.map-label')].map(e => {
            const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom, e.textContent]; });""")
    assert boxes, "the names asked for before the pan were not drawn"
    assert len(boxes) > 10 and overlapping(boxes) == [], overlapping(boxes)


def test_failed_tiles_are_given_up_and_said_once(browser, server):
    open_app(browser, server)
    wait(browser, lambda d: js(d, "return pindrop.map.tilesOffline === true"), timeout=20)
    badges = browser.find_elements(By.CSS_SELECTOR, ".offline-badge")
    assert [b.text for b in badges] == ["Offline map"]
    asked = js(browser, "return performance.getEntriesByType('resource').filter(e => e.name.includes('tile.openstreetmap')).length")
    for zoom in (5, 9, 13):                            # moving around asks for no more tiles
        js(browser, "pindrop.map.setView([48.85, 2.35], arguments[0], {animate: false})", zoom)
        wait_idle_map(browser)
    js(browser, "return new Promise(r => setTimeout(r, 500))")
    assert js(browser, "return performance.getEntriesByType('resource').filter(e => e.name.includes('tile.openstreetmap')).length") == asked
    assert len(browser.find_elements(By.CSS_SELECTOR, ".offline-badge")) == 1
    assert not browser.find_element(By.ID, "message").is_displayed(), "no error message for an expected offline state"
    assert "Paris" in show(browser, 9, (48.85, 2.35))


def test_labels_api_names_the_view_biggest_first(server):
    status, body = server.api("GET", "/v1/labels?bbox=19,58,31,62&zoom=8")
    assert status == 200
    names = [label["name"] for label in body["labels"]]
    assert names[:2] == ["Saint Petersburg", "Helsinki"] or names[0] == "Helsinki"
    populations = [label["population"] for label in body["labels"]]
    assert populations == sorted(populations, reverse=True)
    assert all(19 <= l["longitude"] <= 31 and 58 <= l["latitude"] <= 62 for l in body["labels"])
    assert server.api("GET", "/v1/labels?bbox=19,58,31,62")[0] == 400      # zoom is required
    assert server.api("GET", "/v1/labels?bbox=19,58,31&zoom=8")[0] == 400
