"""A shared deployment for real: two `pindrop serve` processes on one PostgreSQL database.

- A place saved through one server is listed by the other; users never see or delete each other's places.
- kill -9 of one server during a burst of saves loses nothing that was acknowledged.
- PostgreSQL restarting under load: user-data requests answer 503 store_unavailable (never another 5xx) while it
  is down, place queries keep answering from memory, and both servers recover by themselves.

Run by scripts/test-shared.sh (part of the README's test command), which passes the binary, the test cluster's
URL and its folder (for the restart). Every request is on loopback with a timeout; the bursts are bounded.
"""
import gzip
import http.client
import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import urllib.parse

import pytest

from processes import BIN, ROOT, SaveBurst, free_port, pindrop, wait_until_answering

SERVER_URL = os.environ["PINDROP_TEST_DATABASE_URL"]
CLUSTER = os.environ["PINDROP_PG_CLUSTER"]


def request(port, method, path, token=None, body=None, timeout=15):
    """(status, parsed JSON or None) of one request on its own connection."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"Accept": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    if body is not None:
        headers["Content-Type"] = "application/json"
        body = json.dumps(body)
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
        try:
            return response.status, json.loads(data) if data else None
        except ValueError:
            return response.status, None
    finally:
        connection.close()


def place(n):
    return {"id": "point:test/%d" % n, "name": "Test point %d" % n, "displayName": "Test point %d" % n,
            "latitude": 60.17 + n / 100000, "longitude": 24.94}


def saved_ids(port, token):
    """Every saved place's id, page after page."""
    ids, cursor = set(), None
    while True:
        status, body = request(port, "GET", "/v1/saved?limit=500" + ("&cursor=" + cursor if cursor else ""), token)
        assert status == 200, body
        ids |= {r["id"] for r in body["results"]}
        cursor = body.get("next") or (body.get("page") or {}).get("next")
        if not cursor:
            return ids


class Server:
    def __init__(self, home, url, name):
        self.home, self.url, self.name = home, url, name
        self.port = free_port()
        self.log = open(os.path.join(home, name + ".log"), "w")
        # The bursts below are one client's: lift the per-client write limit (600 a minute) out of their way.
        env = dict(os.environ, PINDROP_HOME=home, PINDROP_WRITES_PER_MINUTE="100000")
        self.process = subprocess.Popen([BIN, "serve", "--store", url, "--port", str(self.port)],
                                        stdout=self.log, stderr=subprocess.STDOUT, env=env)
        # A debug build makes the index from the rows on first start.
        wait_until_answering(self.process, self.port, "/v1/status", lambda: open(self.log.name).read())

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()
        self.log.close()


@pytest.fixture(scope="module")
def deployment():
    """A database of its own with 3,000 GeoNames places and central Helsinki, two users, and two servers."""
    home = tempfile.mkdtemp(prefix="pindrop-shared-")
    database = "pindrop_multi_%d" % os.getpid()
    parts = urllib.parse.urlsplit(SERVER_URL)
    url = urllib.parse.urlunsplit(parts._replace(path="/" + database))
    subprocess.run(["psql", SERVER_URL, "-qc", "CREATE DATABASE " + database], check=True)
    # A small GeoNames dump (the first 3,000 rows of the shipped one), so the debug build imports it quickly.
    geonames = os.path.join(home, "geonames")
    os.makedirs(geonames)
    for name in ("admin1CodesASCII.txt", "countryInfo.txt"):
        shutil.copy(os.path.join(ROOT, "data/geonames", name), geonames)
    with gzip.open(os.path.join(ROOT, "data/geonames/cities500.txt.gz"), "rt", encoding="utf-8") as source, \
            open(os.path.join(geonames, "cities500.txt"), "w", encoding="utf-8") as out:
        for i, line in enumerate(source):
            if i == 3000:
                break
            out.write(line)
    pindrop(home, "import", "geonames", geonames, "--store", url)
    pindrop(home, "import", "osm", os.path.join(ROOT, "data/osm/helsinki-center.osm.pbf"), "--store", url)
    alice = pindrop(home, "users", "add", "alice", "--store", url).strip()
    bob = pindrop(home, "users", "add", "bob", "--store", url).strip()
    a = Server(home, url, "a")
    b = Server(home, url, "b")
    deployment = {"home": home, "url": url, "a": a, "b": b, "alice": alice, "bob": bob}
    yield deployment
    # The kill -9 test puts a restarted server in the place of "a": stop that one too.
    for server in (a, b, deployment["a"]):
        server.stop()
    shutil.rmtree(home, ignore_errors=True)


def test_a_place_saved_through_one_server_is_listed_by_the_other_and_users_stay_apart(deployment):
    a, b, alice, bob = deployment["a"], deployment["b"], deployment["alice"], deployment["bob"]
    status, body = request(a.port, "PUT", "/v1/saved/point:test/1", alice, place(1))
    assert status == 201, body
    assert "point:test/1" in saved_ids(b.port, alice)
    # Bob sees none of it and cannot remove it; without a token, or with a wrong one, nobody is let in.
    assert saved_ids(b.port, bob) == set()
    assert request(b.port, "DELETE", "/v1/saved/point:test/1", bob)[0] == 404
    assert "point:test/1" in saved_ids(a.port, alice)
    status, body = request(a.port, "GET", "/v1/saved")
    assert status == 401 and body["error"]["code"] == "unauthorized"
    assert request(b.port, "GET", "/v1/saved", alice[:-1] + ("x" if alice[-1] != "x" else "y"))[0] == 401
    # Recent addresses are shared between the servers the same way.
    assert request(b.port, "POST", "/v1/recent", alice, place(2))[0] in (200, 201)
    status, body = request(a.port, "GET", "/v1/recent", alice)
    assert status == 200 and body["results"][0]["id"] == "point:test/2"
    # Both servers answer the same places (built from the same rows).
    for query in ("/v1/suggest?q=Kaivok", "/v1/reverse?lat=60.1705&lon=24.9414", "/v1/search?q=Stockmann"):
        assert request(a.port, "GET", query)[1]["results"] == request(b.port, "GET", query)[1]["results"]


def test_kill_9_during_a_burst_of_saves_loses_nothing_acknowledged(deployment):
    a, b, alice = deployment["a"], deployment["b"], deployment["alice"]
    burst = SaveBurst(lambda n: request(a.port, "PUT", "/v1/saved/point:test/%d" % n, alice, place(n), timeout=5), 150)
    burst.wait_for(80)
    a.kill()
    burst.stop()
    acknowledged, refused = ["point:test/%d" % n for n in burst.acknowledged], burst.refused
    assert not refused, refused[:3]
    print("\nkill -9 after %d acknowledged saves" % len(acknowledged))
    assert len(acknowledged) >= 80
    kept = saved_ids(b.port, alice)
    lost = [i for i in acknowledged if i not in kept]
    assert lost == [], "acknowledged but lost: %s" % lost[:10]
    # The killed server comes back on the same database and sees them too.
    deployment["a"] = Server(deployment["home"], deployment["url"], "a2")
    assert set(acknowledged) <= saved_ids(deployment["a"].port, alice)


def test_postgresql_restarting_under_load_gives_503_at_worst_and_both_servers_recover(deployment):
    servers, alice = [deployment["a"], deployment["b"]], deployment["alice"]
    statuses, lock = {"saved": [], "suggest": []}, threading.Lock()
    stop = threading.Event()

    def load(server, kind):
        while not stop.is_set():
            path = "/v1/saved?limit=5" if kind == "saved" else "/v1/suggest?q=Hel"
            try:
                status, body = request(server.port, "GET", path, alice, timeout=15)
            except OSError as error:
                status, body = "connection: %s" % error, None
            with lock:
                statuses[kind].append((status, body["error"]["code"] if status == 503 and body else None))
            time.sleep(0.02)

    threads = [threading.Thread(target=load, args=(s, k)) for s in servers for k in ("saved", "suggest")]
    for thread in threads:
        thread.start()
    time.sleep(1)
    subprocess.run([os.path.join(ROOT, "scripts/postgres-cluster.sh"), "restart", CLUSTER], check=True, timeout=120)
    # Both servers answer saved places again by themselves, within 30 s of the database's return.
    back = time.time()
    deadline = back + 30
    recovered = set()
    while time.time() < deadline and len(recovered) < 2:
        for i, server in enumerate(servers):
            if request(server.port, "GET", "/v1/saved", alice)[0] == 200:
                recovered.add(i)
        time.sleep(0.2)
    stop.set()
    for thread in threads:
        thread.join(timeout=30)
    assert recovered == {0, 1}
    saved = statuses["saved"]
    print("\nduring the restart: %d saved-places answers (%d of them 503), %d suggest answers; both recovered %.1f s "
          "after PostgreSQL was back" % (len(saved), sum(1 for s, _ in saved if s == 503), len(statuses["suggest"]),
                                          time.time() - back))
    assert saved, "no saved-places requests were made"
    assert all(s == 200 or (s == 503 and code == "store_unavailable") for s, code in saved), \
        sorted({str(s) for s in saved})
    # Place answers come from memory: the database being away does not touch them.
    assert statuses["suggest"] and all(s == 200 for s, _ in statuses["suggest"]), sorted({str(s) for s, _ in statuses["suggest"]})
    # And writes work again.
    assert request(servers[1].port, "PUT", "/v1/saved/point:test/9", alice, place(9))[0] in (200, 201)


def test_with_the_database_down_saved_places_answer_503_within_seconds_and_places_still_answer(deployment):
    servers, alice = [deployment["a"], deployment["b"]], deployment["alice"]
    cluster = os.path.join(ROOT, "scripts/postgres-cluster.sh")
    subprocess.run([cluster, "down", CLUSTER], check=True, timeout=120)
    try:
        for server in servers:
            started = time.time()
            status, body = request(server.port, "GET", "/v1/saved", alice, timeout=30)
            waited = time.time() - started
            print("\ndatabase down: %s in %.1f s" % (status, waited))
            assert status == 503 and body["error"]["code"] == "store_unavailable", body
            assert waited < 10, "the answer took %.1f s" % waited
            status, body = request(server.port, "PUT", "/v1/saved/point:test/7", alice, place(7), timeout=30)
            assert status == 503, body
            assert request(server.port, "GET", "/v1/suggest?q=Hel", timeout=10)[0] == 200
    finally:
        subprocess.run([cluster, "up", CLUSTER], check=True, timeout=120)
    deadline = time.time() + 30
    while time.time() < deadline and request(servers[0].port, "GET", "/v1/saved", alice)[0] != 200:
        time.sleep(0.2)
    assert request(servers[0].port, "GET", "/v1/saved", alice)[0] == 200
    assert "point:test/7" not in saved_ids(servers[1].port, alice), "a refused save must not have landed"
