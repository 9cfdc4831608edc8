"""The centre pin's address line and recent addresses, read off the page as a person would: one format as the map moves, "near ..." for a street or a place only, and recents kept clean.
Screenshots at 1280x900 and 390x844 go to build/screenshots/."""
import re

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from app import js, map_center, open_app, search_and_pick, suggestions, wait_idle_map
from conftest import make_driver, screenshot, wait

SIMONKATU_7 = (60.169019, 24.9355755)
NARINKKA_2 = (60.1699655, 24.9355066)
NARINKKATORI = (60.1694, 24.9344)
KAMPPI = (60.1676, 24.93038)
SEA = (60.10, 24.95)
# An address; "near" a street (with the nearest address's postcode) or a district of Helsinki; "near Helsinki".
ONE_FORMAT = re.compile(r"^[^,]+ \d[^,]*, \d{5} Helsinki$|^near [^,]+(, (\d{5} )?Helsinki)?$")


@pytest.fixture
def window(server, request):
    """A browser window of the size a test names (`DESKTOP` or `PHONE`), for screenshots at those sizes."""
    width, height = request.param
    driver = make_driver(width, height, mobile=width < 600)
    yield driver
    driver.quit()


DESKTOP = pytest.mark.parametrize("window", [(1280, 900)], indirect=True, ids=["1280x900"])
PHONE = pytest.mark.parametrize("window", [(390, 844)], indirect=True, ids=["390x844"])


def field_text(driver):
    return driver.find_element(By.ID, "q").get_attribute("value")


def recent_lines(server):
    return [p["displayName"] for p in server.api("GET", "/v1/recent?limit=50")[1]["results"]]


def pin_on(driver, server, at, zoom=17):
    open_app(driver, server)
    js(driver, "pindrop.map.setView([%f, %f], %d, {animate: false})" % (at[0], at[1], zoom))
    driver.find_element(By.ID, "center-pin-toggle").click()
    wait(driver, lambda d: d.find_element(By.ID, "center-pin").is_displayed())


def streets_drawn(driver):
    """Waits until the offline street map is drawn around the pin: an address with a blank map around it tells
    a person nothing about where it is."""
    wait(driver, lambda d: js(d, "return pindrop.nearme.streetFeatureCount()") > 0, timeout=20,
         message="no streets drawn around the pin")


def move_to(driver, at, expected):
    """Moves the map so `at` is under the pin and waits for the field to read `expected`."""
    js(driver, "pindrop.map.setView([%f, %f], pindrop.map.getZoom(), {animate: false})" % at)
    wait(driver, lambda d: field_text(d) == expected, message="the field reads %r, not %r" % (field_text(driver), expected))


def drag(driver, dx, dy):
    ActionChains(driver).move_to_element(driver.find_element(By.ID, "map")) \
        .click_and_hold().move_by_offset(dx // 2, dy // 2).move_by_offset(dx - dx // 2, dy - dy // 2).release().perform()
    wait_idle_map(driver)


@DESKTOP
def test_moving_the_map_a_few_hundred_metres_keeps_one_address_format(window, server):
    desktop = window
    pin_on(desktop, server, SIMONKATU_7)
    wait(desktop, lambda d: field_text(d) == "Simonkatu 7, 00100 Helsinki")
    assert "Address under the pin: Simonkatu 7, 00100 Helsinki" in desktop.find_element(By.ID, "status").text
    streets_drawn(desktop)
    screenshot(desktop, "40-address-simonkatu-1280")
    move_to(desktop, NARINKKA_2, "Narinkka 2, 00099 Helsinki")
    move_to(desktop, NARINKKATORI, "near Narinkkatori, 00100 Helsinki")
    screenshot(desktop, "41-address-near-square-1280")
    # Dragged like a person would, step after step east from the square: every stop reads in the one format.
    seen = set()
    for _ in range(6):
        before = field_text(desktop)
        drag(desktop, -100, 0)
        center = map_center(desktop)
        expected = server.api("GET", "/v1/reverse?lat=%f&lon=%f" % tuple(center))[1]["results"][0]["displayName"]
        wait(desktop, lambda d: field_text(d) == expected, message="after a drag from %r" % before)
        assert ONE_FORMAT.match(expected), expected
        seen.add(expected)
    assert len(seen) >= 3, seen
    screenshot(desktop, "42-address-after-drags-1280")
    move_to(desktop, KAMPPI, "near Kamppi, Helsinki")


@DESKTOP
def test_opening_the_centre_pin_stores_no_recent_and_a_move_to_no_address_stores_nothing(window, server):
    desktop = window
    before = recent_lines(server)
    pin_on(desktop, server, SIMONKATU_7)
    wait(desktop, lambda d: field_text(d) == "Simonkatu 7, 00100 Helsinki")
    js(desktop, "return new Promise(r => setTimeout(r, 800))")
    assert recent_lines(server) == before, "opening the centre pin stored a recent address"

    js(desktop, "pindrop.map.setView([%f, %f], 12, {animate: false})" % SEA)
    wait(desktop, lambda d: field_text(d).startswith("near "), message="at sea: " + field_text(desktop))
    assert "," not in field_text(desktop) or field_text(desktop).endswith(", Helsinki")
    js(desktop, "return new Promise(r => setTimeout(r, 800))")
    assert recent_lines(server) == before, "a move ending at sea stored " + field_text(desktop)
    screenshot(desktop, "43-address-at-sea-1280")

    js(desktop, "pindrop.map.setView([%f, %f], 17, {animate: false})" % NARINKKA_2)
    wait(desktop, lambda d: recent_lines(server)[:1] == ["Narinkka 2, 00099 Helsinki"], message="the address is remembered")


@DESKTOP
def test_the_same_address_twice_in_a_row_is_stored_once(window, server):
    desktop = window
    pin_on(desktop, server, KAMPPI)                                  # a place only: not stored
    wait(desktop, lambda d: field_text(d) == "near Kamppi, Helsinki")
    move_to(desktop, NARINKKA_2, "Narinkka 2, 00099 Helsinki")
    wait(desktop, lambda d: recent_lines(server)[:1] == ["Narinkka 2, 00099 Helsinki"])
    move_to(desktop, SIMONKATU_7, "Simonkatu 7, 00100 Helsinki")
    wait(desktop, lambda d: recent_lines(server)[:1] == ["Simonkatu 7, 00100 Helsinki"])
    # Two more moves that end on the same door, 4 m and 8 m away.
    move_to(desktop, (SIMONKATU_7[0] + 0.00004, SIMONKATU_7[1]), "Simonkatu 7, 00100 Helsinki")
    js(desktop, "return new Promise(r => setTimeout(r, 600))")
    move_to(desktop, (SIMONKATU_7[0], SIMONKATU_7[1] + 0.00015), "Simonkatu 7, 00100 Helsinki")
    js(desktop, "return new Promise(r => setTimeout(r, 600))")
    assert recent_lines(server)[:2] == ["Simonkatu 7, 00100 Helsinki", "Narinkka 2, 00099 Helsinki"]
    previous = "Narinkka 2, 00099 Helsinki"

    # What a person sees: the two recent addresses on top of the list, each once.
    desktop.find_element(By.ID, "center-pin-toggle").click()
    field = desktop.find_element(By.ID, "q")
    field.clear()
    field.click()
    wait(desktop, lambda d: any(s["recent"] for s in suggestions(d)))
    assert [s["text"] for s in suggestions(desktop) if s["recent"]] == ["Simonkatu 7, 00100 Helsinki", previous]
    screenshot(desktop, "44-address-recent-once-1280")


@PHONE
def test_the_address_line_on_a_phone(window, server):
    small_phone = window
    pin_on(small_phone, server, NARINKKATORI)
    wait(small_phone, lambda d: field_text(d) == "near Narinkkatori, 00100 Helsinki")
    streets_drawn(small_phone)
    screenshot(small_phone, "45-address-near-square-390")
    move_to(small_phone, SIMONKATU_7, "Simonkatu 7, 00100 Helsinki")
    screenshot(small_phone, "46-address-simonkatu-390")


@DESKTOP
def test_the_place_card_shows_a_venues_address_line_under_line(window, server):
    """Hard Rock Cafe Helsinki (OSM node 256199043, tagged Aleksanterinkatu 21, 00100 Helsinki): its card shows its
    name, then the address as Finland writes it, street and number over postcode and town; an address's own card
    does not repeat it."""
    desktop = window
    results = search_and_pick(desktop, server, "Hard Rock Cafe", 0)
    assert results[0]["id"] == "osm:node/256199043", results[0]["id"]
    wait(desktop, lambda d: d.find_element(By.ID, "place-card").is_displayed())
    assert desktop.find_element(By.ID, "place-name").text == "Hard Rock Cafe Helsinki"
    address = desktop.find_element(By.ID, "place-address")
    assert address.is_displayed()
    assert address.text.split("\n") == ["Aleksanterinkatu 21", "00100 Helsinki"]
    screenshot(desktop, "47-address-venue-card-1280")
    search_and_pick(desktop, server, "Simonkatu 7", 0)
    wait(desktop, lambda d: d.find_element(By.ID, "place-name").text == "Simonkatu 7, 00100 Helsinki")
    assert not desktop.find_element(By.ID, "place-address").is_displayed()
