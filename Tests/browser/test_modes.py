"""The web app's modes are on one at a time: search (the results, a chosen place), the centre pin, Near me, Music
and the saved places. Entering one, from any other, leaves the one that was on, and nothing it drew stays: no
result rows, no pin at the centre, no circle, venue pins or venue list, no music pins, progress bar or running
stream, no saved list. Against `pindrop serve` with the local MusicBrainz of scripts/test-browser.sh ("Copenhagen":
3 pages). Screenshots go to build/screenshots/modes-*.png."""
import urllib.parse

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from app import js, open_app
from conftest import screenshot, wait
from test_nearme import HELSINKI, allow_location

MODES = ["search", "centerpin", "nearme", "music", "saved"]
SAVED = {"id": "test:modes-cafe", "name": "Modes Café", "displayName": "Modes Café, Helsinki",
         "latitude": 60.1685, "longitude": 24.9410}


def every_switch(modes):
    """A walk through `modes` that goes from each to each other exactly once (an Euler circuit of the complete
    directed graph on them): 21 entries for 5 modes."""
    unused = {mode: [other for other in modes if other != mode] for mode in modes}
    stack, walk = [modes[0]], []
    while stack:
        if unused[stack[-1]]:
            stack.append(unused[stack[-1]].pop())
        else:
            walk.append(stack.pop())
    return walk[::-1]


def on_screen(driver):
    """What each mode has drawn, read in one go; and the place pins and card that search and saved places share."""
    return js(driver, """
        const shown = (id) => { const e = document.getElementById(id); return Boolean(e && !e.hidden && e.offsetParent !== null); };
        const pressed = (id) => document.getElementById(id).getAttribute('aria-pressed') === 'true';
        const count = (css) => document.querySelectorAll(css).length;
        const music = pindrop.music;
        return {
          search: count('#results .result-list .row') > 0,
          centerpin: shown('center-pin') || pressed('center-pin-toggle'),
          nearme: shown('nearme') || pressed('near-me-toggle') || count('path.nearme-circle, .venue-pin, #nearme-list li') > 0,
          music: shown('music') || pressed('music-toggle') || music.pinCount() > 0 || count('.music-pin') > 0
                 || shown('music-progress') || music.state.source !== null,
          saved: count('#results .saved-list') > 0,
          placePins: pindrop.resultMarkerCount(),
          card: shown('place-card'),
          mode: pindrop.mode,
        };""")


def enter(driver, mode):
    """Enters `mode` as a person does and waits until it has drawn what it draws."""
    if mode == "search":
        field = driver.find_element(By.ID, "q")
        field.clear()
        field.send_keys("Helsinki", Keys.ENTER)
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#results .result-list .row")
             and js(d, "return pindrop.resultMarkerCount()") > 1, message="no results")
    elif mode == "centerpin":
        js(driver, "pindrop.map.setView(arguments[0], 16, {animate: false})", list(HELSINKI))
        driver.find_element(By.ID, "center-pin-toggle").click()
        wait(driver, lambda d: d.find_element(By.ID, "status").text.startswith("Address under the pin: "),
             message="no address under the pin")
    elif mode == "nearme":
        driver.find_element(By.ID, "near-me-toggle").click()
        wait(driver, lambda d: js(d, "return document.querySelectorAll('#nearme-list li, path.nearme-circle').length") > 1,
             timeout=20, message="no venues near me")
    elif mode == "music":
        driver.find_element(By.ID, "music-toggle").click()
        field = driver.find_element(By.ID, "music-q")
        field.clear()
        field.send_keys("Copenhagen", Keys.ENTER)
        wait(driver, lambda d: any(pin.is_displayed() for pin in d.find_elements(By.CSS_SELECTOR, ".music-pin"))
             and d.find_element(By.ID, "music-progress").is_displayed(), message="no music pins")
    elif mode == "saved":
        driver.find_element(By.ID, "saved-button").click()
        row = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#results .saved-list .row"), message="no saved list")
        row[0].click()
        wait(driver, lambda d: d.find_element(By.ID, "place-card").is_displayed(), message="the saved place did not open")


def only(mode, screen):
    """Checks that `mode` is on with what it drew and every other mode has left, taking what it drew with it."""
    assert screen["mode"] == mode, screen
    assert screen[mode], "%s drew nothing: %s" % (mode, screen)
    left = [other for other in MODES if other != mode and screen[other]]
    assert not left, "entering %s did not leave %s: %s" % (mode, left, screen)
    if mode == "saved":
        assert screen["placePins"] == 1 and screen["card"], "only the saved place's pin and card: %s" % screen
    elif mode != "search":
        assert screen["placePins"] == 0 and not screen["card"], "place pins or the card stayed: %s" % screen


def test_entering_each_mode_from_each_other_leaves_it(browser, server):
    assert server.api("PUT", "/v1/saved/" + urllib.parse.quote(SAVED["id"], safe=""), SAVED)[0] in (200, 201)
    try:
        allow_location(browser, server)
        open_app(browser, server)
        walk = every_switch(MODES)
        assert len(walk) == len(MODES) * (len(MODES) - 1) + 1
        for before, mode in zip([None] + walk, walk):
            enter(browser, mode)
            only(mode, on_screen(browser))
            if (before, mode) in (("nearme", "music"), ("music", "nearme"), ("search", "centerpin")):
                screenshot(browser, "modes-%s-after-%s" % (mode, before))
    finally:
        server.api("DELETE", "/v1/saved/" + urllib.parse.quote(SAVED["id"], safe=""))


def test_turning_a_mode_off_leaves_nothing_on(browser, server):
    allow_location(browser, server)
    open_app(browser, server)
    for mode, toggle in (("centerpin", "center-pin-toggle"), ("nearme", "near-me-toggle"), ("music", "music-toggle")):
        enter(browser, mode)
        browser.find_element(By.ID, toggle).click()
        screen = on_screen(browser)
        assert screen["mode"] is None and not any(screen[m] for m in MODES), "%s stayed on: %s" % (mode, screen)
