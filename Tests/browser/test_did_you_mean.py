"""The "Did you mean Helsinki?" offer in a real headless Chromium, in the search results and heading the suggestions;
clicking it asks again with the corrected text. Screenshots go to build/screenshots/."""
from selenium.webdriver.common.by import By

from app import js_errors, open_app, result_rows, search, suggestions, type_slowly, wait_suggestions_for
from conftest import screenshot, wait


def correction_link(driver):
    """The "Did you mean …?" link of the results list, or None."""
    links = driver.find_elements(By.CSS_SELECTOR, "#results #did-you-mean")
    return links[0] if links else None


def test_a_misspelling_offers_the_name_and_clicking_it_searches_for_it(browser, server):
    open_app(browser, server)
    search(browser, "Helsinik")
    link = correction_link(browser)
    assert link is not None and link.text == "Did you mean Helsinki?"
    assert result_rows(browser)[0] == "Helsinki, Uusimaa, Finland", "the typo's answer is shown under the link"
    screenshot(browser, "did-you-mean-01-search")

    link.click()
    wait(browser, lambda d: d.find_element(By.ID, "q").get_attribute("value") == "Helsinki" and correction_link(d) is None,
         message="clicking the link did not search for Helsinki")
    wait(browser, lambda d: (result_rows(d) or [None])[0] == "Helsinki, Uusimaa, Finland")
    assert "for “Helsinki”" in browser.find_element(By.ID, "status").text

    # A weak match keeps its answer (a German village of 718) and offers the city one letter away.
    search(browser, "Warsow")
    assert result_rows(browser)[0].startswith("Warsow, Mecklenburg-Vorpommern, Germany")
    correction_link(browser).click()
    wait(browser, lambda d: (result_rows(d) or [None])[0] == "Warsaw, Masovian Voivodeship, Poland",
         message="clicking the link did not search for Warsaw")
    assert js_errors(browser) == []


def test_a_right_name_offers_no_correction(browser, server):
    open_app(browser, server)
    for text in ("Helsinki", "Springfield", "Helsingfors"):
        search(browser, text)
        assert result_rows(browser), text
        assert correction_link(browser) is None, text


def test_the_correction_heads_the_suggestions_and_choosing_it_suggests_for_it(browser, server):
    open_app(browser, server)
    field = browser.find_element(By.ID, "q")
    field.click()
    type_slowly(browser, "Warsow")
    shown = wait_suggestions_for(browser, "Warsow")
    offered = [s for s in shown if not s["recent"]]
    assert offered[0]["correction"] and offered[0]["text"] == "Did you mean Warsaw?", offered
    assert offered[1]["text"].startswith("Warsow, "), "the as-typed suggestions stay"
    screenshot(browser, "did-you-mean-02-suggestions")

    browser.find_elements(By.CSS_SELECTOR, "#suggestions li.did-you-mean")[0].click()
    shown = wait_suggestions_for(browser, "Warsaw")
    assert field.get_attribute("value") == "Warsaw"
    assert [s["text"] for s in shown if not s["recent"]][0] == "Warsaw, Masovian Voivodeship, Poland"
    assert not [s for s in suggestions(browser) if s["correction"]]
