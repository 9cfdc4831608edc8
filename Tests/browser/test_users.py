"""Per-user saved places in the web app: a `pindrop serve --require-token` of the test's own and a token
from `pindrop users add`. The app asks for the token once in its dialog, refuses a wrong one with a clear message,
keeps the right one across reloads and sends it with every saved/recent call; it can forget it. Screenshots go to
build/screenshots/."""
import json
import os
import subprocess
import urllib.error
import urllib.request

import pytest
from selenium.webdriver.common.by import By

from app import save_button, search, start_server, stop_server
from conftest import screenshot, wait


@pytest.fixture(scope="module")
def token_server():
    """A server that requires a token, and alice's token; yields (url, token)."""
    process, port, work = start_server("--require-token")
    try:
        added = subprocess.run([os.environ["PINDROP_BIN"], "users", "add", "alice"], capture_output=True, text=True,
                               env=dict(os.environ, PINDROP_HOME=os.path.join(work, "home")), timeout=60)
        assert added.returncode == 0 and "not shown again" in added.stderr, added.stderr
        yield "http://127.0.0.1:%d" % port, added.stdout.strip()
    finally:
        stop_server(process, work)


def saved(url, token=None):
    """(status, ids) of GET /v1/saved, with `token` when given."""
    request = urllib.request.Request(url + "/v1/saved", headers={"Authorization": "Bearer " + token} if token else {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, [p["id"] for p in json.loads(response.read())["results"]]
    except urllib.error.HTTPError as error:
        return error.code, []


def token_dialog(driver):
    return driver.find_element(By.ID, "token-dialog")


def ready(driver):
    return driver.execute_script("return document.body.dataset.ready === 'true'")


def test_the_token_is_asked_once_checked_kept_and_sent_with_saves(browser, token_server):
    url, token = token_server
    browser.get(url + "/")
    wait(browser, lambda d: token_dialog(d).is_displayed(), message="the app did not ask for a token")
    assert not ready(browser), "the app waits for the token before it is ready"
    screenshot(browser, "users-01-token-dialog")

    # A wrong token: refused in the dialog, with a sentence saying so; nothing is kept.
    field = browser.find_element(By.ID, "token-input")
    field.send_keys("pd_thisisnotatoken")
    browser.find_element(By.ID, "token-ok").click()
    problem = browser.find_element(By.ID, "token-error")
    wait(browser, lambda d: problem.is_displayed(), message="a wrong token was not refused")
    assert "does not know that token" in problem.text
    assert token_dialog(browser).is_displayed()
    assert browser.execute_script("return localStorage.getItem('pindrop.token')") is None
    screenshot(browser, "users-02-wrong-token")

    # The right one: the dialog closes, the app starts, the token is kept.
    field.clear()
    field.send_keys(token)
    browser.find_element(By.ID, "token-ok").click()
    wait(browser, lambda d: not token_dialog(d).is_displayed() and ready(d), message="the token was not accepted")
    assert browser.execute_script("return localStorage.getItem('pindrop.token')") == token

    # A place saved in the app is alice's: listed with her token, refused without one.
    search(browser, "Helsinki")
    browser.find_elements(By.CSS_SELECTOR, "#results .result-list .row")[0].click()
    wait(browser, lambda d: save_button(d).text == "Save")
    save_button(browser).click()
    wait(browser, lambda d: save_button(d).text == "Delete", message="the save did not go through")
    status, ids = saved(url, token)
    assert status == 200 and len(ids) == 1
    assert saved(url)[0] == 401
    browser.find_element(By.ID, "saved-button").click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".saved-list li"), message="no saved places listed")
    rows = browser.find_elements(By.CSS_SELECTOR, ".saved-list li")
    assert len(rows) == 1 and "Helsinki" in rows[0].text
    assert browser.find_element(By.CSS_SELECTOR, ".saved-list .forget-token").is_displayed()
    screenshot(browser, "users-03-saved-list-with-token")

    # A reload does not ask again.
    browser.refresh()
    wait(browser, ready, message="the app did not start after a reload")
    assert not token_dialog(browser).is_displayed(), "the kept token should be used, not asked for again"
    browser.find_element(By.ID, "saved-button").click()
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".saved-list li")) == 1)

    # Forgetting it: the next start asks again.
    browser.find_element(By.CSS_SELECTOR, ".saved-list .forget-token").click()
    wait(browser, lambda d: "forgotten" in d.find_element(By.ID, "status").text)
    assert browser.execute_script("return localStorage.getItem('pindrop.token')") is None
    browser.refresh()
    wait(browser, lambda d: token_dialog(d).is_displayed(), message="after forgetting, the token should be asked for")


def test_cancelling_the_dialog_lets_the_app_start_and_says_why_saved_places_are_missing(browser, token_server):
    url, _ = token_server
    browser.get(url + "/")
    wait(browser, lambda d: token_dialog(d).is_displayed())
    browser.find_element(By.ID, "token-cancel").click()
    wait(browser, ready, message="the app did not start after Cancel")
    message = browser.find_element(By.ID, "message-text")
    wait(browser, lambda d: message.is_displayed() and "token" in message.text, message="no message about the token")
    screenshot(browser, "users-04-cancelled")
    # Asking for the saved places asks again.
    browser.find_element(By.ID, "message-close").click()
    browser.find_element(By.ID, "saved-button").click()
    wait(browser, lambda d: token_dialog(d).is_displayed(), message="the Saved button should ask for the token again")
