"""Places inside places in the web app: an area found by name (a town's boundary, a county) fills the view with
the whole area, as Google Maps frames a town, and its card reads the chain that holds it."""
from selenium.webdriver.common.by import By

from app import api_search, js, open_app, search, wait_idle_map
from conftest import screenshot, wait


def view_bounds(driver):
    return js(driver, "const b = pindrop.map.getBounds(); return [b.getSouth(), b.getWest(), b.getNorth(), b.getEast()];")


def covers(view, box, slack=0.002):
    south, west, north, east = view
    return (south <= box["south"] + slack and west <= box["west"] + slack
            and north >= box["north"] - slack and east >= box["east"] - slack)


def test_picking_a_county_frames_its_whole_boundary(browser, server):
    results = api_search(server, "Oberland")
    first = results[0]
    assert first["id"] == "osm:relation/1156142" and first["displayName"] == "Oberland, Liechtenstein"
    box = first["boundingBox"]
    open_app(browser, server)
    search(browser, "Oberland")
    browser.find_elements(By.CSS_SELECTOR, "#results .result-list .row")[0].click()
    wait_idle_map(browser)
    wait(browser, lambda d: covers(view_bounds(d), box), message="the view does not hold all of Oberland")
    # Framed, not zoomed out to the continent: the view is at most a few times the county's size.
    south, west, north, east = view_bounds(browser)
    assert (north - south) < 4 * (box["north"] - box["south"])
    screenshot(browser, "area-oberland")


def test_a_town_with_a_boundary_is_framed_by_it_and_a_point_place_keeps_its_zoom(browser, server):
    vaduz = api_search(server, "Vaduz")[0]
    assert vaduz["id"] == "geonames:3042030" and "boundingBox" in vaduz
    open_app(browser, server)
    search(browser, "Vaduz")
    browser.find_elements(By.CSS_SELECTOR, "#results .result-list .row")[0].click()
    wait_idle_map(browser)
    wait(browser, lambda d: covers(view_bounds(d), vaduz["boundingBox"]), message="the view does not hold Vaduz's boundary")
    # Helsinki's boundary is cut by its extract: it has no box, and the app zooms to its point as before.
    helsinki = api_search(server, "Helsinki")[0]
    assert "boundingBox" not in helsinki
