"""The chosen place's card: what it holds (name, what it is, the formatted address on its own line, the distance from
you, opening hours, phone and website when the result carries them, directions, Share, Save), the focus moving to it,
a pin opening it rather than a popup, and Back closing it. Also the phone's bottom sheet, the folded credits, the
labelled map buttons and their pressed look, the notice when location is off, and Music without a music service."""
import urllib.parse

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from app import js, open_app, search, start_server, stop_server
from conftest import make_driver, screenshot, wait
from nearme_page import allow_location, refuse_location

EXTRAS = {"opening_hours": "Mo-Fr 10:00-20:00; Sa 10:00-18:00", "contact:phone": "+358 9 123 4567",
          "website": "https://example.org/menu"}


def add_extratags(driver, extratags):
    """Makes /v1 search results carry `extratags` (as the server's will), for the card to show."""
    js(driver, """const tags = arguments[0], realFetch = window.fetch;
        window.fetch = async (url, options) => { const response = await realFetch(url, options);
            if (!String(url).startsWith('/v1/search')) return response;
            const body = await response.json(); body.results.forEach(r => { r.extratags = tags; });
            return new Response(JSON.stringify(body), {status: response.status, headers: {'Content-Type': 'application/json'}}); };""",
       extratags)


def open_first_result(driver, text):
    search(driver, text)
    driver.find_elements(By.CSS_SELECTOR, "#results .result-list .row")[0].click()
    wait(driver, lambda d: d.find_element(By.ID, "place-card").is_displayed())


def test_the_card_says_what_the_place_has(browser, server):
    allow_location(browser, server)                          # the railway station square, 200 m from the café
    open_app(browser, server)
    add_extratags(browser, EXTRAS)
    open_first_result(browser, "Hard Rock Cafe")
    place = server.api("GET", "/v1/search?q=" + urllib.parse.quote("Hard Rock Cafe"))[1]["results"][0]
    assert browser.find_element(By.ID, "place-name").text == place["name"] == "Hard Rock Cafe Helsinki"
    assert browser.find_element(By.ID, "place-category").text == "Restaurant"
    assert browser.find_element(By.ID, "place-address").text == place["address"]["formatted"]
    assert browser.find_element(By.ID, "place-distance").text.endswith("m from you")
    details = browser.find_element(By.ID, "place-details").text
    assert "Mo-Fr 10:00-20:00\nSa 10:00-18:00" in details and "+358 9 123 4567" in details and "example.org/menu" in details
    assert browser.find_element(By.CSS_SELECTOR, "#place-details a[href^='tel:']").get_attribute("href") == "tel:+35891234567"
    links = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, "#place-directions a")]
    assert [urllib.parse.urlparse(h).hostname for h in links] == ["www.openstreetmap.org", "www.google.com", "maps.apple.com"]
    assert js(browser, "return document.activeElement.id") == "place-card", "the focus moves to the card"
    assert browser.find_element(By.ID, "place-card").get_attribute("aria-labelledby") == "place-name"
    assert not browser.find_elements(By.CSS_SELECTOR, ".leaflet-popup"), "no popup repeats the card"
    screenshot(browser, "card-hard-rock-cafe")
    # Save is a few Tab presses away.
    presses = 0
    while js(browser, "return document.activeElement.id") != "save-button" and presses < 6:
        browser.switch_to.active_element.send_keys(Keys.TAB)
        presses += 1
    assert presses <= 3, "Save is %d Tab presses from the card" % presses


def test_without_extratags_the_card_shows_none(browser, server):
    open_app(browser, server)
    open_first_result(browser, "Paris")   # a GeoNames town: no opening hours, phone or website
    assert browser.find_element(By.ID, "place-details").text == ""
    assert browser.find_element(By.ID, "place-distance").text == "", "no distance without your position"


def test_share_gives_the_link_that_reopens_the_place(browser, server):
    browser.execute_cdp_cmd("Browser.grantPermissions", {"permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"],
                                                         "origin": server.url})
    open_app(browser, server)
    open_first_result(browser, "Schloss Vaduz")
    browser.find_element(By.ID, "share-button").click()
    note = browser.find_element(By.ID, "share-note")
    wait(browser, lambda d: note.text)
    link = note.text.split(": ", 1)[1]
    assert "#place=" in link and note.text.startswith(("Link copied", "Copy this link"))
    name = browser.find_element(By.ID, "place-name").text
    # Opened afresh, as whoever it was sent to opens it (the same page with a new hash would not load again).
    browser.get("about:blank")
    open_app(browser, server, "/" + link.split("/", 3)[3])
    wait(browser, lambda d: d.find_element(By.ID, "place-card").is_displayed())
    assert browser.find_element(By.ID, "place-name").text == name


def test_a_pin_opens_its_card_and_back_closes_it(browser, server):
    open_app(browser, server)
    search(browser, "Schloss Vaduz")
    browser.find_element(By.ID, "display-all").click()
    # Close enough that the castle's pins are not clustered (they stand 50 m apart).
    js(browser, "pindrop.map.setView([47.13957, 9.52438], 19, {animate: false})")
    # Leaflet keeps pins a little outside the view in the page too: the one to click is one in view.
    height = js(browser, "return window.innerHeight")
    def in_view(d):
        pins = d.find_elements(By.CSS_SELECTOR, ".leaflet-marker-icon[title^='Schloss Vaduz']")
        return [p for p in pins if p.rect["y"] >= 0 and p.rect["x"] >= 0 and p.rect["y"] + p.rect["height"] <= height]
    wait(browser, in_view)
    in_view(browser)[0].click()
    wait(browser, lambda d: d.find_element(By.ID, "place-card").is_displayed())
    assert not browser.find_elements(By.CSS_SELECTOR, ".leaflet-popup")
    assert not browser.find_element(By.CSS_SELECTOR, "#results .result-list").is_displayed(), "the card takes the list's place"
    browser.back()
    wait(browser, lambda d: not d.find_element(By.ID, "place-card").is_displayed(), message="Back did not close the card")
    assert browser.find_element(By.CSS_SELECTOR, "#results .result-list").is_displayed(), "the list is back"
    assert browser.current_url.startswith(server.url), "Back stayed in the app"


def test_the_phone_sheet_peek_half_full_swipe_and_back(server):
    phone = make_driver(390, 844, mobile=True)
    try:
        open_app(phone, server)
        panel = phone.find_element(By.ID, "panel")
        height = lambda: panel.rect["height"]
        # The sheet may still be sliding into its peek when the page is ready: read it once it rests at the bottom.
        wait(phone, lambda d: panel.rect["y"] + height() == 844, message="the sheet rests at the bottom")
        assert 100 <= height() <= 140 and panel.rect["y"] + height() == 844, "the sheet peeks at the bottom"
        for button in ("near-me-toggle", "saved-button", "center-pin-toggle"):
            chip = phone.find_element(By.ID, button)
            assert chip.is_displayed() and chip.text, button + " is a labelled chip in the sheet"
            assert panel.rect["y"] <= chip.rect["y"] <= 844
        # A swipe up with the thumb on the handle: the sheet follows, and settles at half or full.
        handle = phone.find_element(By.ID, "sheet-handle")
        y = handle.rect["y"] + 8
        phone.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": 195, "y": y}]})
        for step in range(1, 9):
            phone.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": 195, "y": y - step * 40}]})
        phone.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        wait(phone, lambda d: height() > 380, message="the swipe did not raise the sheet")
        screenshot(phone, "sheet-raised")
        handle.click()
        wait(phone, lambda d: height() > 700, message="a tap on the handle raises it to full")
        handle.click()
        wait(phone, lambda d: height() < 140, message="and from full back to its peek")
        # The card in the sheet; Back closes it, and the app stays open.
        search(phone, "Hard Rock Cafe")
        phone.find_elements(By.CSS_SELECTOR, "#results .result-list .row")[0].click()
        wait(phone, lambda d: d.find_element(By.ID, "place-card").is_displayed())
        # The sheet slides to the card's height: read it once it rests.
        wait(phone, lambda d: panel.rect["y"] > 300, message="the map stays above the card's sheet")
        card = phone.find_element(By.ID, "place-card").rect
        assert card["y"] < 844 and panel.rect["y"] > 300, "the card in the sheet, the map above it"
        screenshot(phone, "sheet-card")
        phone.back()
        wait(phone, lambda d: not d.find_element(By.ID, "place-card").is_displayed())
        assert phone.current_url.startswith(server.url)
        # The map's buttons above the sheet, within reach; the credits one line.
        for control in ("zoom-in", "zoom-out", "my-location"):
            r = phone.find_element(By.ID, control).rect
            assert r["x"] + r["width"] <= 390 and r["y"] + r["height"] <= panel.rect["y"], control
            assert phone.find_element(By.ID, control).get_attribute("aria-label")
        credits = phone.find_element(By.ID, "credits").rect
        assert credits["height"] <= 20 and credits["y"] + credits["height"] <= panel.rect["y"] + 1
    finally:
        phone.quit()


def test_pressed_buttons_stand_out_and_every_button_is_labelled(browser, server):
    open_app(browser, server)
    for button in ("my-location", "center-pin-toggle", "near-me-toggle", "saved-button"):
        element = browser.find_element(By.ID, button)
        assert element.text.strip() and element.get_attribute("aria-label"), button + " has a visible label"
    browser.find_element(By.ID, "center-pin-toggle").click()
    colours = js(browser, """const s = getComputedStyle(document.getElementById('center-pin-toggle'));
        return [s.backgroundColor, s.color];""")
    assert colours == ["rgb(26, 95, 208)", "rgb(255, 255, 255)"], colours   # white on #1a5fd0: 6.1:1
    screenshot(browser, "buttons-pressed")


def test_location_refused_is_said_on_opening(browser, server):
    refuse_location(browser, server)
    open_app(browser, server)
    notice = browser.find_element(By.CSS_SELECTOR, "#location-notice")
    wait(browser, lambda d: notice.is_displayed(), message="no notice when location is off")
    assert "Location is off" in notice.text and "default view" in notice.text
    assert not browser.find_element(By.ID, "message").is_displayed(), "a notice, not an error"
    screenshot(browser, "location-refused-notice")
    notice.find_element(By.TAG_NAME, "button").click()
    assert not browser.find_elements(By.CSS_SELECTOR, "#location-notice")


def test_no_music_mode_without_a_music_service(browser):
    process, port, work = start_server(without=("PINDROP_MUSICBRAINZ_URL", "PINDROP_MUSICBRAINZ_CONTACT"))
    try:
        class Own:
            url = "http://127.0.0.1:%d" % port
        open_app(browser, Own)
        assert not browser.find_element(By.ID, "music-toggle").is_displayed()
        assert browser.find_element(By.ID, "near-me-toggle").is_displayed()
    finally:
        stop_server(process, work)
