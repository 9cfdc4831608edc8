"""Every flow of the web map app in a real headless Chromium against `pindrop serve`
on the embedded GeoNames index. Screenshots go to build/screenshots/."""
import urllib.parse

from selenium.webdriver.common.by import By

from app import (HOSTILE, api_search, js, js_errors, map_center, open_app, result_rows, save_button, search, search_and_pick,
                 type_slowly, view_query, wait_idle_map, wait_suggestions_for)
from conftest import screenshot, wait


# ---------------------------------------------------------------- opening


def test_opens_offline_with_the_coastline_basemap(browser, server):
    open_app(browser, server)
    # test_basemap.py checks the drawing itself, and the Natural Earth countries without coastline data.
    wait(browser, lambda d: js(d, "return pindrop.basemap.featureCount") > 100,
         message="the offline coastline layer was not drawn")
    # Online tiles fail here (no network): they stay invisible and the page keeps working.
    assert browser.find_element(By.ID, "q").is_displayed()
    # (The online tiles' credit goes when map.js gives the failed tiles up, which may come first.)
    assert "GSHHG coastlines" in browser.find_element(By.CSS_SELECTOR, ".leaflet-control-attribution").text
    screenshot(browser, "01-opened-offline")
    assert js_errors(browser) == []


# ---------------------------------------------------------------- search and results


def test_many_results_in_engine_order_with_display_all(browser, server):
    open_app(browser, server)
    near = view_query(browser)
    search(browser, "Paris")
    expected = [p["displayName"] for p in api_search(server, "Paris", near)]
    assert len(expected) > 1
    assert result_rows(browser) == expected
    sections = browser.find_elements(By.CSS_SELECTOR, "#results section")
    assert len(sections) == 2, "results and 'Display All on Map' are separate sections"
    assert sections[0].text == "Display All on Map"
    assert js(browser, "return pindrop.resultMarkerCount()") == len(expected), "every result is pinned"
    screenshot(browser, "02-search-many-results")


def test_search_button_shows_busy_state_and_page_stays_responsive(browser, server):
    open_app(browser, server)
    js(browser, """
        const realFetch = window.fetch;
        window.fetch = (url, options) => String(url).includes('/v1/search')
            ? new Promise((resolve) => setTimeout(() => resolve(realFetch(url, options)), 1200))
            : realFetch(url, options);""")
    browser.find_element(By.ID, "q").send_keys("Helsinki")
    browser.find_element(By.ID, "search-button").click()
    button = browser.find_element(By.ID, "search-button")
    assert button.get_attribute("disabled") and "Searching" in button.text
    assert "busy" in browser.find_element(By.ID, "panel").get_attribute("class")
    screenshot(browser, "03-search-busy")
    browser.find_element(By.ID, "zoom-in").click()            # the page still answers while searching
    wait(browser, lambda d: js(d, "return pindrop.map.getZoom()") == 4)
    wait(browser, lambda d: result_rows(d))
    assert not browser.find_element(By.ID, "search-button").get_attribute("disabled")
    assert result_rows(browser)[0].startswith("Helsinki")


def test_exactly_one_result_is_one_row_without_display_all(browser, server):
    text = next(t for t in ("Ouagadougou", "Reykjavik", "Ulaanbaatar", "Tegucigalpa") if len(api_search(server, t)) == 1)
    open_app(browser, server)
    search(browser, text, press_enter=False)
    assert len(result_rows(browser)) == 1
    assert browser.find_elements(By.ID, "display-all") == []
    screenshot(browser, "04-search-one-result")


def test_no_results(browser, server):
    open_app(browser, server)
    search(browser, "Qwxzzvv Blorpington")
    assert browser.find_element(By.CSS_SELECTOR, "#results .no-results").text == "No Results"
    assert result_rows(browser) == []
    screenshot(browser, "05-search-no-results")


def test_selecting_a_row_pins_all_centres_it_and_its_card_shows_name_and_coordinates(browser, server):
    results = search_and_pick(browser, server, "Paris", 1)
    chosen = results[1]
    wait(browser, lambda d: abs(map_center(d)[0] - chosen["latitude"]) < 0.01 and abs(map_center(d)[1] - chosen["longitude"]) < 0.01,
         message="the selected result is not centred")
    wait(browser, lambda d: d.find_element(By.ID, "place-card").is_displayed())
    assert browser.find_element(By.ID, "place-name").text == chosen["name"]
    assert browser.find_element(By.ID, "place-coords").text == "%.5f, %.5f" % (chosen["latitude"], chosen["longitude"])
    assert not browser.find_elements(By.CSS_SELECTOR, ".leaflet-popup"), "the card, not a popup repeating it"
    assert js(browser, "return pindrop.resultMarkerCount()") == len(results), "all results stay pinned"
    assert browser.find_element(By.ID, "save-button").is_displayed()
    screenshot(browser, "06-selected-result-card")


def test_display_all_fits_every_pin_and_offers_no_save(browser, server):
    results = search_and_pick(browser, server, "Paris", 0)
    wait(browser, lambda d: d.find_element(By.ID, "save-button").is_displayed())
    browser.find_element(By.ID, "card-back").click()                  # back to the list the place came from
    wait(browser, lambda d: d.find_element(By.ID, "display-all").is_displayed())
    browser.find_element(By.ID, "display-all").click()
    wait(browser, lambda d: js(d, "return pindrop.map.getBounds().contains(arguments[0])",
                               [[r["latitude"], r["longitude"]] for r in results]))
    assert not browser.find_element(By.ID, "place-card").is_displayed()
    js(browser, "return new Promise(r => setTimeout(r, 600))")      # let the clusters settle for the picture
    screenshot(browser, "07-display-all")


# ---------------------------------------------------------------- saved places


def test_save_then_delete_with_confirmation_and_state_after_reload(browser, server):
    server.clear_saved()
    open_app(browser, server)
    search(browser, "Helsinki")
    browser.find_elements(By.CSS_SELECTOR, "#results .result-list .row")[0].click()
    helsinki = api_search(server, "Helsinki")[0]
    wait(browser, lambda d: save_button(d).text == "Save")
    save_button(browser).click()
    wait(browser, lambda d: save_button(d).text == "Delete")
    assert [p["id"] for p in server.api("GET", "/v1/saved")[1]["results"]] == [helsinki["id"]]
    screenshot(browser, "08-saved-shows-delete")

    browser.refresh()
    wait(browser, lambda d: d.find_element(By.ID, "place-card").is_displayed() and save_button(d).text == "Delete",
         message="after a reload the saved place should still read Delete")

    save_button(browser).click()
    dialog = browser.find_element(By.ID, "confirm-delete")
    wait(browser, lambda d: dialog.is_displayed())
    assert [b.text for b in dialog.find_elements(By.TAG_NAME, "button")] == ["Cancel", "Delete"]
    assert helsinki["displayName"] in dialog.text
    screenshot(browser, "09-delete-confirmation")
    browser.find_element(By.ID, "confirm-cancel").click()
    assert not dialog.is_displayed()
    assert save_button(browser).text == "Delete"
    assert len(server.api("GET", "/v1/saved")[1]["results"]) == 1, "Cancel keeps the place"

    save_button(browser).click()
    wait(browser, lambda d: dialog.is_displayed())
    browser.find_element(By.ID, "confirm-ok").click()
    wait(browser, lambda d: save_button(d).text == "Save")
    assert server.api("GET", "/v1/saved")[1]["results"] == []
    browser.refresh()
    wait(browser, lambda d: d.find_element(By.ID, "place-card").is_displayed() and save_button(d).text == "Save")


def test_saving_twice_keeps_one_and_a_save_survives_kill_9(browser, server):
    server.clear_saved()
    open_app(browser, server)
    search(browser, "Reykjavik")
    browser.find_elements(By.CSS_SELECTOR, "#results .result-list .row")[0].click()
    wait(browser, lambda d: save_button(d).text == "Save")
    save_button(browser).click()
    wait(browser, lambda d: save_button(d).text == "Delete")
    place_id = server.api("GET", "/v1/saved")[1]["results"][0]["id"]
    status, _ = server.api("PUT", "/v1/saved/" + urllib.parse.quote(place_id, safe=""))
    assert status == 200
    server.restart(hard=True)                 # kill -9 right after the save returned
    saved = server.api("GET", "/v1/saved")[1]["results"]
    assert [p["id"] for p in saved] == [place_id]
    open_app(browser, server)
    browser.find_element(By.ID, "saved-button").click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#results .saved-list .row"))
    assert [b.text for b in browser.find_elements(By.CSS_SELECTOR, "#results .saved-list .row")] == [saved[0]["displayName"]]
    screenshot(browser, "10-saved-list-after-kill-9")


# ---------------------------------------------------------------- map controls


def test_collapsible_panel(browser, server):
    open_app(browser, server)
    search(browser, "Paris")
    body = browser.find_element(By.ID, "panel-body")
    assert body.is_displayed()
    browser.find_element(By.ID, "panel-toggle").click()
    assert not body.is_displayed()
    assert browser.find_element(By.ID, "q").is_displayed(), "the field stays when the list folds"
    screenshot(browser, "16-panel-collapsed")
    browser.find_element(By.ID, "panel-toggle").click()
    assert body.is_displayed() and result_rows(browser)


def test_zoom_buttons(browser, server):
    open_app(browser, server)
    zoom = js(browser, "return pindrop.map.getZoom()")
    browser.find_element(By.ID, "zoom-in").click()
    wait(browser, lambda d: js(d, "return pindrop.map.getZoom()") == zoom + 1)
    browser.find_element(By.ID, "zoom-in").click()
    wait(browser, lambda d: js(d, "return pindrop.map.getZoom()") == zoom + 2)
    browser.find_element(By.ID, "zoom-out").click()
    wait(browser, lambda d: js(d, "return pindrop.map.getZoom()") == zoom + 1)


HELSINKI = (60.1699, 24.9384)


def set_location(driver, server, lat_lon=HELSINKI, permission="granted"):
    """The browser's location permission for the app, and (when given) its position; None: position unavailable."""
    driver.execute_cdp_cmd("Browser.setPermission", {"permission": {"name": "geolocation"}, "setting": permission,
                                                     "origin": server.url})
    if lat_lon is None:
        driver.execute_cdp_cmd("Emulation.setGeolocationOverride", {})   # no position: "unavailable"
    else:
        driver.execute_cdp_cmd("Emulation.setGeolocationOverride",
                               {"latitude": lat_lon[0], "longitude": lat_lon[1], "accuracy": 20})


def near(center, lat_lon, tolerance=0.001):
    return abs(center[0] - lat_lon[0]) < tolerance and abs(center[1] - lat_lon[1]) < tolerance


def test_map_opens_on_the_user_with_a_pin(browser, server):
    browser.get(server.url + "/favicon.svg")          # the origin must exist before its permission is set
    set_location(browser, server)
    open_app(browser, server)
    wait(browser, lambda d: near(map_center(d), HELSINKI), message="the map did not open on the user")
    assert js(browser, "return pindrop.map.getZoom()") >= 14, "opens close enough to see the streets around you"
    pin = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".leaflet-marker-icon[title='You are here']"))
    assert pin[0].is_displayed()
    assert not browser.find_element(By.ID, "message").is_displayed(), "a granted location needs no message"
    assert browser.find_element(By.ID, "my-location").get_attribute("aria-pressed") == "false", \
        "opening takes the position once; it does not track"
    screenshot(browser, "02-opened-on-the-user")


def test_map_opens_on_the_default_view_when_location_is_refused(browser, server):
    browser.get(server.url + "/favicon.svg")
    set_location(browser, server, permission="denied")
    open_app(browser, server)
    default = server.api("GET", "/v1/config")[1]["defaultCenter"]
    wait_idle_map(browser)
    assert near(map_center(browser), (default["latitude"], default["longitude"]), 0.01)
    assert not browser.find_elements(By.CSS_SELECTOR, ".leaflet-marker-icon[title='You are here']")
    search(browser, "Helsinki")                        # search works as usual
    assert result_rows(browser)[0].startswith("Helsinki")


def test_a_late_location_never_undoes_a_search(browser, server):
    """A slow fix (seconds indoors) arrives after the user has searched: the pin appears, the map stays."""
    browser.get(server.url + "/favicon.svg")
    set_location(browser, server)
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
        const real = navigator.geolocation.getCurrentPosition.bind(navigator.geolocation);
        navigator.geolocation.getCurrentPosition = (ok, fail, options) =>
            real((p) => setTimeout(() => { window.__fixDelivered = true; ok(p); }, 5000), fail, options);"""})
    open_app(browser, server)
    search(browser, "Tokyo")
    searched = map_center(browser)
    assert js(browser, "return window.__fixDelivered !== true"), "the search came first"
    wait(browser, lambda d: js(d, "return window.__fixDelivered === true"), timeout=20, message="the position never arrived")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".leaflet-marker-icon[title='You are here']"))
    assert near(map_center(browser), searched), "the map stays on the search the user made"


def test_my_location_refused_says_so_and_leaves_the_map_where_it_was(browser, server):
    open_app(browser, server)
    search(browser, "Tokyo")
    before = map_center(browser)
    set_location(browser, server, permission="denied")
    browser.find_element(By.ID, "my-location").click()
    message = wait(browser, lambda d: d.find_element(By.ID, "message").is_displayed() and d.find_element(By.ID, "message"))
    assert "refused" in message.text and "search works as usual" in message.text
    assert browser.find_element(By.ID, "my-location").get_attribute("aria-pressed") == "false"
    assert near(map_center(browser), before), "no jump to a default location the user never asked for"
    screenshot(browser, "17-my-location-refused")


def test_my_location_keeps_following_when_the_position_is_briefly_unavailable(browser, server):
    open_app(browser, server)
    search(browser, "Tokyo")
    before = map_center(browser)
    set_location(browser, server, None)
    browser.find_element(By.ID, "my-location").click()
    message = wait(browser, lambda d: d.find_element(By.ID, "message").is_displayed() and d.find_element(By.ID, "message"),
                   timeout=20)
    assert "not available right now" in message.text and "still trying" in message.text
    assert browser.find_element(By.ID, "my-location").get_attribute("aria-pressed") == "true", "still following"
    assert near(map_center(browser), before), "the map stays where the user was looking"
    set_location(browser, server)                      # the fix comes back: the map finds the user
    wait(browser, lambda d: near(map_center(d), HELSINKI), timeout=20, message="following did not resume")
    assert browser.find_elements(By.CSS_SELECTOR, ".you-are-here")


def test_my_location_allowed_centres_on_the_user(browser, server):
    open_app(browser, server)
    set_location(browser, server)
    browser.find_element(By.ID, "my-location").click()
    wait(browser, lambda d: near(map_center(d), HELSINKI))
    assert browser.find_elements(By.CSS_SELECTOR, ".you-are-here")
    assert browser.find_element(By.ID, "my-location").get_attribute("aria-pressed") == "true"


# ---------------------------------------------------------------- safety and small screens


def test_place_names_are_shown_as_text_never_as_html(browser, server):
    server.clear_saved()
    hostile = {"id": "test:hostile", "name": HOSTILE, "displayName": HOSTILE + " Town", "latitude": 10, "longitude": 10}
    assert server.api("PUT", "/v1/saved/test%3Ahostile", hostile)[0] in (200, 201)
    assert server.api("POST", "/v1/recent", hostile)[0] == 201
    open_app(browser, server)
    browser.find_element(By.ID, "saved-button").click()
    row = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#results .saved-list .row"))[0]
    assert row.text == HOSTILE + " Town"
    row.click()
    wait(browser, lambda d: d.find_element(By.ID, "place-card").is_displayed())
    assert browser.find_element(By.ID, "place-name").text == HOSTILE
    assert browser.find_element(By.ID, "place-address").text == HOSTILE + " Town"
    field = browser.find_element(By.ID, "q")
    field.click()
    type_slowly(browser, "Tow")                                   # matches the recent "… Town"
    assert any(HOSTILE in s["text"] for s in wait_suggestions_for(browser, "Tow") if s["recent"])
    screenshot(browser, "18-hostile-name-as-text")
    assert js(browser, "return document.querySelectorAll('#panel img, #place-card img, .leaflet-popup img, #suggestions img').length") == 0
    assert js(browser, "return window.__alerts") == []
    server.clear_saved()


def test_phone_viewport_375x667(phone, server):
    open_app(phone, server)
    assert js(phone, "return [window.innerWidth, window.innerHeight]") == [375, 667]
    screenshot(phone, "19-phone-opened")
    search(phone, "Paris")
    rows = phone.find_elements(By.CSS_SELECTOR, "#results .result-list .row")
    assert rows and all(r.rect["x"] >= 0 and r.rect["x"] + r.rect["width"] <= 375 for r in rows)
    panel = phone.find_element(By.ID, "panel").rect
    assert panel["y"] >= phone.find_element(By.ID, "zoom-out").rect["y"], "the sheet is below the map's buttons"
    screenshot(phone, "20-phone-results")
    rows[0].click()
    wait(phone, lambda d: d.find_element(By.ID, "place-card").is_displayed())
    # The sheet glides to half height: once it rests, the card holds the lower half and the map the upper.
    wait(phone, lambda d: 250 < d.find_element(By.ID, "panel").rect["y"] < 450, message="the card at half the screen, the map above it")
    card = phone.find_element(By.ID, "place-card").rect
    assert card["x"] >= 0 and card["x"] + card["width"] <= 375 and card["y"] < 667
    for control in ("zoom-in", "zoom-out", "my-location", "center-pin-toggle", "saved-button", "save-button"):
        # The modes' chips are a row that scrolls sideways, as a phone's map app has them: brought into view first.
        js(phone, "arguments[0].scrollIntoView({block: 'nearest', inline: 'nearest'})", phone.find_element(By.ID, control))
        r = phone.find_element(By.ID, control).rect
        assert 0 <= r["x"] and r["x"] + r["width"] <= 376 and r["y"] + r["height"] <= 667, control
    screenshot(phone, "21-phone-selected")
    phone.find_element(By.ID, "panel-toggle").click()
    wait(phone, lambda d: d.find_element(By.ID, "panel").rect["height"] < 140, message="folded to its peek")
    assert phone.find_element(By.ID, "q").is_displayed()
