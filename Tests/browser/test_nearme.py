"""The web app's "Near me" mode in a real headless Chromium against `pindrop serve` on the default index (GeoNames + the
OpenStreetMap extract of central Helsinki): venues around the user, the radius and category, a venue's details, a refused
location, leaving the mode, errors and hostile names. Screenshots go to build/screenshots/."""
import re
import time

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import screenshot, wait
from app import HOSTILE, js, js_errors, open_app
from nearme_page import (HELSINKI, allow_location, refuse_location, wait_answered, enter_near_me, api_nearby, rows, count_text,
    circle_on_screen, circle, names_at_street_zoom, set_radius, fake_nearby)


# ---------------------------------------------------------------- with the user's location

# What people look for on a map first: sights, hotels, places to eat and drink, parks, shops to visit, churches.
PLACES_TO_GO = {"museum", "gallery", "theatre", "cinema", "library", "arts_centre", "attraction", "concert_hall", "hotel",
                "hostel", "restaurant", "cafe", "fast_food", "bar", "pub", "nightclub", "park", "garden", "mall",
                "department_store", "place_of_worship", "sports_centre", "swimming_pool"}


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
    assert len(expected) > 100, "central Helsinki has more than 100 venues within 1 km"
    assert all(p["distanceMeters"] <= 1000 for p in expected)
    assert rows(browser) == [p["name"] for p in expected], "the list is every venue in the circle, nearest first"
    assert browser.find_element(By.ID, "nearme-count").text == count_text(len(expected))
    assert circle_on_screen(browser), "the whole 1 km circle is on screen, clear of the panel"

    names = {p["name"] for p in expected}
    # Central Helsinki's every named venue (offices, stops and artworks too) is dense at the circle's zoom: most pins
    # are clustered there, but the first view names several places, most of them places people go to.
    wait(browser, lambda d: len(js(d, "return pindrop.nearme.venueLabels()")) >= 8, message="fewer than 8 names in the first view")
    labels = js(browser, "return pindrop.nearme.venueLabels()")
    assert set(labels) <= names
    to_go_to = [n for n in labels if any(p["name"] == n and p["category"] in PLACES_TO_GO for p in expected)]
    print("first view: %d names, %d of places to go to: %s" % (len(labels), len(to_go_to), labels))
    assert len(to_go_to) >= 6, labels
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
