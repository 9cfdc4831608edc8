"""Search and suggestions as a map user expects them: a capital before villages ("Vadu" → Vaduz), a place that reads
the same twice listed once, and the view's position sent with every search, zoomed out too ("hotel" over Vaduz at
zoom 4 finds Vaduz's hotels, not Helsinki's)."""
import urllib.parse

from selenium.webdriver.common.by import By

from app import js, open_app, result_rows, search, type_slowly, view_query, wait_idle_map, wait_suggestions_for
from conftest import screenshot


def test_a_capital_comes_before_villages(browser, server):
    open_app(browser, server)
    browser.find_element(By.ID, "q").click()
    type_slowly(browser, "Vadu")
    shown = [s for s in wait_suggestions_for(browser, "Vadu") if not s["recent"]]
    assert shown[0]["text"] == "Vaduz, Liechtenstein", [s["text"] for s in shown]
    screenshot(browser, "suggest-vadu")


def test_rows_that_read_the_same_are_shown_once(browser, server):
    text = "Schloss Vaduz"
    open_app(browser, server)
    # The page asks from the view's position, and so does the expectation.
    near = view_query(browser)
    answer = [p["displayName"] for p in server.api("GET", "/v1/search?limit=20&q=" + urllib.parse.quote(text) + near)[1]["results"]]
    assert len(answer) > len(set(answer)), "the data has the castle twice (a building and a point) at one address"
    search(browser, text)
    rows = result_rows(browser)
    assert len(rows) == len(set(rows)) and set(rows) == set(answer)
    assert rows == sorted(set(answer), key=answer.index), "in the engine's order"
    field = browser.find_element(By.ID, "q")
    field.clear()
    field.click()
    type_slowly(browser, "Vadu Izei")
    shown = [s["text"] for s in wait_suggestions_for(browser, "Vadu Izei")]
    assert shown.count("Vadu Izei, Maramures, Romania") == 1, shown


def test_the_view_position_goes_with_every_search(browser, server):
    open_app(browser, server)
    js(browser, "pindrop.map.setView([47.141, 9.5215], 4, {animate: false})")
    wait_idle_map(browser)
    search(browser, "hotel")
    sent = js(browser, "return performance.getEntriesByType('resource').map(e => e.name).filter(n => n.includes('/v1/search?'))")
    assert sent and "lat=47.14100" in sent[-1] and "lon=9.52150" in sent[-1], sent
    first = js(browser, "return document.querySelector('#results .result-list .row').textContent")
    assert first.endswith("Vaduz") or "94" in first, "a hotel in Liechtenstein first: " + first
