"""The web app's "Near me" mode and the offline street basemap, in a real headless Chromium
against `pindrop serve` on the default index (GeoNames + the OpenStreetMap extract of central Helsinki).
The browser's location is set through Chromium's DevTools protocol. Screenshots go to build/screenshots/."""
import re
import time
import urllib.parse

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import screenshot, wait
from app import HOSTILE, js, js_errors, open_app

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
    """Every venue within the radius, following the API's `next` page by page; and the `total` of each page."""
    path = "/v1/nearby?lat=%.6f&lon=%.6f&radius=%d&limit=1000" % (lat, lon, radius)
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


# ---------------------------------------------------------------- with the user's location


def test_with_permission_venues_around_the_user_with_names_under_pins_and_the_circle(browser, server):
    allow_location(browser, server)
    open_app(browser, server)
    enter_near_me(browser, "radius=1000")
    c = circle(browser)
    assert abs(c["lat"] - HELSINKI[0]) < 1e-5 and abs(c["lon"] - HELSINKI[1]) < 1e-5, "the search is centred on the user"
    assert c["radius"] == 1000, "the default radius is 1000 m"
    assert browser.find_elements(By.CSS_SELECTOR, "path.nearme-circle"), "the searched circle is drawn"
    assert browser.find_elements(By.CSS_SELECTOR, ".you-are-here:not(.nearme-default)"), "the user's own position is marked"
    assert "your location" in browser.find_element(By.ID, "nearme-where").text

    expected = api_nearby(server, *HELSINKI)
    assert len(expected) > 100, "central Helsinki has more venues within 1 km than one page of the old API held"
    assert all(p["distanceMeters"] <= 1000 for p in expected)
    assert rows(browser) == [p["name"] for p in expected], "the list is every venue in the circle, nearest first"
    assert browser.find_element(By.ID, "nearme-count").text == count_text(len(expected))
    assert circle_on_screen(browser), "the whole 1 km circle is on screen, clear of the panel"

    names = {p["name"] for p in expected}
    labels = js(browser, "return pindrop.nearme.venueLabels()")
    assert len(labels) >= 5, "pins show their names (dense spots are clustered until zoomed in)"
    assert set(labels) <= names
    assert browser.find_element(By.ID, "near-me-toggle").get_attribute("aria-pressed") == "true"
    screenshot(browser, "30-nearme-allowed")

    # Zoomed in, clusters open into pins with names; a name that would cover a nearer venue's name waits.
    names_at_street_zoom(browser, HELSINKI, names, at_least=15)
    screenshot(browser, "31-nearme-labels-zoomed-in")
    assert js_errors(browser) == []


def test_the_radius_slider_reloads_venues_and_redraws_the_circle(browser, server):
    allow_location(browser, server)
    open_app(browser, server)
    enter_near_me(browser, "radius=1000")
    wide = rows(browser)
    js(browser, """window.__nearbyURLs = []; const realFetch = window.fetch;
        window.fetch = (url, options) => { if (String(url).includes('/v1/nearby')) window.__nearbyURLs.push(String(url));
                                            return realFetch(url, options); };""")
    set_radius(browser, 100)
    wait_answered(browser, "radius=100")
    assert js(browser, "return window.__nearbyURLs.length") == 1, "one release of the slider is one request"
    expected = api_nearby(server, *HELSINKI, radius=100)
    assert 0 < len(expected) < 1000 and all(p["distanceMeters"] <= 100 for p in expected)
    assert rows(browser) == [p["name"] for p in expected]
    assert rows(browser) != wide
    assert browser.find_element(By.ID, "nearme-radius-value").text == "100 m"
    assert browser.find_element(By.ID, "nearme-count").text == count_text(len(expected), within="100 m")
    c = circle(browser)
    assert c["radius"] == 100 and c["visible"] and circle_on_screen(browser), "the whole circle is on screen"
    screenshot(browser, "32-nearme-radius-100m")

    set_radius(browser, 5000)
    wait_answered(browser, "radius=5000")
    assert browser.find_element(By.ID, "nearme-radius-value").text == "5.0 km"
    assert circle(browser)["radius"] == 5000 and circle_on_screen(browser), "the 5 km circle is fitted on screen"
    everything = api_nearby(server, *HELSINKI, radius=5000)
    assert len(everything) > 1000, "several pages of venues within 5 km"
    assert rows(browser) == [p["name"] for p in everything]
    assert browser.find_element(By.ID, "nearme-count").text == count_text(len(everything), within="5.0 km")
    slider = browser.find_element(By.ID, "nearme-radius")
    assert (slider.get_attribute("min"), slider.get_attribute("max")) == ("100", "5000")


def test_the_category_filter_keeps_only_that_kind(browser, server):
    allow_location(browser, server)
    open_app(browser, server)
    enter_near_me(browser, "radius=1000")
    Select(browser.find_element(By.ID, "nearme-category")).select_by_value("cafe")
    wait_answered(browser, "category=cafe")
    cafes = api_nearby(server, *HELSINKI, category="cafe")
    assert cafes and all(p["category"] == "cafe" for p in cafes)
    assert rows(browser) == [p["name"] for p in cafes]
    details = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#nearme-list .venue-row-details")]
    assert details and all(d.startswith("Cafe · ") for d in details)
    assert browser.find_element(By.ID, "nearme-count").text == count_text(len(cafes), "cafés")
    assert circle(browser)["visible"]
    screenshot(browser, "33-nearme-cafes")

    Select(browser.find_element(By.ID, "nearme-category")).select_by_value("")
    wait(browser, lambda d: "category=" not in js(d, "return pindrop.nearme.state.answered"))
    assert rows(browser) == [p["name"] for p in api_nearby(server, *HELSINKI)]


def test_tapping_a_pin_shows_name_category_and_address(browser, server):
    allow_location(browser, server)
    open_app(browser, server)
    enter_near_me(browser, "radius=1000")
    venue = next(p for p in api_nearby(server, *HELSINKI, category="restaurant")
                 if p.get("address", {}).get("street") and p["address"].get("houseNumber") and '"' not in p["name"])
    js(browser, "pindrop.map.setView(arguments[0], 19, {animate: false})", [venue["latitude"], venue["longitude"]])
    # The pins of a large circle arrive in chunks and the clusters redraw them as they come: a tap on a pin that is
    # being replaced opens nothing, so tap the shown pin again until its card opens, as a person would.
    def tapped(d):
        popups = [p for p in d.find_elements(By.CSS_SELECTOR, ".venue-popup") if p.is_displayed()]
        if popups:
            return popups
        pins = [e for e in d.find_elements(By.CSS_SELECTOR, '.venue-pin[title="%s"]' % venue["name"]) if e.is_displayed()]
        if pins:
            try:
                pins[0].click()
            except WebDriverException:
                return False                     # replaced between finding and tapping: the next round finds it
            time.sleep(0.5)
        return False
    popup = wait(browser, tapped, timeout=20, message="tapping the pin opened no card")[0]
    a = venue["address"]
    assert popup.find_element(By.CSS_SELECTOR, ".popup-name").text == venue["name"]
    assert popup.find_element(By.CSS_SELECTOR, ".venue-category").text == "Restaurant"
    assert popup.find_element(By.CSS_SELECTOR, ".venue-address").text.startswith(a["street"] + " " + a["houseNumber"])
    screenshot(browser, "34-nearme-pin-tapped")

    # The list opens the same card.
    browser.find_element(By.CSS_SELECTOR, ".leaflet-popup-close-button").click()
    index = [p["name"] for p in api_nearby(server, *HELSINKI)].index(venue["name"])
    browser.find_elements(By.CSS_SELECTOR, "#nearme-list .venue-row")[index].click()
    wait(browser, lambda d: any(p.is_displayed() and venue["name"] in p.text for p in d.find_elements(By.CSS_SELECTOR, ".venue-popup")))


# ---------------------------------------------------------------- without the user's location


def test_refused_location_says_so_and_searches_around_the_default_location(browser, server):
    refuse_location(browser, server)
    open_app(browser, server)
    enter_near_me(browser, "radius=1000")
    message = browser.find_element(By.ID, "message")
    assert message.is_displayed()
    assert "refused" in message.text and "default location" in message.text
    assert "near Paris, the default location" in message.text, "the default place by name, not by coordinates"
    assert not re.search(r"\d+\.\d{3}", message.text)
    where = browser.find_element(By.ID, "nearme-where")
    assert "refused" in where.text and "default location" in where.text, "the panel keeps saying so after the message goes"
    default = server.api("GET", "/v1/config")[1]["defaultCenter"]
    c = circle(browser)
    assert abs(c["lat"] - default["latitude"]) < 1e-5 and abs(c["lon"] - default["longitude"]) < 1e-5
    assert browser.find_elements(By.CSS_SELECTOR, ".you-are-here.nearme-default"), "the default spot is marked as such"
    expected = api_nearby(server, default["latitude"], default["longitude"])
    assert rows(browser) == [p["name"] for p in expected]
    count = browser.find_element(By.ID, "nearme-count").text
    assert count == "No venues within 1.0 km." if not expected else count.endswith("within 1.0 km.")
    screenshot(browser, "35-nearme-refused-default-location")


def test_leaving_the_mode_clears_it_and_asks_again_next_time(browser, server):
    allow_location(browser, server)
    open_app(browser, server)
    js(browser, """window.__locationAsks = 0; const real = navigator.geolocation.getCurrentPosition.bind(navigator.geolocation);
        navigator.geolocation.getCurrentPosition = (...a) => { window.__locationAsks++; return real(...a); };
        navigator.geolocation.watchPosition = () => { throw new Error('the location must not be tracked'); };""")
    enter_near_me(browser, "radius=1000")
    assert js(browser, "return window.__locationAsks") == 1, "the location is taken once"
    browser.find_element(By.ID, "near-me-toggle").click()
    assert not browser.find_element(By.ID, "nearme").is_displayed()
    wait(browser, lambda d: js(d, "return document.querySelectorAll('.venue-pin, .venue-label, path.nearme-circle').length") == 0,
         message="pins, labels and the circle go with the mode")
    js(browser, "pindrop.nearme.state.answered = null")
    enter_near_me(browser, "radius=1000")
    assert js(browser, "return window.__locationAsks") == 2


# ---------------------------------------------------------------- errors and hostile data


def fake_nearby(driver, status, body):
    """Makes /v1/nearby answer `status` with the JSON `body` (None: the server cannot be reached)."""
    js(driver, """const [status, body] = [arguments[0], arguments[1]]; const realFetch = window.fetch;
        window.fetch = (url, options) => !String(url).includes('/v1/nearby') ? realFetch(url, options)
            : body === null ? Promise.reject(new TypeError('Failed to fetch'))
            : Promise.resolve(new Response(JSON.stringify(body), {status, headers: {'Content-Type': 'application/json'}}));""",
       status, body)


def test_errors_from_every_layer_reach_the_user(browser, server):
    allow_location(browser, server)
    open_app(browser, server)
    fake_nearby(browser, 503, {"error": {"code": "index_unavailable", "message": "the index file is missing"}})
    enter_near_me(browser, "radius=1000")
    message = browser.find_element(By.ID, "message")
    assert message.is_displayed() and "The server's place index is not available right now." in message.text
    assert "index file" not in message.text, "the server's words for developers stay out of the page"
    assert browser.find_element(By.ID, "nearme-count").text == "Venues could not be loaded."
    screenshot(browser, "36-nearme-server-error")

    fake_nearby(browser, 200, None)
    set_radius(browser, 500)
    wait_answered(browser, "radius=500")
    assert "The Pindrop server cannot be reached. Check your connection and try again." in browser.find_element(By.ID, "message").text

    fake_nearby(browser, 200, {"query": {}, "oops": []})
    set_radius(browser, 600)
    wait_answered(browser, "radius=600")
    assert "cannot read" in browser.find_element(By.ID, "message").text


def test_venue_names_are_text_never_html(browser, server):
    allow_location(browser, server)
    open_app(browser, server)
    venue = {"id": "osm:node/1", "name": HOSTILE, "displayName": HOSTILE, "latitude": HELSINKI[0], "longitude": HELSINKI[1],
             "category": "<b>cafe</b>", "address": {"street": HOSTILE, "houseNumber": "1"}, "distanceMeters": 3}
    fake_nearby(browser, 200, {"query": {}, "results": [venue]})
    enter_near_me(browser, "radius=1000")
    assert rows(browser) == [HOSTILE]
    assert js(browser, "return pindrop.nearme.venueLabels()") == [HOSTILE]
    browser.find_element(By.CSS_SELECTOR, "#nearme-list .venue-row").click()
    popup = wait(browser, lambda d: [p for p in d.find_elements(By.CSS_SELECTOR, ".venue-popup") if p.is_displayed()])[0]
    assert HOSTILE in popup.text
    assert js(browser, "return document.querySelectorAll('#nearme img, .leaflet-tooltip img, .leaflet-popup img, .venue-popup b').length") == 0
    assert js(browser, "return window.__alerts") == []


# ---------------------------------------------------------------- the offline street basemap


def test_streets_and_buildings_are_drawn_at_street_zoom_with_credit(browser, server):
    open_app(browser, server)
    js(browser, "pindrop.map.setView(arguments[0], 16, {animate: false})", list(HELSINKI))
    wait(browser, lambda d: js(d, "return pindrop.nearme.streetFeatureCount()") > 200, timeout=20,
         message="the street layer was not drawn at zoom 16 over Helsinki")
    assert browser.find_elements(By.CSS_SELECTOR, ".leaflet-streets-pane canvas")
    attribution = browser.find_element(By.CSS_SELECTOR, ".leaflet-control-attribution").text
    assert "OpenStreetMap contributors" in attribution
    credit = server.api("GET", "/v1/streetmap?bbox=24.93,60.16,24.94,60.17")[1]["attribution"]
    assert credit and all(c in attribution for c in credit)
    # Something other than the land colour is painted where the streets are (no online tiles here).
    painted = js(browser, """const c = document.querySelector('.leaflet-streets-pane canvas');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0;
        for (let i = 3; i < d.length; i += 4 * 16) if (d[i] > 0) n++; return n / (d.length / 64);""")
    assert painted > 0.1, "streets and buildings cover a good part of the view"
    screenshot(browser, "37-street-basemap-z16")

    js(browser, "pindrop.map.setView(arguments[0], 18, {animate: false})", [60.1687, 24.9417])
    wait(browser, lambda d: js(d, "return pindrop.nearme.streetFeatureCount()") > 0)
    screenshot(browser, "38-street-basemap-z18")

    js(browser, "pindrop.map.setView(arguments[0], 13, {animate: false})", list(HELSINKI))
    wait(browser, lambda d: js(d, "return pindrop.nearme.streetFeatureCount()") == 0,
         message="the street layer is hidden when zoomed out")
    assert not browser.find_elements(By.CSS_SELECTOR, ".leaflet-streets-pane canvas")
    assert all(c not in browser.find_element(By.CSS_SELECTOR, ".leaflet-control-attribution").text
               for c in credit if "Street data" in c), "the street credit goes with the streets"
    assert js_errors(browser) == []


def test_near_me_over_the_street_basemap_on_a_phone(phone, server):
    allow_location(phone, server)
    open_app(phone, server)
    enter_near_me(phone, "radius=1000")
    set_radius(phone, 100)
    wait_answered(phone, "radius=100")
    wait(phone, lambda d: js(d, "return pindrop.nearme.streetFeatureCount()") > 50, timeout=20)
    assert circle(phone)["visible"]
    for control in ("nearme-radius", "nearme-category"):
        r = phone.find_element(By.ID, control).rect
        assert 0 <= r["x"] and r["x"] + r["width"] <= 375, control
    screenshot(phone, "39-nearme-phone")


# ---------------------------------------------------------------- every venue inside the circle


def test_every_venue_in_the_circle_is_counted_listed_and_named_as_the_zoom_allows(browser, server):
    browser.set_window_size(1280, 900)
    allow_location(browser, server)
    open_app(browser, server)
    enter_near_me(browser, "radius=1000")
    set_radius(browser, 2000)
    wait_answered(browser, "radius=2000")
    results, totals = api_nearby_pages(server, *HELSINKI, radius=2000)
    assert totals == {len(results)} and len(results) > 1000
    heading = browser.find_element(By.ID, "nearme-count").text
    assert heading == count_text(len(results), within="2.0 km"), "the heading counts every venue the API counts"
    listed = browser.find_elements(By.CSS_SELECTOR, "#nearme-list li")
    assert int(heading.split(" ")[0].replace(",", "")) == len(listed), "the heading's number is the number of list entries"
    assert len(set(rows(browser))) > 0.8 * len(listed)
    assert circle_on_screen(browser)
    screenshot(browser, "40-nearme-2km-all-venues")

    # The list scrolls to its end and the last venue is the farthest inside the circle.
    last = listed[-1]
    js(browser, "arguments[0].scrollIntoView()", last)
    assert last.is_displayed() and last.text.startswith(results[-1]["name"])
    assert last.text.endswith("%.1f km" % (results[-1]["distanceMeters"] / 1000)), last.text

    # Zoomed in where venues crowd, pins stand alone with their names; none is printed over another.
    names_at_street_zoom(browser, (60.1686, 24.9412), {p["name"] for p in results}, at_least=10)
    assert not browser.find_elements(By.CSS_SELECTOR, ".marker-cluster"), "no cluster bubbles at street zoom"
    screenshot(browser, "41-nearme-2km-zoom18-names")
    assert js_errors(browser) == []


def test_a_few_venues_are_named_without_clusters_and_none_says_so(browser, server):
    allow_location(browser, server)
    open_app(browser, server)
    enter_near_me(browser, "radius=1000")
    Select(browser.find_element(By.ID, "nearme-category")).select_by_value("hotel")
    wait_answered(browser, "category=hotel")
    set_radius(browser, 5000)
    wait_answered(browser, "radius=5000", "category=hotel")
    hotels = api_nearby(server, *HELSINKI, radius=5000, category="hotel")
    assert 5 <= len(hotels) <= 60, "a few hotels within 5 km"
    assert browser.find_element(By.ID, "nearme-count").text == count_text(len(hotels), "hotels", "5.0 km")
    screenshot(browser, "44-nearme-hotels-5km")
    assert not browser.find_elements(By.CSS_SELECTOR, ".marker-cluster"), "a few venues are never clustered"
    assert len(browser.find_elements(By.CSS_SELECTOR, ".venue-pin")) == len(hotels), "every hotel has its own pin"
    # Zoomed out they crowd the centre, so only the names with room show; none covers another.
    names_at_street_zoom(browser, HELSINKI, {p["name"] for p in hotels}, at_least=1)

    # One hotel, then none: the count says so in words.
    set_radius(browser, 100)
    wait_answered(browser, "radius=100", "category=hotel")
    assert browser.find_element(By.ID, "nearme-count").text == count_text(len(api_nearby(server, *HELSINKI, 100, "hotel")), "hotels", "100 m")
    Select(browser.find_element(By.ID, "nearme-category")).select_by_value("cinema")
    wait_answered(browser, "radius=100", "category=cinema")
    assert api_nearby(server, *HELSINKI, radius=100, category="cinema") == []
    assert browser.find_element(By.ID, "nearme-count").text == "No cinemas within 100 m."
    assert rows(browser) == []


def test_the_circle_is_fitted_on_a_phone(server):
    from conftest import make_driver
    phone = make_driver(390, 844, mobile=True)
    try:
        allow_location(phone, server)
        open_app(phone, server)
        enter_near_me(phone, "radius=1000")
        assert circle_on_screen(phone), "the circle is fitted below the panel"
        set_radius(phone, 3000)
        wait_answered(phone, "radius=3000")
        total = len(api_nearby(server, *HELSINKI, radius=3000))
        assert phone.find_element(By.ID, "nearme-count").text == count_text(total, within="3.0 km")
        screenshot(phone, "42-nearme-phone-3km")
        phone.find_element(By.ID, "panel-toggle").click()
        wait(phone, lambda d: js(d, "return document.getElementById('panel').classList.contains('collapsed')"))
        set_radius(phone, 2000)
        wait_answered(phone, "radius=2000")
        assert circle_on_screen(phone), "with the list folded away the whole circle is on the phone's screen"
        screenshot(phone, "43-nearme-phone-2km-folded")
    finally:
        phone.quit()
