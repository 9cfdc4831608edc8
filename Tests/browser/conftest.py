"""Fixtures for the web app's browser tests: a running `pindrop serve` and a headless Chromium.

scripts/test-browser.sh starts the server and passes its details in the environment:
PINDROP_BIN, PINDROP_URL, PINDROP_PIDFILE, PINDROP_SERVE_ARGS (JSON list), PINDROP_HOME, PINDROP_SERVER_LOG.
"""
import json
import os
import signal
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "build" / "screenshots"


class Server:
    """The running `pindrop serve`, which tests may kill and start again on the same port."""

    def __init__(self):
        self.url = os.environ["PINDROP_URL"].rstrip("/")
        self.pidfile = Path(os.environ["PINDROP_PIDFILE"])
        self.command = [os.environ["PINDROP_BIN"], "serve"] + json.loads(os.environ.get("PINDROP_SERVE_ARGS", "[]"))
        self.log = os.environ.get("PINDROP_SERVER_LOG", "/dev/null")

    def api(self, method, path, body=None):
        """Calls the API; returns (status, decoded JSON or None)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"} if data else {})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                raw = response.read()
                return response.status, (json.loads(raw) if raw else None)
        except urllib.error.HTTPError as error:
            raw = error.read()
            return error.code, (json.loads(raw) if raw else None)

    def wait_ready(self, timeout=60):
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                if self.api("GET", "/v1/status")[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError("pindrop serve did not answer /v1/status in %d s" % timeout)

    def restart(self, hard=True):
        """Stops the server (kill -9 when hard, so nothing gets a chance to flush) and starts it again."""
        pid = int(self.pidfile.read_text())
        os.kill(pid, signal.SIGKILL if hard else signal.SIGTERM)
        for _ in range(100):
            try:
                os.kill(pid, 0)
                time.sleep(0.05)
            except ProcessLookupError:
                break
        with open(self.log, "ab") as log:
            process = subprocess.Popen(self.command, stdout=log, stderr=log, start_new_session=True)
        self.pidfile.write_text(str(process.pid))
        self.wait_ready()

    def clear_saved(self):
        for place in self.api("GET", "/v1/saved")[1]["results"]:
            self.api("DELETE", "/v1/saved/" + urllib.parse.quote(place["id"], safe=""))


@pytest.fixture(scope="session")
def server():
    s = Server()
    s.wait_ready()
    return s


def make_driver(width=1280, height=800, mobile=False):
    options = Options()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=%d,%d" % (width, height), "--lang=en-US"):
        options.add_argument(argument)
    options.page_load_strategy = "eager"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)
    if mobile:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": height, "deviceScaleFactor": 2, "mobile": True})
    return driver


@pytest.fixture
def browser(server):
    driver = make_driver()
    yield driver
    driver.quit()


@pytest.fixture
def phone(server):
    driver = make_driver(375, 667, mobile=True)
    yield driver
    driver.quit()


def screenshot(driver, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SCREENSHOTS / (name + ".png")))


def wait(driver, condition, timeout=10, message=""):
    # A list re-rendered between finding its rows and reading them leaves stale elements: read again at the next poll.
    return WebDriverWait(driver, timeout, poll_frequency=0.05, ignored_exceptions=[StaleElementReferenceException]).until(
        lambda d: condition(d), message)
