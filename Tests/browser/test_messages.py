"""What a person reads when something fails: plain sentences that say what happened and what
to do, never exception names, URLs, "Fallback answer:" or command-line flags."""
import re

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from app import open_app, start_server, stop_server
from conftest import screenshot, wait

DEVELOPER_TEXT = re.compile(r"--[a-z]|Error\b|Exception|NIO|https?://|Fallback answer|\(\w+\)$")


def visible_message(driver, element_id="message"):
    return wait(driver, lambda d: d.find_element(By.ID, element_id).is_displayed() and d.find_element(By.ID, element_id).text,
                timeout=15, message="no message in #" + element_id)


def test_music_without_musicbrainz_is_not_offered_and_the_api_says_why(browser):
    process, port, work = start_server(without=("PINDROP_MUSICBRAINZ_URL", "PINDROP_MUSICBRAINZ_CONTACT"))
    try:
        class Own:
            url = "http://127.0.0.1:%d" % port
        open_app(browser, Own)
        assert not browser.find_element(By.ID, "music-toggle").is_displayed(), "no Music button to fail after a search"
        # A page that asks anyway (an older one) reads a plain sentence.
        text = browser.execute_async_script("""const done = arguments[arguments.length - 1];
            pindrop.api('/v1/music/places?q=Berlin').catch(e => done(e.message))""")
        assert text == "This is not set up on this server. Ask whoever runs it to turn it on.", text
        assert not DEVELOPER_TEXT.search(text)
        screenshot(browser, "messages-music-not-offered")
    finally:
        stop_server(process, work)


def test_a_lost_server_is_said_in_plain_words(browser, server):
    open_app(browser, server)
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/v1/search*"]})
    field = browser.find_element(By.ID, "q")
    field.send_keys("Helsinki", Keys.ENTER)
    text = visible_message(browser)
    assert "The Pindrop server cannot be reached. Check your connection and try again." in text, text
    assert not DEVELOPER_TEXT.search(text)


def test_a_server_error_is_a_sentence_not_its_code(browser, server):
    """A 503 with the server's developer text (flags, file paths) reaches the person as what to do."""
    open_app(browser, server)
    browser.execute_script("""
        const real = window.fetch;
        window.fetch = (url, options) => String(url).includes('/v1/search')
            ? Promise.resolve(new Response(JSON.stringify({error: {code: 'index_unavailable',
                message: 'the index at /srv/pindrop/geonames.sqlite has format 7; rebuild it with `pindrop import geonames`'}}),
                {status: 503, headers: {'Content-Type': 'application/json'}}))
            : real(url, options);""")
    browser.find_element(By.ID, "q").send_keys("Helsinki", Keys.ENTER)
    text = visible_message(browser)
    assert text.startswith("The server's place index is not available right now."), text
    assert "/srv" not in text and "pindrop import" not in text
