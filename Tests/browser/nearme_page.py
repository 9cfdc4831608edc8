"""Driving the web app's "Near me" mode in the browser tests: the browser's location (set through Chromium's DevTools
protocol), entering the mode, the radius slider, what the page shows, and /v1/nearby read directly for comparison."""
import urllib.parse

from selenium.webdriver.common.by import By

from conftest import wait
from app import js

HELSINKI = (60.1699, 24.9384)   # the railway station square


def allow_location(driver, server, lat_lon=HELSINKI):
    driver.execute_cdp_cmd("Browser.setPermission", {"permission": {"name": "geolocation"}, "setting": "granted",
                                                     "origin": server.url})
    driver.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": lat_lon[0], "longitude": lat_lon[1], "accuracy": 20})


def refuse_location(driver, server):
    driver.execute_cdp_cmd("Browser.setPermission", {"permission": {"name": "geolocation"}, "setting": "denied",
                                                     "origin": server.url})


def wait_answered(driver, *parts):
    """Waits until the page has the answer to a /v1/nearby request whose URL holds every one of `parts`."""
    wait(driver, lambda d: (lambda url: bool(url) and all(p in url for p in parts))(js(d, "return pindrop.nearme.state.answered")),
         timeout=20, message="no nearby answer with " + ", ".join(parts))


def enter_near_me(driver, *parts):
    driver.find_element(By.ID, "near-me-toggle").click()
    wait_answered(driver, "/v1/nearby", *parts)


def api_nearby_pages(server, lat, lon, radius=1000, category=None):
    """Every venue within the radius (venues only, as Near me asks), following the API's `next` page by page; and the
    `total` of each page."""
    path = "/v1/nearby?lat=%.6f&lon=%.6f&radius=%d&limit=1000&kind=venue" % (lat, lon, radius)
    if category:
        path += "&category=" + urllib.parse.quote(category)
    results, totals, cursor = [], set(), None
    while True:
        status, body = server.api("GET", path + ("&cursor=" + urllib.parse.quote(cursor, safe="") if cursor else ""))
        assert status == 200
        results += body["results"]
        totals.add(body["total"])
        cursor = body["next"]
        if cursor is None:
            return results, totals


def api_nearby(server, lat, lon, radius=1000, category=None):
    results, totals = api_nearby_pages(server, lat, lon, radius, category)
    assert totals == {len(results)}, "every page tells the number of venues in the circle"
    return results


def rows(driver):
    """The names in the list, all of them (thousands: read in one go rather than one WebDriver call per row)."""
    return js(driver, "return [...document.querySelectorAll('#nearme-list .venue-row-name')].map(e => e.textContent)")


def count_text(n, noun="venues", within="1.0 km"):
    return "%s %s within %s." % ("{:,}".format(n), noun, within)


def circle_on_screen(driver):
    """Whether the whole circle lies in the part of the map a person sees: inside the map, clear of the panel."""
    return js(driver, """const c = pindrop.nearme.state.circle, map = pindrop.map; if (!c) return false;
        const b = c.getBounds(), m = map.getContainer().getBoundingClientRect();
        const nw = map.latLngToContainerPoint(b.getNorthWest()), se = map.latLngToContainerPoint(b.getSouthEast());
        const box = {left: m.left + nw.x, top: m.top + nw.y, right: m.left + se.x, bottom: m.top + se.y};
        const p = document.getElementById('panel').getBoundingClientRect();
        const inside = box.left >= m.left && box.top >= m.top && box.right <= m.right && box.bottom <= m.bottom;
        const clear = box.right <= p.left || box.left >= p.right || box.top >= p.bottom || box.bottom <= p.top;
        return inside && clear;""")


def circle(driver):
    return js(driver, """const c = pindrop.nearme.state.circle; if (!c) return null;
        const p = c.getLatLng(); return {lat: p.lat, lon: p.lng, radius: c.getRadius(),
        visible: pindrop.map.getBounds().contains(c.getBounds())};""")


def names_at_street_zoom(driver, centre, names, at_least):
    """Zooms to 18 at `centre`: at least `at_least` pins show names, each a venue found, none printed over another."""
    js(driver, "pindrop.map.setView(arguments[0], 18, {animate: false})", list(centre))
    wait(driver, lambda d: len(js(d, "return pindrop.nearme.venueLabels()")) >= at_least, message="too few names at zoom 18")
    js(driver, "return new Promise(r => setTimeout(r, 400))")
    assert set(js(driver, "return pindrop.nearme.venueLabels()")) <= names
    overlaps = js(driver, """const r = [...document.querySelectorAll('.venue-label:not(.label-hidden)')].map(e => e.getBoundingClientRect());
        let n = 0; r.forEach((a, i) => r.slice(i + 1).forEach(b => {
            if (a.left < b.right && a.right > b.left && a.top < b.bottom && a.bottom > b.top) n++; })); return n;""")
    assert overlaps == 0, "no name is printed over another"


def set_radius(driver, meters):
    """Moves the slider the way a release of the thumb does: an input event while moving, a change event at the end."""
    js(driver, """const s = document.getElementById('nearme-radius'); s.value = arguments[0];
        s.dispatchEvent(new Event('input')); s.dispatchEvent(new Event('change'));""", meters)


def fake_nearby(driver, status, body):
    """Makes /v1/nearby answer `status` with the JSON `body` (None: the server cannot be reached)."""
    js(driver, """const [status, body] = [arguments[0], arguments[1]]; const realFetch = window.fetch;
        window.fetch = (url, options) => !String(url).includes('/v1/nearby') ? realFetch(url, options)
            : body === null ? Promise.reject(new TypeError('Failed to fetch'))
            : Promise.resolve(new Response(JSON.stringify(body), {status, headers: {'Content-Type': 'application/json'}}));""",
       status, body)
