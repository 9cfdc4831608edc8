"""Updates from OpenStreetMap change files, on the shipped Liechtenstein extract and three edited copies of it made by
scripts/make-osm-changes.py (pyosmium, `osmium derive-changes`), which also says what it edited (edits.json):
- after the changes from the extract to the third copy, every answer to a fixed set of questions (search, suggest,
  reverse at every level, nearby by category, lookup, street map and labels) equals that of a fresh import of the copy,
  and the edits show as the data says;
- a server following the changes as a replication feed (a loopback HTTP server) answers every request during the
  catch-up and shows the change within 10 s of its being applied;
- a truncated, damaged or out-of-order file, a feed that stops answering and a kill -9 in the middle leave the store
  answering as before, with a clear error; a retry resumes; a file applied twice changes nothing."""
import http.server
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

from processes import BIN, ROOT, free_port, pindrop, wait_until_answering

EXTRACT = f"{ROOT}/data/osm/liechtenstein.osm.pbf"


@pytest.fixture(scope="module")
def material():
    folder = tempfile.mkdtemp(prefix="pindrop-changes-")
    subprocess.run([sys.executable, f"{ROOT}/scripts/make-osm-changes.py", EXTRACT, folder], check=True, timeout=600)
    with open(f"{folder}/edits.json") as f:
        edits = json.load(f)
    yield folder, edits
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def base_home():
    """A store with the GeoNames data and the Liechtenstein extract, copied by each test."""
    home = tempfile.mkdtemp(prefix="pindrop-update-base-")
    pindrop(home, "import", "osm", EXTRACT)
    yield home
    shutil.rmtree(home, ignore_errors=True)


@pytest.fixture
def home(base_home):
    copy = tempfile.mkdtemp(prefix="pindrop-update-")
    shutil.rmtree(copy)
    shutil.copytree(base_home, copy)
    yield copy
    shutil.rmtree(copy, ignore_errors=True)


def changes(material, *sequences):
    return [f"{material}/replication/000/000/{n:03d}.osc.gz" for n in sequences]


def run(home, *arguments):
    return subprocess.run([BIN, *arguments], env=dict(os.environ, PINDROP_HOME=home), capture_output=True, text=True, timeout=900)


class Server:
    """`pindrop serve` on a home, the offline basemap and online tiles off."""

    def __init__(self, home, *flags):
        self.port, self.log_path = free_port(), f"{home}/serve.log"
        self.log = open(self.log_path, "w+")
        self.process = subprocess.Popen([BIN, "serve", "--port", str(self.port), "--coastline", "", "--tile-url", "", *flags],
                                        env=dict(os.environ, PINDROP_HOME=home), stdout=self.log, stderr=subprocess.STDOUT)
        wait_until_answering(self.process, self.port, "/v1/status", self.output)

    def output(self):
        return open(self.log_path).read()

    def get(self, path):
        """(status, body) of GET path."""
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=30) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def json(self, path):
        status, body = self.get(path)
        assert status == 200, (path, status, body[:300])
        return json.loads(body)

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=60)
        self.log.close()


def q(path, **query):
    return path + "?" + urllib.parse.urlencode(query)


def questions(edits):
    """Every question asked of both stores: about each edited object and 40 named places spread over the file."""
    places = [(p["name"], p["lat"], p["lon"]) for p in edits["sample"]]
    places += [(edits["new_restaurant"]["name"], edits["new_restaurant"]["lat"], edits["new_restaurant"]["lon"]),
               (edits["moved"]["name"], *edits["moved"]["to"]), (edits["deleted_node"]["name"], *edits["deleted_node"]["at"]),
               (edits["retagged"]["name"], *edits["moved"]["from"])]
    names = [edits["renamed_street"]["old"], edits["renamed_street"]["new"], edits["renamed_boundary"]["old"],
             edits["renamed_boundary"]["new"], edits["deleted_relation"]["name"], "Pindropweg 1",
             f'{edits["deleted_way"]["tags"]["addr:street"]} {edits["deleted_way"]["tags"]["addr:housenumber"]}', "restaurant Vaduz"]
    paths = []
    for name, lat, lon in places:
        paths += [q("/v1/search", q=name, limit=10), q("/v1/suggest", q=name[:5], limit=10)]
        paths += [q("/v1/reverse", lat=lat, lon=lon, level=level, limit=5) for level in ("building", "street", "suburb", "city", "county", "state", "country")]
        paths.append(q("/v1/nearby", lat=lat, lon=lon, radius=1500, category="restaurant", limit=50))
        paths.append(q("/v1/labels", bbox=f"{lon - 0.01},{lat - 0.01},{lon + 0.01},{lat + 0.01}", zoom=17, limit=500))
        paths.append(q("/v1/streetmap", bbox=f"{lon - 0.004},{lat - 0.004},{lon + 0.004},{lat + 0.004}", zoom=17, limit=2000))
    paths += [q("/v1/search", q=name, limit=10) for name in names] + [q("/v1/suggest", q=name, limit=10) for name in names]
    ids = [f"osm:node/{edits[k]['id']}" for k in ("moved", "retagged", "deleted_node")]
    ids += [f"osm:way/{edits['deleted_way']['id']}", f"osm:relation/{edits['deleted_relation']['id']}",
            f"osm:relation/{edits['renamed_boundary']['id']}", "osm:node/90000000001"]
    paths += ["/v1/places/" + urllib.parse.quote(i, safe="") for i in ids]
    return paths


def ids_of(results):
    return [r["id"] for r in results["results"]]


def test_update_answers_as_a_fresh_import_of_the_changed_data(material, home, base_home):
    folder, edits = material
    fresh = home + "-fresh"
    shutil.copytree(base_home, fresh)
    try:
        pindrop(fresh, "import", "osm", f"{folder}/stage3.osm.pbf")
        out = pindrop(home, "update", *changes(folder, 1, 2, 3))
        assert "5 created, 4 modified, 3 deleted" in out, out
        assert_answers_as_a_fresh_import(home, fresh, edits)
    finally:
        shutil.rmtree(fresh, ignore_errors=True)


def assert_answers_as_a_fresh_import(home, fresh, edits):
    """The updated store answers every question as the fresh import of the changed data does, and shows the edits."""
    updated, imported = Server(home), Server(fresh)
    try:
        differing = differences(updated, imported, edits)
        assert differing == [], f"{len(differing)} answers differ, first: {differing[:3]}"
        check_edits(updated, edits)
    finally:
        updated.stop()
        imported.stop()


def differences(a, b, edits):
    """The questions two servers answer differently: the path, both statuses and the start of both bodies."""
    return [(path, x[0], y[0], x[1][:200], y[1][:200]) for path in questions(edits) for x, y in [(a.get(path), b.get(path))] if x != y]


def check_edits(server, edits):
    """The edits as edits.json says them."""
    new = edits["new_restaurant"]
    found = server.json(q("/v1/search", q=new["name"], limit=5))["results"]
    assert found and found[0]["id"] == "osm:node/90000000001", found
    assert abs(found[0]["latitude"] - new["lat"]) < 1e-6 and found[0]["address"]["street"] == new["street"]
    moved = server.json("/v1/places/" + urllib.parse.quote(f"osm:node/{edits['moved']['id']}", safe=""))["results"][0]
    assert [round(moved["latitude"], 7), round(moved["longitude"], 7)] == edits["moved"]["to"]
    assert server.get("/v1/places/" + urllib.parse.quote(f"osm:node/{edits['deleted_node']['id']}", safe=""))[0] == 404
    assert f"osm:node/{edits['deleted_node']['id']}" not in ids_of(server.json(q("/v1/search", q=edits["deleted_node"]["name"])))
    lat, lon = edits["deleted_node"]["at"]
    nearby = server.json(q("/v1/nearby", lat=lat, lon=lon, radius=300, limit=100))
    assert f"osm:node/{edits['deleted_node']['id']}" not in ids_of(nearby)
    retagged = server.json("/v1/places/" + urllib.parse.quote(f"osm:node/{edits['retagged']['id']}", safe=""))["results"][0]
    assert retagged["category"] == "restaurant", retagged
    street = server.json(q("/v1/search", q=edits["renamed_street"]["new"], limit=5))["results"]
    assert any(r["name"] == edits["renamed_street"]["new"] for r in street), street
    assert server.get("/v1/places/" + urllib.parse.quote(f"osm:relation/{edits['deleted_relation']['id']}", safe=""))[0] == 404
    boundary = server.json(q("/v1/search", q=edits["renamed_boundary"]["new"], limit=5))["results"]
    assert any(r["name"] == edits["renamed_boundary"]["new"] for r in boundary), boundary
    house = edits["new_street"]["house"]
    address = server.json(q("/v1/reverse", lat=house["lat"], lon=house["lon"]))["results"][0]["address"]
    assert (address.get("street"), address.get("houseNumber")) == (edits["new_street"]["name"], house["housenumber"]), address


class Feed:
    """A replication feed on loopback: the material's folder, its state.txt saying sequence `newest`."""

    def __init__(self, folder, newest, port=0):
        self.root = tempfile.mkdtemp(prefix="pindrop-feed-")
        shutil.copytree(f"{folder}/replication", f"{self.root}/replication")
        self.folder = folder
        self.publish(newest)
        root = self.root

        class Files(http.server.SimpleHTTPRequestHandler):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, directory=root, **kwargs)

            def log_message(self, *args):
                pass

        http.server.ThreadingHTTPServer.allow_reuse_address = True
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), Files)
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/replication"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def publish(self, newest):
        shutil.copy(f"{self.root}/replication/000/000/{newest:03d}.state.txt", f"{self.root}/replication/state.txt")

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()
        shutil.rmtree(self.root, ignore_errors=True)


class Load:
    """Four clients asking searches, reverses and nearby questions as fast as they are answered, until stopped:
    every answer's status and time."""

    def __init__(self, server, paths):
        self.answers, self._stop = [], threading.Event()
        self._threads = [threading.Thread(target=self._client, args=(server, paths[k::4])) for k in range(4)]
        for thread in self._threads:
            thread.start()

    def _client(self, server, paths):
        while not self._stop.is_set():
            for path in paths:
                started = time.perf_counter()
                try:
                    status = server.get(path)[0]
                except OSError as error:
                    status = str(error)
                self.answers.append((status, time.perf_counter() - started))
                if self._stop.is_set():
                    return

    def stop(self):
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=60)

    def p99(self):
        times = sorted(t for _, t in self.answers)
        return times[int(len(times) * 0.99)] if times else 0


def test_a_server_follows_a_feed_answering_every_request(material, home):
    folder, edits = material
    feed = Feed(folder, newest=0)
    server = Server(home, "--replication", feed.url, "--replication-interval", "1", "--metrics")
    try:
        until(lambda: "replication: following" in server.output(), 60, server.output)
        paths = [q("/v1/search", q=p["name"], limit=5) for p in edits["sample"][:10]]
        paths += [q("/v1/reverse", lat=p["lat"], lon=p["lon"]) for p in edits["sample"][:10]]
        paths += [q("/v1/nearby", lat=p["lat"], lon=p["lon"], radius=1000, limit=20) for p in edits["sample"][:10]]
        idle = Load(server, paths)
        time.sleep(5)
        idle.stop()
        busy = Load(server, paths)
        feed.publish(3)
        until(lambda: "replication: applied" in server.output(), 600, server.output)
        applied_at = time.time()
        until(lambda: ids_of(server.json(q("/v1/search", q=edits["new_restaurant"]["name"], limit=1))) == ["osm:node/90000000001"],
              10, server.output)
        visible_after = time.time() - applied_at
        time.sleep(1)
        busy.stop()
        failures = [status for status, _ in busy.answers if status != 200]
        print(f"\nreplication catch-up under load: {len(busy.answers)} answers, {len(failures)} not 200, p99 {busy.p99() * 1000:.1f} ms"
              f" (idle {idle.p99() * 1000:.1f} ms over {len(idle.answers)}); the change visible {visible_after:.1f} s after it was applied")
        assert failures == [] and len(busy.answers) > 100
        status = server.json("/v1/status")["store"]
        assert status["replicationSequence"] == 3 and status["dataUpdated"].startswith(edits["times"][3][:16]), status
        metrics = server.get("/metrics")[1].decode()
        assert re.search(r"\npindrop_replication_sequence 3(\.0)?\n", metrics), metrics[-2000:]
        nominatim = server.json("/status?format=json")
        assert nominatim["data_updated"].startswith(edits["times"][3][:16]), nominatim
        check_edits(server, edits)
    finally:
        server.stop()
        feed.stop()


def until(condition, seconds, output):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError("not within %d s: %s" % (seconds, output()[-3000:]))


def answers(home, edits):
    """What the store answers to a few questions touching the edits, by the CLI."""
    return [run(home, "search", "--json", name).stdout
            for name in (edits["new_restaurant"]["name"], edits["moved"]["name"], edits["renamed_street"]["old"])]


def test_bad_files_change_nothing_and_a_retry_resumes(material, home):
    folder, edits = material
    before = answers(home, edits)
    truncated, damaged, older = f"{home}/truncated.osc.gz", f"{home}/damaged.osc", f"{home}/older.osc"
    whole = pathlib.Path(changes(folder, 1)[0]).read_bytes()
    pathlib.Path(truncated).write_bytes(whole[: len(whole) // 2])
    plain = subprocess.run(["gzip", "-dc", changes(folder, 1)[0]], capture_output=True, check=True).stdout.decode()
    pathlib.Path(damaged).write_text(plain.replace("</node>", "</nodex>", 1))
    for bad, says in ((truncated, "truncated"), (damaged, "line"), (f"{home}/missing.osc", "missing.osc")):
        result = run(home, "update", bad)
        assert result.returncode != 0 and says in result.stderr, result.stderr
        assert answers(home, edits) == before
    # Applied, then again: the second time changes nothing.
    assert run(home, "update", *changes(folder, 1, 2, 3)).returncode == 0
    after = answers(home, edits)
    assert after != before and edits["new_restaurant"]["name"] in after[0]
    again = run(home, "update", changes(folder, 1)[0])
    assert again.returncode == 0 and "already applied" in again.stdout, again.stdout
    assert answers(home, edits) == after
    # The moved restaurant at the version before its move: older than what was applied, so refused.
    moved = edits["moved"]["id"]
    version = int(plain.split(f'<node id="{moved}" version="')[1].split('"')[0])
    pathlib.Path(older).write_text(plain.replace(f'<node id="{moved}" version="{version}"', f'<node id="{moved}" version="{version - 1}"', 1))
    result = run(home, "update", older)
    assert result.returncode != 0 and "out of order" in result.stderr, result.stderr
    assert answers(home, edits) == after


def test_a_feed_that_stops_or_a_kill_leaves_the_store_and_resumes(material, home):
    folder, edits = material
    before = answers(home, edits)
    feed = Feed(folder, newest=0)
    try:
        assert run(home, "replication", "init", "--url", feed.url).returncode == 0
        feed.publish(3)
        # Killed in the middle of its catch-up: the store answers as before and the state stays at 0.
        process = subprocess.Popen([BIN, "replication", "update", "--once"], env=dict(os.environ, PINDROP_HOME=home),
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(2)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
        assert answers(home, edits) == before
        feed.stop()
        stopped = run(home, "replication", "update", "--once")
        assert stopped.returncode != 0 and "could not be fetched" in stopped.stderr, stopped.stderr
        assert answers(home, edits) == before
        feed = Feed(folder, newest=3, port=feed.port)
        resumed = run(home, "replication", "update", "--once")
        assert resumed.returncode == 0 and "sequence 3" in resumed.stdout, resumed.stderr
        assert edits["new_restaurant"]["name"] in answers(home, edits)[0]
        assert "up to date: sequence 3" in run(home, "replication", "update", "--once").stdout
    finally:
        feed.stop()


def test_an_update_on_the_shared_store_reaches_every_server(material):
    """On PostgreSQL: one process applies the changes in one transaction; a server on the database answers from them,
    rebuilding only its street level over the GeoNames places it holds, and answers exactly as a server that reads
    every row of the updated store."""
    folder, edits = material
    server_url = os.environ["PINDROP_TEST_DATABASE_URL"]
    database = "pindrop_updates_%d" % os.getpid()
    url = urllib.parse.urlunsplit(urllib.parse.urlsplit(server_url)._replace(path="/" + database))
    subprocess.run(["psql", server_url, "-qc", "CREATE DATABASE " + database], check=True, timeout=120)
    updater, serving = tempfile.mkdtemp(prefix="pindrop-pg-update-"), tempfile.mkdtemp(prefix="pindrop-pg-serve-")
    try:
        pindrop(updater, "import", "geonames", f"{ROOT}/Tests/PindropImportTests/Fixtures/mini", "--store", url)
        pindrop(updater, "import", "osm", EXTRACT, "--store", url)
        server = Server(serving, "--store", url)
        try:
            assert ids_of(server.json(q("/v1/search", q=edits["new_restaurant"]["name"], limit=1))) != ["osm:node/90000000001"]
            out = pindrop(updater, "update", *changes(folder, 1, 2, 3), "--store", url)
            applied_at = time.time()
            assert "5 created, 4 modified, 3 deleted" in out, out
            until(lambda: ids_of(server.json(q("/v1/search", q=edits["new_restaurant"]["name"], limit=1))) == ["osm:node/90000000001"],
                  300, server.output)
            print(f"\nshared store: the change answered by the server {time.time() - applied_at:.1f} s after it was committed")
            assert server.json("/v1/status")["store"]["dataUpdated"].startswith(edits["times"][3][:16])
            check_edits(server, edits)
            # The server's log is written in the background: the line may follow the answers by a moment.
            until(lambda: "its street level built over the GeoNames places held" in server.output(), 10, server.output)
            # A server that has never seen the store reads every row of the updated import.
            fresh = Server(tempfile.mkdtemp(dir=serving), "--store", url)
            try:
                assert "built over" not in fresh.output()
                differing = differences(server, fresh, edits)
                assert differing == [], f"{len(differing)} answers differ, first: {differing[:3]}"
            finally:
                fresh.stop()
        finally:
            server.stop()
    finally:
        subprocess.run(["psql", server_url, "-qc", f"DROP DATABASE IF EXISTS {database} WITH (FORCE)"], timeout=120)
        shutil.rmtree(updater, ignore_errors=True)
        shutil.rmtree(serving, ignore_errors=True)
