"""The web app's Music mode in a real headless Chromium against `pindrop serve`, whose
music search reads the local MusicBrainz-compatible server (`pindrop-fake-services`, started by
scripts/test-browser.sh: "Berlin" matches 4000 places = 40 pages, other queries 250 = 3 pages; the server asks for
one page per second). Screenshots go to build/screenshots/music-*.png."""
import time
import urllib.parse

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from app import js
from conftest import screenshot, wait

HOSTILE = "<img src=x onerror=alert(1)>"


def open_music(driver, server):
    driver.get(server.url + "/")
    wait(driver, lambda d: d.execute_script("return document.body.dataset.ready === 'true' && !!window.pindrop.music"),
         message="the app did not start")
    driver.execute_script("window.__alerts = []; window.alert = (m) => window.__alerts.push(String(m));")
    driver.find_element(By.ID, "music-toggle").click()
    wait(driver, lambda d: d.find_element(By.ID, "music").is_displayed(), message="the Music panel did not open")


def music_search(driver, text):
    field = driver.find_element(By.ID, "music-q")
    field.clear()
    field.send_keys(text)
    field.send_keys(Keys.ENTER)


def search_state(driver, index=-1):
    """A search of this page as the app recorded it (the newest by default)."""
    return js(driver, "const h = pindrop.music.state.history; const s = h[h.length + arguments[0]] || h[arguments[0]];"
                      "return s && {query: s.query, status: s.status, pages: s.pages, pagesTotal: s.pagesTotal,"
                      "kept: s.kept, firstPinMs: s.firstPinMs};", index)


def open_popup(driver):
    """The open pin popup, once it has faded in (Selenium reads no text from an invisible element)."""
    wait(driver, lambda d: any(e.is_displayed() for e in d.find_elements(By.CSS_SELECTOR, ".leaflet-popup .music-popup-name")),
         message="no popup opened")
    return driver.find_element(By.CSS_SELECTOR, ".leaflet-popup .music-popup")


def pin_count(driver):
    return js(driver, "return pindrop.music.pinCount()")


def progress_percent(driver):
    return int(driver.find_element(By.ID, "music-progress").get_attribute("aria-valuenow"))


def record_progress(driver):
    """What the user sees after each progress event (the server sends one after each page's places), recorded by
    the page itself: the fake server sends a page every 50 ms, less than a few WebDriver round trips take on a
    loaded machine, so reading the page from the test could see a later page instead."""
    js(driver, """window.__pages = [];
        const Original = window.EventSource;
        window.EventSource = function (url, options) {
          const source = new Original(url, options);
          const add = source.addEventListener.bind(source);
          source.addEventListener = (type, listener, o) => add(type, (event) => {
            listener(event);
            if (type !== 'progress') return;
            const h = pindrop.music.state.history, s = h[h.length - 1], bar = document.getElementById('music-progress');
            window.__pages.push({pins: pindrop.music.pinCount(), status: s.status, pagesTotal: s.pagesTotal,
                                 percent: Number(bar.getAttribute('aria-valuenow')), barShown: !bar.hidden && bar.offsetParent !== null,
                                 text: document.getElementById('music-status').textContent});
          }, o);
          return source;
        };""")


def test_pins_appear_as_pages_arrive_with_a_progress_bar(browser, server):
    open_music(browser, server)
    record_progress(browser)
    music_search(browser, "Copenhagen")
    # The first page's pins come at once; the progress bar then shows 1 of 3 pages before the end.
    wait(browser, lambda d: pin_count(d) > 0, timeout=5, message="no pin appeared")
    screenshot(browser, "music-progress")
    first = search_state(browser)
    assert first["firstPinMs"] is not None and first["firstPinMs"] < 1200, first
    print("time to first pin: %d ms" % first["firstPinMs"])
    page = js(browser, "return window.__pages.find(p => p.pins > 0)")
    assert page["status"] == "running" and page["pagesTotal"] == 3, page
    assert 0 < page["percent"] < 100 and page["barShown"], page
    assert "Page 1 of 3" in page["text"], page

    wait(browser, lambda d: search_state(d)["status"] == "finished", timeout=15, message="the search did not finish")
    assert progress_percent(browser) == 100
    done = search_state(browser)
    assert done["pages"] == 3
    # Page by page, with the pins of the pages so far on the map (the last before the summary replaced the line).
    pages = js(browser, "return window.__pages.filter(p => p.pins > 0).map(p => p.text.split(' · ')[0])")
    assert sorted(set(pages)) == ["Page 1 of 3", "Page 2 of 3", "Page 3 of 3"] and pages == sorted(pages), pages
    status = browser.find_element(By.ID, "music-status").text
    assert status.startswith("Done: %d places" % done["kept"]), status
    # Pins with a lifespan of a second or more are on the map (1990 places live 0 s), and are on screen.
    assert pin_count(browser) > 20
    visible = js(browser, "const b = pindrop.map.getBounds(); return pindrop.music.state.history.length &&"
                          "[...pindrop.music.state.pins].filter(p => b.contains(p.marker.getLatLng())).length")
    assert visible > 0.9 * pin_count(browser)
    assert not browser.find_element(By.ID, "music-cancel").is_enabled()
    assert js(browser, "return window.__alerts.length") == 0
    screenshot(browser, "music-done")


def test_cancel_stops_the_search_and_keeps_the_pins(browser, server):
    open_music(browser, server)
    music_search(browser, "Berlin")
    wait(browser, lambda d: search_state(d)["pages"] >= 2, timeout=10, message="pages did not arrive")
    browser.find_element(By.ID, "music-cancel").click()
    cancelled = search_state(browser)
    assert cancelled["status"] == "cancelled" and cancelled["pagesTotal"] == 40
    assert js(browser, "return pindrop.music.state.source") is None
    text = browser.find_element(By.ID, "music-status").text
    assert text.startswith("Cancelled after %d of 40 pages" % cancelled["pages"]), text
    pins = pin_count(browser)
    assert pins > 0
    # Nothing more arrives: the page count stays and the pins only ever get fewer as they expire.
    time.sleep(2.5)
    after = search_state(browser)
    assert after["pages"] == cancelled["pages"] and after["status"] == "cancelled"
    assert pin_count(browser) <= pins
    assert progress_percent(browser) < 100
    assert not browser.find_element(By.ID, "music-cancel").is_enabled()
    screenshot(browser, "music-cancelled")


def test_a_new_query_cancels_the_running_one(browser, server):
    open_music(browser, server)
    music_search(browser, "Berlin")
    wait(browser, lambda d: search_state(d)["pages"] >= 1, timeout=10, message="Berlin did not start")
    music_search(browser, "Helsinki")
    old = search_state(browser, 0)
    assert old["query"] == "Berlin" and old["status"] == "replaced"
    wait(browser, lambda d: search_state(d)["status"] == "finished", timeout=15, message="Helsinki did not finish")
    new = search_state(browser)
    assert new["query"] == "Helsinki" and new["pages"] == 3
    # Berlin got no further page after it was replaced, and only Helsinki's pins are on the map (around Helsinki).
    assert search_state(browser, 0)["pages"] == old["pages"]
    lats = js(browser, "return [...pindrop.music.state.pins].map(p => p.place.latitude)")
    assert lats and all(59 < lat < 61 for lat in lats), lats[:5]


def test_a_pin_shows_name_type_address_year_and_directions(browser, server):
    open_music(browser, server)
    music_search(browser, "Copenhagen")
    wait(browser, lambda d: search_state(d)["status"] == "finished", timeout=15)
    # The longest-lived pin, so it is still there while the test reads it.
    place = js(browser, """const pins = [...pindrop.music.state.pins].filter(p => p.place.address)
                              .sort((a, b) => b.place.lifespanSeconds - a.place.lifespanSeconds);
                           const p = pins[0]; p.marker.fire('click'); return p.place;""")
    popup = open_popup(browser)
    assert popup.find_element(By.CSS_SELECTOR, ".music-popup-name").text == place["name"]
    assert popup.find_element(By.CSS_SELECTOR, ".music-popup-type").text == "%s · opened %d" % (place["type"], place["openYear"])
    assert popup.find_element(By.CSS_SELECTOR, ".music-popup-address").text.startswith(place["address"])
    links = {a.text: a.get_attribute("href") for a in popup.find_elements(By.CSS_SELECTOR, ".music-directions a")}
    assert set(links) == {"OpenStreetMap", "Google Maps", "Apple Maps"}
    point = "%.6f,%.6f" % (place["latitude"], place["longitude"])
    for href in links.values():
        assert point in urllib.parse.unquote(href), href
    assert links["Google Maps"].startswith("https://www.google.com/maps/dir/?api=1&destination=")
    assert links["Apple Maps"].startswith("https://maps.apple.com/?daddr=")
    assert links["OpenStreetMap"].startswith("https://www.openstreetmap.org/directions?")
    assert all(a.get_attribute("target") == "_blank" for a in popup.find_elements(By.CSS_SELECTOR, ".music-directions a"))
    screenshot(browser, "music-popup")


def test_a_short_lived_pin_blinks_fades_to_white_and_goes(browser, server):
    open_music(browser, server)
    music_search(browser, "Copenhagen")
    wait(browser, lambda d: search_state(d)["status"] == "finished", timeout=15)
    # Follow a pin opened in 1991-1993 (lifespan 1-3 s: its whole life is its last seconds) from its arrival, and
    # a long-lived one, so both are measured from the same moment.
    music_search(browser, "Copenhagen")
    wait(browser, lambda d: js(d, "return pindrop.music.pins().some(p => p.lifespan <= 3)"), timeout=10,
         message="no pin with a lifespan of 3 s or less arrived")
    short = js(browser, "return pindrop.music.pins().filter(p => p.lifespan <= 3).sort((a, b) => b.lifespan - a.lifespan)[0]")
    long_lived = js(browser, "return pindrop.music.pins().filter(p => p.lifespan >= 20)[0]")
    element = "document.querySelector('.music-pin[data-id=\"' + arguments[0] + '\"]')"
    assert js(browser, "return %s.classList.contains('fading')" % element, short["id"])
    colours = []
    started = time.time()
    while time.time() - started < short["lifespan"] + 1.5:
        colour = js(browser, "const e = %s; return e ? getComputedStyle(e).backgroundColor : null" % element, short["id"])
        if colour is None:
            break
        colours.append(colour)
        if len(colours) == 3:
            screenshot(browser, "music-fading")
        time.sleep(0.05)
    gone_after = time.time() - started
    assert colours and colours[-1] is not None
    assert gone_after <= short["lifespan"] + 1.0, "the pin stayed %.1f s" % gone_after
    rgb = [tuple(int(v) for v in c[c.index("(") + 1:c.index(")")].split(",")[:3]) for c in colours]
    # Red at first, pink on the way, close to white at the end: red stays high while green and blue rise.
    assert all(r >= 200 for r, _, _ in rgb), rgb
    assert rgb[0][1] < 120, rgb[0]
    assert max(g for _, g, _ in rgb) > 180, rgb
    assert js(browser, "return pindrop.music.pins().some(p => p.id === arguments[0])", short["id"]) is False
    # A pin with 20 s or more to live is still there and not yet fading.
    if long_lived:
        alive = js(browser, "return pindrop.music.pins().find(p => p.id === arguments[0])", long_lived["id"])
        assert alive and not alive["fading"]


def test_names_stay_text_and_errors_are_explained(browser, server):
    open_music(browser, server)
    # Empty text: a message, no request.
    music_search(browser, "   ")
    error = browser.find_element(By.ID, "music-error")
    assert error.is_displayed() and "Type a city" in error.text
    # A name that looks like HTML is shown as those characters.
    js(browser, """pindrop.music.addPins([{id: 'musicbrainz:x', name: arguments[0], type: 'Venue', latitude: 55.67,
                    longitude: 12.56, address: 'Vesterbro <b>1</b>', area: null, openYear: 2020, lifespanSeconds: 30,
                    geocoded: false}]);
                    [...pindrop.music.state.pins].find(p => p.place.id === 'musicbrainz:x').marker.fire('click');""", HOSTILE)
    popup = open_popup(browser)
    assert popup.find_element(By.CSS_SELECTOR, ".music-popup-name").text == HOSTILE
    assert "Vesterbro <b>1</b>" in popup.find_element(By.CSS_SELECTOR, ".music-popup-address").text
    assert not browser.find_elements(By.CSS_SELECTOR, ".music-popup img, .music-popup b")
    assert js(browser, "return window.__alerts.length") == 0
    # A query the server refuses (too long): the server's own message, not a silent failure.
    music_search(browser, "x" * 300)
    wait(browser, lambda d: d.find_element(By.ID, "music-error").is_displayed(), timeout=10)
    assert "longer than 256 characters" in browser.find_element(By.ID, "music-error").text
    assert search_state(browser)["status"] == "failed"


def test_music_mode_on_a_phone(phone, server):
    open_music(phone, server)
    music_search(phone, "Copenhagen")
    wait(phone, lambda d: pin_count(d) > 0, timeout=5)
    wait(phone, lambda d: search_state(d)["status"] == "finished", timeout=15)
    # Everything of the panel fits the 375 px width; the Cancel button is reachable; pins are below the panel.
    for element_id in ("music-q", "music-search", "music-cancel", "music-progress"):
        box = phone.find_element(By.ID, element_id).rect
        assert box["x"] >= 0 and box["x"] + box["width"] <= 375, (element_id, box)
    sheet_top = phone.find_element(By.ID, "panel").rect["y"]
    assert sheet_top > 667 * 0.4, "the sheet leaves the upper half of the screen to the map"
    on_screen = js(phone, "return [...document.querySelectorAll('.music-pin')].filter(e => {"
                          "const r = e.getBoundingClientRect(); return r.top > 0 && r.bottom < arguments[0] && r.left >= 0 && r.right <= 375;}).length",
                   sheet_top)
    assert on_screen > 0
    screenshot(phone, "music-phone")
