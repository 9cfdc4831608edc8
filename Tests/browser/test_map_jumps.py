"""The street layer is painted after every jump into street zoom a person makes: picking a venue from a city's
results, My location from a zoomed-out view, picking a bridge in Vaduz, moving Near me's radius on a phone. Each
time the tiles of the new view are drawn and cover a good part of it (pixels read from the layer's canvases)."""
from selenium.webdriver.common.by import By

from app import choose_first_suggestion, js, open_app, search, wait_idle_map
from conftest import make_driver, screenshot, wait
from map_page import painted
from nearme_page import HELSINKI, allow_location, enter_near_me, set_radius, wait_answered


def street_layer_painted(driver, name, least=0.2):
    wait_idle_map(driver)
    wait(driver, lambda d: js(d, "return pindrop.map.getZoom()") >= 15 and js(d, "return pindrop.streetMap.ready()"), timeout=30,
         message=name + ": the street tiles were not drawn")
    share = painted(driver)
    screenshot(driver, "jump-" + name)
    assert share >= least, "%s: the street layer covers %.0f%% of the view" % (name, share * 100)
    return share


def test_picking_a_venue_after_a_city_search(browser, server):
    open_app(browser, server)
    search(browser, "Helsinki")
    assert js(browser, "return pindrop.map.getZoom()") <= 12
    choose_first_suggestion(browser, "Hard Rock Cafe")
    assert js(browser, "return pindrop.map.getZoom()") == 17
    street_layer_painted(browser, "hard-rock-cafe")


def test_my_location_from_a_zoomed_out_view(browser, server):
    allow_location(browser, server)
    open_app(browser, server)
    js(browser, "pindrop.map.setView([50, 10], 4, {animate: false})")
    wait_idle_map(browser)
    browser.find_element(By.ID, "my-location").click()
    wait(browser, lambda d: js(d, "return pindrop.map.getZoom()") >= 15, message="My location did not zoom in")
    street_layer_painted(browser, "my-location")
    # The accuracy circle is drawn, and dragging the map ends following: it does not snap back.
    assert js(browser, "return pindrop.locate.accuracy") == 20
    assert js(browser, "return pindrop.locate.following") is True
    js(browser, "pindrop.map.fire('dragstart'); pindrop.map.panBy([300, 0], {animate: false}); pindrop.map.fire('dragend')")
    wait(browser, lambda d: js(d, "return pindrop.locate.following") is False)
    assert browser.find_element(By.ID, "my-location").get_attribute("aria-pressed") == "false"


def test_picking_the_old_rhine_bridge_in_vaduz(browser, server):
    open_app(browser, server)
    search(browser, "Alte Rheinbrücke")
    rows = browser.find_elements(By.CSS_SELECTOR, "#results .result-list .row")
    row = next(r for r in rows if "Vaduz" in r.text)
    row.click()
    wait(browser, lambda d: d.find_element(By.ID, "place-card").is_displayed())
    street_layer_painted(browser, "alte-rheinbruecke")
    # The Rhine is drawn under it: the water's blue in the layer within 40 pixels of the bridge's middle.
    blue = js(browser, """const p = pindrop.map.latLngToContainerPoint([47.13262, 9.51253]), m = pindrop.map.getContainer().getBoundingClientRect();
        let found = 0;
        for (const c of document.querySelectorAll('.leaflet-streets-pane canvas.leaflet-tile-loaded')) {
            const r = c.getBoundingClientRect(), s = c.width / r.width, ctx = c.getContext('2d');
            for (let dy = -40; dy <= 40; dy += 4) for (let dx = -40; dx <= 40; dx += 4) {
                const x = m.left + p.x + dx, y = m.top + p.y + dy;
                if (x < r.left || x >= r.right || y < r.top || y >= r.bottom) continue;
                const d = ctx.getImageData(Math.floor((x - r.left) * s), Math.floor((y - r.top) * s), 1, 1).data;
                if (d[3] > 0 && d[2] > d[0] + 30 && d[2] > 180) found++;
            }
        }
        return found;""")
    assert blue > 10, "the Rhine's water is drawn under the bridge (%d blue samples)" % blue


def test_moving_near_mes_radius_on_a_phone(server):
    phone = make_driver(390, 844, mobile=True)
    try:
        allow_location(phone, server, HELSINKI)
        open_app(phone, server)
        js(phone, "pindrop.map.setView([60.17, 24.94], 5, {animate: false})")
        enter_near_me(phone, "radius=1000")
        set_radius(phone, 300)
        wait_answered(phone, "radius=300")
        street_layer_painted(phone, "nearme-radius-phone")
    finally:
        phone.quit()
