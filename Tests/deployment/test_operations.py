"""Operating `pindrop serve` for real, with real processes on 127.0.0.1:

- SIGTERM during a burst of saves: every acknowledged save is kept, a request in flight (its body still arriving)
  is answered, and the process exits 0 within its --shutdown-timeout; one still running at the timeout is cut, exit 1.
- /readyz follows the test database: 503 while it is stopped, 200 again by itself once it is back; /healthz stays 200.
- /metrics over a real socket: the counts of the README's example requests, exactly.
- scripts/install.sh into a temporary prefix, and a server started from there answers /v1/status, the web app and
  /openapi.json. PINDROP_BUILD_CONFIG picks the build it installs (the CI run: debug, the build it already has).

Run by scripts/test-shared.sh (part of the README's test command) with PINDROP_BIN and the test cluster. Every
request has a timeout, every burst is bounded, and every wait is generous: the machine is shared.
"""
import http.client
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.parse

import pytest

from processes import BIN, ROOT, SaveBurst, free_port, pindrop, wait_until_answering

SERVER_URL = os.environ["PINDROP_TEST_DATABASE_URL"]
CLUSTER = os.environ["PINDROP_PG_CLUSTER"]
MINI = os.path.join(ROOT, "Tests/PindropImportTests/Fixtures/mini")
CLUSTER_SCRIPT = os.path.join(ROOT, "scripts/postgres-cluster.sh")


def request(port, method, path, body=None, timeout=15, headers=None):
    """(status, headers, body bytes) of one request on its own connection."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = dict(headers or {})
    if body is not None:
        headers["Content-Type"] = "application/json"
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def place(n):
    return ('{"id": "point:ops/%d", "name": "Ops point %d", "latitude": %f, "longitude": 24.94}'
            % (n, n, 60.17 + n / 100000))


def partial_put(port, n, sent=10):
    """A connection with a save's head and the first `sent` bytes of its body sent: a request in flight. Returns the
    socket and the body's rest."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=30)
    body = place(n).encode()
    connection.sendall(b"PUT /v1/saved/point:ops/%d HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                       b"Content-Length: %d\r\n\r\n" % (n, len(body)) + body[:sent])
    return connection, body[sent:]


def samples(port):
    """/metrics as {series with sorted labels: value}."""
    status, _, body = request(port, "GET", "/metrics")
    assert status == 200
    result = {}
    for line in body.decode().splitlines():
        if not line or line.startswith("#"):
            continue
        series, value = line.rsplit(" ", 1)
        if "{" in series:
            name, labels = series[:-1].split("{", 1)
            series = name + "{" + ",".join(sorted(re.findall(r'[a-z_]+="[^"]*"', labels))) + "}"
        result[series] = float(value)
    return result


def key(name, **labels):
    return name + "{" + ",".join(sorted('%s="%s"' % item for item in labels.items())) + "}"


class Server:
    """`pindrop serve` in a process of its own, its output in a log file."""

    def __init__(self, home, *arguments, binary=BIN, cwd=None, env=None):
        self.home = home
        self.port = free_port()
        self.log_path = os.path.join(home, "serve-%d.log" % self.port)
        self.log = open(self.log_path, "w")
        environment = dict(os.environ, PINDROP_HOME=home, PINDROP_WRITES_PER_MINUTE="0", **(env or {}))
        environment.pop("PINDROP_CONFIG", None)
        self.process = subprocess.Popen([binary, "serve", "--port", str(self.port), *arguments], cwd=cwd,
                                        stdout=self.log, stderr=subprocess.STDOUT, env=environment)
        wait_until_answering(self.process, self.port, "/healthz", self.output)

    def output(self):
        self.log.flush()
        with open(self.log_path) as log:
            return log.read()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


@pytest.fixture(scope="module")
def index():
    """A small index of the fixture dump (5 places), so debug servers start at once."""
    home = tempfile.mkdtemp(prefix="pindrop-ops-")
    path = os.path.join(home, "mini.sqlite")
    pindrop(home, "import", "geonames", MINI, "--index", path)
    yield home, path
    shutil.rmtree(home, ignore_errors=True)


def test_sigterm_during_a_burst_of_saves_loses_nothing_and_exits_0_within_the_timeout(index):
    folder, index_path = index
    home = tempfile.mkdtemp(prefix="pindrop-sigterm-", dir=folder)
    server = Server(home, "--index", index_path, "--shutdown-timeout", "20")
    # [::2]: (status, body) of (status, headers, body).
    burst = SaveBurst(lambda n: request(server.port, "PUT", "/v1/saved/point:ops/%d" % n, place(n), timeout=30)[::2], 300)
    burst.wait_for(80)

    # A request in flight at the signal: its head and half its body sent, the rest a second after SIGTERM.
    slow, rest = partial_put(server.port, 1)
    time.sleep(0.3)
    signalled = time.time()
    server.process.send_signal(signal.SIGTERM)
    time.sleep(1)
    slow.sendall(rest)
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = slow.recv(4096)
        if not chunk:
            break
        answer += chunk
    slow.close()

    code = server.process.wait(timeout=60)
    exited = time.time() - signalled
    burst.stop()
    acknowledged, refused = ["point:ops/%d" % n for n in burst.acknowledged], burst.refused
    log = server.output()
    server.stop()
    print("\nSIGTERM after %d acknowledged saves: exit %d after %.2f s; the request in flight answered %r"
          % (len(acknowledged), code, exited, answer.split(b"\r\n", 1)[0]))
    assert not refused, refused[:3]
    assert len(acknowledged) >= 80
    assert code == 0, log[-2000:]
    assert exited < 20 + 5, "exited after %.1f s" % exited
    assert answer.startswith(b"HTTP/1.1 201"), answer[:200]
    acknowledged.append("point:ops/1")

    # A new server on the same home finds every acknowledged save.
    again = Server(home, "--index", index_path)
    try:
        status, _, data = request(again.port, "GET", "/v1/saved?limit=500")
        ids = set(re.findall(r'"id":"(point:ops/\d+)"', data.decode()))
        cursor = re.search(r'"next":"(\d+)"', data.decode())
        while cursor:
            status, _, data = request(again.port, "GET", "/v1/saved?limit=500&cursor=" + cursor.group(1))
            ids |= set(re.findall(r'"id":"(point:ops/\d+)"', data.decode()))
            cursor = re.search(r'"next":"(\d+)"', data.decode())
        lost = [i for i in acknowledged if i not in ids]
        print("saves acknowledged %d, found after the restart %d, lost %d" % (len(acknowledged), len(ids), len(lost)))
        assert lost == [], lost[:10]
    finally:
        again.stop()


def test_a_request_still_running_at_the_shutdown_timeout_is_cut_and_the_exit_says_so(index):
    folder, index_path = index
    home = tempfile.mkdtemp(prefix="pindrop-timeout-", dir=folder)
    server = Server(home, "--index", index_path, "--shutdown-timeout", "2")
    stalled, _ = partial_put(server.port, 2)   # the rest never comes
    time.sleep(0.3)
    signalled = time.time()
    server.process.send_signal(signal.SIGTERM)
    code = server.process.wait(timeout=60)
    exited = time.time() - signalled
    stalled.close()
    log = server.output()
    server.stop()
    assert code == 1, log[-2000:]
    assert 2 <= exited < 2 + 15, exited
    assert "stopped after the shutdown timeout (2 s)" in log


def test_metrics_count_the_readme_example_requests_exactly(index):
    folder, index_path = index
    home = tempfile.mkdtemp(prefix="pindrop-metrics-", dir=folder)
    server = Server(home, "--index", index_path, "--log-format", "json")
    try:
        before = samples(server.port)
        # The README's example requests ("Operate"), one more suggestion, the status, and one refused search.
        for path in ("/v1/suggest?q=Par", "/v1/search?q=Paris", "/v1/reverse?lat=48.85&lon=2.35", "/v1/suggest?q=Zur",
                     "/v1/status"):
            assert request(server.port, "GET", path)[0] == 200, path
        status, headers, _ = request(server.port, "PUT", "/v1/saved/geonames:2988507")
        assert status == 201 and len(headers.get("X-Request-Id", "")) == 16
        assert request(server.port, "GET", "/v1/search")[0] == 400
        after = samples(server.port)
        delta = lambda series: after.get(series, 0) - before.get(series, 0)
        requests_total = "pindrop_http_requests_total"
        assert delta(key(requests_total, route="/v1/suggest", method="GET", status="2xx")) == 2
        assert delta(key(requests_total, route="/v1/search", method="GET", status="2xx")) == 1
        assert delta(key(requests_total, route="/v1/search", method="GET", status="4xx")) == 1
        assert delta(key(requests_total, route="/v1/reverse", method="GET", status="2xx")) == 1
        assert delta(key(requests_total, route="/v1/saved/{id}", method="PUT", status="2xx")) == 1
        assert delta(key(requests_total, route="/metrics", method="GET", status="2xx")) == 1
        assert delta(key("pindrop_http_request_duration_seconds_count", route="/v1/suggest", method="GET")) == 2
        assert delta(key("pindrop_engine_duration_seconds_count", verb="suggest")) == 2
        assert delta(key("pindrop_engine_duration_seconds_count", verb="lookup")) == 1   # the save of an id looks it up
        assert delta(key("pindrop_http_request_duration_seconds_sum", route="/v1/search", method="GET")) > 0
        assert delta("pindrop_saves_total") == 1
        assert after["pindrop_index_places"] == 5 and after["pindrop_index_size_bytes"] > 0
        # The access log: one JSON line per request, by route pattern, never the query's text.
        time.sleep(0.5)
        lines = [line for line in server.output().splitlines()
                 if '"logger":"pindrop.access"' in line and '"route":"/healthz"' not in line]
        assert len(lines) == 9, lines
        assert all('"route":' in line and '"request_id":' in line and '"duration_ms":' in line for line in lines)
        assert not any("Paris" in line or "q=" in line for line in lines)
    finally:
        server.stop()


def test_readyz_follows_the_database_down_and_back(index):
    folder, _ = index
    home = tempfile.mkdtemp(prefix="pindrop-ready-", dir=folder)
    database = "pindrop_ready_%d" % os.getpid()
    url = urllib.parse.urlunsplit(urllib.parse.urlsplit(SERVER_URL)._replace(path="/" + database))
    subprocess.run(["psql", SERVER_URL, "-qc", "CREATE DATABASE " + database], check=True, timeout=120)
    pindrop(home, "import", "geonames", MINI, "--store", url)
    server = Server(home, "--store", url)
    try:
        assert request(server.port, "GET", "/readyz")[0] == 200
        subprocess.run([CLUSTER_SCRIPT, "down", CLUSTER], check=True, timeout=120)
        try:
            deadline, status = time.time() + 30, None
            while time.time() < deadline:
                status, _, body = request(server.port, "GET", "/readyz", timeout=15)
                if status == 503:
                    break
                time.sleep(0.2)
            assert status == 503, body
            assert b"store_unavailable" in body
            assert request(server.port, "GET", "/healthz")[0] == 200
            assert request(server.port, "GET", "/v1/suggest?q=Par")[0] == 200   # places answer from memory
        finally:
            subprocess.run([CLUSTER_SCRIPT, "up", CLUSTER], check=True, timeout=120)
        deadline, status = time.time() + 60, None
        while time.time() < deadline:
            status = request(server.port, "GET", "/readyz", timeout=15)[0]
            if status == 200:
                break
            time.sleep(0.2)
        assert status == 200
        pool = samples(server.port)
        assert key("pindrop_store_pool_connections", state="in_use") in pool
        assert pool["pindrop_store_pool_max_connections"] == 16
    finally:
        server.stop()
    assert server.process.returncode == 0, server.output()[-2000:]


def test_the_installed_server_answers_from_its_prefix(index):
    folder, index_path = index
    prefix = tempfile.mkdtemp(prefix="pindrop-prefix-", dir=folder)
    configuration = os.environ.get("PINDROP_BUILD_CONFIG", "debug")
    result = subprocess.run([os.path.join(ROOT, "scripts/install.sh"), prefix], capture_output=True, text=True,
                            timeout=1800, env=dict(os.environ, PINDROP_BUILD_CONFIG=configuration))
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    installed = os.path.join(prefix, "bin/pindrop")
    assert os.path.islink(installed) and os.access(installed, os.X_OK)
    assert os.path.isfile(os.path.join(prefix, "share/pindrop/data/geonames/cities500.txt.gz"))
    assert os.path.isfile(os.path.join(prefix, "share/pindrop/pindrop.toml.example"))
    # Started from a folder that is not the checkout, with the example configuration (a different host allowed).
    home = tempfile.mkdtemp(prefix="pindrop-installed-", dir=folder)
    server = Server(home, "--index", index_path, "--config", os.path.join(prefix, "share/pindrop/pindrop.toml.example"),
                    binary=installed, cwd=home)
    try:
        status, _, body = request(server.port, "GET", "/v1/status")
        assert status == 200 and b'"placeCount":5' in body.replace(b" ", b""), body
        status, headers, page = request(server.port, "GET", "/")
        assert status == 200 and b"app.js" in page
        assert request(server.port, "GET", "/openapi.json")[0] == 200
        status, _, countries = request(server.port, "GET", "/basemap/countries.geojson")
        assert status == 200 and b"FeatureCollection" in countries
    finally:
        server.stop()
    assert server.process.returncode == 0
    print("\ninstalled (%s) into %s; the server from there answered /v1/status, /, /openapi.json, the basemap"
          % (configuration, prefix))


def test_the_systemd_unit_verifies_and_the_compose_file_runs_two_servers_on_one_database(tmp_path):
    """What can be checked here without systemd running or Docker: `systemd-analyze verify` on the unit (its
    ExecStart pointed at a built binary), and the compose file's shape."""
    analyze = shutil.which("systemd-analyze")
    if analyze:
        with open(os.path.join(ROOT, "deploy/pindrop.service")) as unit:
            text = unit.read().replace("/usr/local/bin/pindrop", BIN)
        text = re.sub(r"(?m)^Documentation=.*$", "Documentation=file:" + os.path.join(ROOT, "docs/deployment.md"), text)
        (tmp_path / "pindrop.service").write_text(text)
        result = subprocess.run([analyze, "verify", str(tmp_path / "pindrop.service")], capture_output=True, text=True,
                                timeout=120, cwd=tmp_path)
        assert result.returncode == 0, result.stdout + result.stderr
        print("\nsystemd-analyze verify: the unit is valid")
    else:
        print("\nsystemd-analyze is not installed: the unit was not verified")
    yaml = pytest.importorskip("yaml")
    with open(os.path.join(ROOT, "deploy/compose.yaml")) as compose_file:
        compose = yaml.safe_load(compose_file)
    services = compose["services"]
    servers = [name for name, service in services.items() if service.get("build", {}).get("dockerfile") == "deploy/Dockerfile"]
    assert len(servers) == 2
    assert services["db"]["image"].startswith("postgis/postgis:15")
    for name in servers:
        assert "@db:5432/" in services[name]["environment"]["PINDROP_DATABASE_URL"]
        assert services[name]["depends_on"]["db"]["condition"] == "service_healthy"
    with open(os.path.join(ROOT, "deploy/Dockerfile")) as dockerfile:
        assert 'ENTRYPOINT ["/opt/pindrop/bin/pindrop", "serve"]' in dockerfile.read()
