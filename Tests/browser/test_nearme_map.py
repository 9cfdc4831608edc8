"""The offline street basemap under "Near me", and every venue of a large circle counted, listed and named as the zoom
allows, on a desktop and on a phone, in a real headless Chromium against `pindrop serve` on the default index.
Screenshots go to build/screenshots/."""
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import screenshot, wait
from app import js, js_errors, open_app
from nearme_page import (HELSINKI, allow_location, wait_answered, enter_near_me, api_nearby_pages, api_nearby, rows, count_text,
    circle_on_screen, circle, names_at_street_zoom, set_radius)


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

    js(browser, "pindrop.map.setView(arguments[0], 11, {animate: false})", list(HELSINKI))
    wait(browser, lambda d: js(d, "return pindrop.nearme.streetFeatureCount()") == 0,
         message="the street layer is hidden when zoomed out")
    assert not [c for c in browser.find_elements(By.CSS_SELECTOR, ".leaflet-streets-pane canvas") if c.is_displayed()]
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
