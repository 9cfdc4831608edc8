"""Search as you type in a real headless Chromium: suggestions, recent addresses, and the centre pin's address.
Screenshots go to build/screenshots/."""
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from app import (api_suggest, choose_first_suggestion, js, map_center, open_app, suggestions, type_slowly, view_query,
                 wait_idle_map, wait_suggestions_for)
from conftest import make_driver, screenshot, wait


# ---------------------------------------------------------------- suggestions and recent addresses


def test_suggestions_after_min_chars_with_arrow_keys_enter_and_escape(browser, server):
    open_app(browser, server)
    min_chars = server.api("GET", "/v1/config")[1]["suggestMinChars"]
    field = browser.find_element(By.ID, "q")
    field.click()
    type_slowly(browser, "Helsin"[:min_chars - 1])
    js(browser, "return new Promise(r => setTimeout(r, 400))")
    assert [s for s in suggestions(browser) if not s["recent"]] == [], "no suggestions below the minimum characters"
    type_slowly(browser, "Helsin"[min_chars - 1:])
    shown = wait_suggestions_for(browser, "Helsin")
    assert [s["text"] for s in shown if not s["recent"]][:3] == [t for t in api_suggest(server, "Helsin", view_query(browser))
                                                                 if t not in [r["text"] for r in shown if r["recent"]]][:3]
    screenshot(browser, "11-suggestions")

    field.send_keys(Keys.ARROW_DOWN)
    assert suggestions(browser)[0]["active"]
    field.send_keys(Keys.ARROW_DOWN)
    assert suggestions(browser)[1]["active"] and not suggestions(browser)[0]["active"]
    field.send_keys(Keys.ARROW_UP)
    assert suggestions(browser)[0]["active"]

    field.send_keys(Keys.ESCAPE)
    assert not browser.find_element(By.ID, "suggestions").is_displayed()
    assert field.get_attribute("value") == "Helsin"

    field.send_keys("k")
    shown = wait_suggestions_for(browser, "Helsink")
    target = next(i for i, s in enumerate(shown) if not s["recent"])
    for _ in range(target + 1):
        field.send_keys(Keys.ARROW_DOWN)
    chosen = suggestions(browser)[target]
    assert chosen["active"]
    field.send_keys(Keys.ENTER)
    assert not browser.find_element(By.ID, "suggestions").is_displayed()
    assert field.get_attribute("value") == chosen["text"]
    place = next(p for p in server.api("GET", "/v1/suggest?limit=8&q=Helsink")[1]["results"] if p["displayName"] == chosen["text"])
    wait(browser, lambda d: abs(map_center(d)[0] - place["latitude"]) < 0.01 and abs(map_center(d)[1] - place["longitude"]) < 0.01,
         message="the map is not centred on the choice")
    assert browser.find_element(By.ID, "place-card").is_displayed(), "a pin and its card for the chosen address"
    wait(browser, lambda d: server.api("GET", "/v1/recent")[1]["results"][0]["id"] == place["id"])
    screenshot(browser, "12-suggestion-chosen")


def test_zoomed_in_on_a_town_suggestions_favour_what_is_near_the_view(browser, server):
    """At street zoom in central Helsinki, three letters of a café's name bring the cafés around the view first, as
    on any map; the same letters without a location answer the world's places."""
    centre = (60.1699, 24.9384)
    near = server.api("GET", "/v1/suggest?limit=8&q=Kah&lat=%.5f&lon=%.5f" % centre)[1]["results"]
    world = api_suggest(server, "Kah")
    assert near[0]["id"].startswith("osm:") and "Helsinki" in near[0]["displayName"], "a venue near the view first"
    assert world[0] != near[0]["displayName"], "without a location the first answer is another place"
    open_app(browser, server)
    js(browser, "pindrop.map.setView(arguments[0], 16, {animate: false})", list(centre))
    browser.find_element(By.ID, "q").click()
    type_slowly(browser, "Kah")
    shown = [s["text"] for s in wait_suggestions_for(browser, "Kah") if not s["recent"]]
    assert shown[0] == near[0]["displayName"], shown
    screenshot(browser, "13-suggestions-near-the-view")


def test_a_stale_suggestion_answer_never_replaces_a_newer_one(browser, server):
    open_app(browser, server)
    wait_idle_map(browser)            # the view the page will ask from, once it rests
    near = view_query(browser)
    old, new = api_suggest(server, "Hels", near), api_suggest(server, "Helsinki", near)
    assert old != new
    # A recent address that matches is listed as recent, and the next suggestion takes its room: the order is checked
    # against the engine's longer list.
    longer = [p["displayName"] for p in server.api("GET", "/v1/suggest?limit=20&q=Helsinki" + near)[1]["results"]]
    # The answer for "Hels" arrives 1.5 s late, long after the answer for "Helsinki".
    js(browser, """
        const realFetch = window.fetch;
        window.fetch = (url, options) => /suggest\\?q=Hels&/.test(String(url))
            ? new Promise((resolve) => setTimeout(() => resolve(realFetch(url, options)), 1500))
            : realFetch(url, options);""")
    field = browser.find_element(By.ID, "q")
    field.click()
    type_slowly(browser, "Hels")
    js(browser, "return new Promise(r => setTimeout(r, 300))")      # past the debounce: "Hels" is asked
    type_slowly(browser, "inki")
    shown = [s["text"] for s in wait_suggestions_for(browser, "Helsinki") if not s["recent"]]
    assert shown == [t for t in dict.fromkeys(longer) if t in shown] and set(shown) <= set(longer), (shown, longer)
    js(browser, "return new Promise(r => setTimeout(r, 2000))")     # the late "Hels" answer lands
    assert js(browser, "return document.getElementById('suggestions').dataset.query") == "Helsinki"
    assert [s["text"] for s in suggestions(browser) if not s["recent"]] == shown


def shown_texts(driver):
    """The suggestions (not recent addresses) as a person reads them, read in one go (the list is rebuilt as
    answers arrive); empty while the list is hidden."""
    return js(driver, """const list = document.getElementById('suggestions');
        if (!list || list.offsetParent === null) return [];
        return [...list.querySelectorAll('li:not(.recent)')].map(li => li.innerText.split(/\\s+/).join(' ').trim());""")


def test_suggestions_say_which_name_matched_and_fold_a_citys_sections(server):
    """A matched alternate name shows: "Tammerfors" reads "Tammerfors → Tampere" (as "Helsingfors" reads "Helsingfors → Helsinki");
    "zur" shows Zürich, not its Kreise; "Hel" no Aleppo."""
    for width, height, mobile, name in ((1280, 900, False, "16-suggestion-matched-name"), (390, 844, True, "17-suggestion-matched-name-phone")):
        driver = make_driver(width, height, mobile=mobile)
        try:
            open_app(driver, server)
            field = driver.find_element(By.ID, "q")
            field.click()
            # Tampere: a place no other test picks, so it is not a recent address (a recent one is listed once, under
            # "Recent", and not again among the suggestions).
            type_slowly(driver, "Tammerfors")
            wait_suggestions_for(driver, "Tammerfors")
            first = wait(driver, lambda d: (shown_texts(d) or [None])[0], message="no suggestion for Tammerfors")
            assert first.startswith("Tammerfors → Tampere, "), shown_texts(driver)
            screenshot(driver, name)

            field.clear()
            type_slowly(driver, "zur")
            wait_suggestions_for(driver, "zur")
            shown = shown_texts(driver)
            assert shown[0].startswith("Zürich, ") and len(shown) == 8, shown
            assert not [t for t in shown if "Kreis" in t], shown
            screenshot(driver, name.replace("matched-name", "sections-folded"))

            field.clear()
            type_slowly(driver, "Hel")
            wait_suggestions_for(driver, "Hel")
            shown = shown_texts(driver)
            recent = [s["text"] for s in suggestions(driver) if s["recent"]]
            # Helsinki leads, unless it is a recent address already (then it is listed once, under "Recent").
            assert shown[0].startswith("Helsinki, ") or "Helsinki, Uusimaa, Finland" in recent, (recent, shown)
            assert not [t for t in shown if "Aleppo" in t or "Phoenix" in t or "→" in t], shown
        finally:
            driver.quit()


def test_two_recent_addresses_alone_on_an_empty_field_on_top_when_they_match_after_a_restart(browser, server):
    open_app(browser, server)
    first = choose_first_suggestion(browser, "Zurich")
    second = choose_first_suggestion(browser, "Oslo")
    wait(browser, lambda d: [p["displayName"] for p in server.api("GET", "/v1/recent")[1]["results"]] == [second, first])

    server.restart(hard=False)
    open_app(browser, server)
    field = browser.find_element(By.ID, "q")
    field.click()
    # The field empty: the last two alone, newest first.
    wait(browser, lambda d: len(suggestions(d)) == 2)
    assert [(s["text"], s["recent"]) for s in suggestions(browser)] == [(second, True), (first, True)]
    assert [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#suggestions li.recent .tag")] == ["RECENT", "RECENT"]
    screenshot(browser, "13-recent-alone-after-restart")
    # Typing: a recent address stays on top only while it matches what is typed.
    type_slowly(browser, "Osl")
    shown = wait_suggestions_for(browser, "Osl")
    assert shown[0] == {"text": second, "recent": True, "correction": False, "active": False}
    assert [s["text"] for s in shown if s["recent"]] == [second]
    field.clear()
    type_slowly(browser, "Par")
    shown = wait_suggestions_for(browser, "Par")
    assert not any(s["recent"] for s in shown), "Zurich and Oslo do not match \"Par\""
    screenshot(browser, "13-recent-only-when-matching")


# ---------------------------------------------------------------- centre pin


def test_centre_pin_reverse_geocodes_where_the_map_stops_and_remembers_it(browser, server):
    open_app(browser, server)
    js(browser, "pindrop.map.setView([60.1699, 24.9384], 12, {animate: false})")
    browser.find_element(By.ID, "center-pin-toggle").click()
    assert browser.find_element(By.ID, "center-pin").is_displayed()
    field = browser.find_element(By.ID, "q")
    expected = server.api("GET", "/v1/reverse?lat=60.1699&lon=24.9384")[1]["results"][0]
    wait(browser, lambda d: field.get_attribute("value") == expected["displayName"])
    screenshot(browser, "14-centre-pin-helsinki")

    # Drag the map like a person would; when the move ends the new centre is looked up (an answer with a street
    # is remembered; places only and the opening lookup are not: test_address.py).
    js(browser, "pindrop.map.setView([60.1690, 24.9400], 17, {animate: false})")
    ActionChains(browser).move_to_element_with_offset(browser.find_element(By.ID, "map"), 0, 150) \
        .click_and_hold().move_by_offset(40, -30).move_by_offset(40, -30).release().perform()
    center = map_center(browser)
    expected = server.api("GET", "/v1/reverse?lat=%f&lon=%f" % (center[0], center[1]))[1]["results"][0]
    wait(browser, lambda d: field.get_attribute("value") == expected["displayName"])
    wait(browser, lambda d: server.api("GET", "/v1/recent")[1]["results"][0]["id"] == expected["id"],
         message="the pinned address is remembered as recent")
    screenshot(browser, "15-centre-pin-after-drag")

    browser.find_element(By.ID, "center-pin-toggle").click()
    assert not browser.find_element(By.ID, "center-pin").is_displayed()
