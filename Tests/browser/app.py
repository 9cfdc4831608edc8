"""Helpers for driving the web map app in the browser tests: open it, type, search, read the list and the map."""
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import wait

HOSTILE = "<img src=x onerror=alert(1)>"


def open_app(driver, server, path="/"):
    driver.get(server.url + path)
    wait(driver, lambda d: d.execute_script("return document.body.dataset.ready === 'true'"), message="the app did not start")
    # Record alerts instead of showing them, so an injected alert() would be caught.
    driver.execute_script("window.__alerts = []; window.alert = (m) => window.__alerts.push(String(m));")


def js(driver, script, *args):
    return driver.execute_script(script, *args)


def search(driver, text, press_enter=True):
    field = driver.find_element(By.ID, "q")
    field.clear()
    field.send_keys(text)
    if press_enter:
        field.send_keys(Keys.ENTER)
    else:
        driver.find_element(By.ID, "search-button").click()
    wait(driver, lambda d: not d.find_element(By.ID, "search-button").get_attribute("disabled")
         and (d.find_elements(By.CSS_SELECTOR, "#results .row") or d.find_elements(By.CSS_SELECTOR, ".no-results")))


def result_rows(driver):
    return [b.text for b in driver.find_elements(By.CSS_SELECTOR, "#results .result-list .row")]


def map_center(driver):
    return js(driver, "const c = pindrop.map.getCenter(); return [c.lat, c.lng];")


def suggestion_items(driver):
    return driver.find_elements(By.CSS_SELECTOR, "#suggestions li")


def suggestions(driver):
    """The open list as data, read in one go (the list is rebuilt as answers arrive)."""
    return js(driver, """return [...document.querySelectorAll('#suggestions li')].map(li => ({
        text: (li.querySelector('.text') || li).textContent, recent: li.classList.contains('recent'),
        correction: li.classList.contains('did-you-mean'), active: li.classList.contains('active')}))""")


def wait_suggestions_for(driver, text):
    """Waits until the list shows the server's answer for `text`; returns it."""
    wait(driver, lambda d: js(d, "return document.getElementById('suggestions').dataset.query") == text,
         message="no suggestions for " + text)
    return suggestions(driver)


def view_query(driver):
    """The view's position as the page sends it with every search and suggestion ("&lat=…&lon=…")."""
    return js(driver, "const c = pindrop.map.getCenter().wrap(); return '&lat=' + c.lat.toFixed(5) + '&lon=' + c.lng.toFixed(5);")


def api_suggest(server, text, near=""):
    """The API's suggestions for `text` (from the view `near`, view_query's), each once as the page lists them."""
    names = [p["displayName"] for p in server.api("GET", "/v1/suggest?limit=12&q=" + urllib.parse.quote(text) + near)[1]["results"]]
    return [n for i, n in enumerate(names) if n not in names[:i]][:8]


def wait_idle_map(driver):
    wait(driver, lambda d: js(d, "return !pindrop.map._animatingZoom && !pindrop.map._panAnim?._inProgress"))


def api_search(server, text, near=""):
    """The API's results for `text` (from the view `near`), a result that reads as one before it left out, as the
    page lists them."""
    results, seen = [], set()
    for p in server.api("GET", "/v1/search?limit=20&q=" + urllib.parse.quote(text) + near)[1]["results"]:
        key = (p["displayName"], (p.get("address") or {}).get("formatted"))
        if key not in seen:
            seen.add(key)
            results.append(p)
    return results


def js_errors(driver):
    """Console errors other than failed loads of online tiles and the browser's own network location lookup (the
    app asks for the position on open; there is no network on the test machine)."""
    return [e for e in driver.get_log("browser")
            if e["level"] == "SEVERE" and "tile.openstreetmap.org" not in e["message"]
            and "Network location provider" not in e["message"]]


def save_button(driver):
    return driver.find_element(By.ID, "save-button")


def search_and_pick(browser, server, text, row):
    """Searches in the app and clicks result `row`; returns the API's results for the same text."""
    open_app(browser, server)
    near = view_query(browser)
    search(browser, text)
    browser.find_elements(By.CSS_SELECTOR, "#results .result-list .row")[row].click()
    return api_search(server, text, near)


def type_slowly(driver, text):
    field = driver.find_element(By.ID, "q")
    for ch in text:
        field.send_keys(ch)


def choose_first_suggestion(driver, text):
    field = driver.find_element(By.ID, "q")
    field.clear()
    field.click()
    type_slowly(driver, text)
    index = next(i for i, s in enumerate(wait_suggestions_for(driver, text)) if not s["recent"] and not s["correction"])
    name = suggestions(driver)[index]["text"]
    suggestion_items(driver)[index].click()
    wait(driver, lambda d: not d.find_element(By.ID, "suggestions").is_displayed())
    return name


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def index_path():
    """The index the main test server uses (--index from the script, else the default one it built)."""
    args = json.loads(os.environ.get("PINDROP_SERVE_ARGS", "[]"))
    if "--index" in args:
        return args[args.index("--index") + 1]
    return str(Path(os.environ["PINDROP_HOME"]) / "geonames.sqlite")


def start_server(*flags, without=()):
    """A `pindrop serve` of its own with `flags` (and without the environment variables named in `without`);
    returns (process, port, work folder)."""
    work = tempfile.mkdtemp(prefix="pindrop-own-server.")
    port = free_port()
    log = open(os.path.join(work, "server.log"), "wb")
    process = subprocess.Popen([os.environ["PINDROP_BIN"], "serve", "--host", "127.0.0.1", "--port", str(port),
                                "--index", index_path(), *flags],
                               env={k: v for k, v in dict(os.environ, PINDROP_HOME=os.path.join(work, "home")).items() if k not in without},
                               stdout=log, stderr=log, start_new_session=True)
    for _ in range(300):
        try:
            with urllib.request.urlopen("http://127.0.0.1:%d/v1/status" % port, timeout=2):
                return process, port, work
        except OSError:
            assert process.poll() is None, open(os.path.join(work, "server.log")).read()
            time.sleep(0.1)
    raise RuntimeError("the server did not start")


def stop_server(process, work):
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=10)
    log = open(os.path.join(work, "server.log"), errors="replace").read()
    shutil.rmtree(work, ignore_errors=True)
    return log
