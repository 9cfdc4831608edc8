"""The server against slow, hostile and broken clients, at the connection level (raw sockets, no browser):
idle and slow-header sockets are closed and do not slow anyone else, the connection cap answers 503, and
oversized, malformed or truncated requests get the JSON error instead of an empty 400 or a 500."""
import json
import os
import resource
import socket
import statistics
import time
import urllib.request

import pytest

from app import start_server, stop_server


@pytest.fixture(scope="module")
def guarded():
    """A server that closes idle connections after 2 s."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
    process, port, work = start_server("--idle-timeout", "2")
    yield port
    log = stop_server(process, work)
    # Broken requests are the client's fault: none may show up as a server error in the log.
    assert "error" not in log.lower(), log


def connect(port):
    return socket.create_connection(("127.0.0.1", port), timeout=5)


def exchange(port, data, half_close=False, timeout=5):
    """Sends `data` on a new connection and reads until the server closes it; returns the bytes read."""
    with connect(port) as s:
        s.settimeout(timeout)
        s.sendall(data)
        if half_close:
            s.shutdown(socket.SHUT_WR)
        answer = b""
        while True:
            try:
                chunk = s.recv(65536)
            except (socket.timeout, ConnectionResetError):
                break
            if not chunk:
                break
            answer += chunk
        return answer


def status_and_error(answer):
    head, _, body = answer.partition(b"\r\n\r\n")
    status = int(head.split(b" ")[1])
    return status, json.loads(body)["error"]["code"]


def timed_get(port, path="/v1/search?q=Helsinki&limit=1"):
    start = time.perf_counter()
    with urllib.request.urlopen("http://127.0.0.1:%d%s" % (port, path), timeout=10) as response:
        assert response.status == 200
        response.read()
    return time.perf_counter() - start


def is_closed_by_server(s):
    s.settimeout(0.01)
    try:
        return s.recv(1) == b""
    except socket.timeout:
        return False
    except OSError:
        return True


def test_hundreds_of_idle_and_slow_sockets_neither_block_others_nor_stay_open(guarded):
    port = guarded
    idle = [connect(port) for _ in range(300)]
    slow_headers = [connect(port) for _ in range(50)]
    for s in slow_headers:
        s.sendall(b"GET /v1/status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    stalled_uploads = [connect(port) for _ in range(50)]
    for s in stalled_uploads:
        s.sendall(b"PUT /v1/saved/a HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 10000\r\n\r\n{\"name\": \"")
    attackers = idle + slow_headers + stalled_uploads
    try:
        # A legitimate user meanwhile: every answer arrives, and fast.
        timings = [timed_get(port) for _ in range(20)]
        assert statistics.median(timings) < 0.1, timings
        # The slow headers keep dripping a byte a second; the server still closes them all at its idle timeout.
        deadline = time.time() + 6
        while time.time() < deadline and not all(is_closed_by_server(s) for s in attackers):
            for s in slow_headers:
                try:
                    s.send(b"a")
                except OSError:
                    pass
            time.sleep(1)
        still_open = sum(not is_closed_by_server(s) for s in attackers)
        assert still_open == 0, "%d of %d slow sockets still open after 6 s" % (still_open, len(attackers))
        assert timed_get(port) < 1
    finally:
        for s in attackers:
            s.close()


def test_connections_over_the_cap_are_refused_with_503_and_served_again_later():
    process, port, work = start_server("--idle-timeout", "2", "--max-connections", "20")
    held = [connect(port) for _ in range(20)]
    try:
        time.sleep(0.3)
        answer = exchange(port, b"GET /v1/status HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert status_and_error(answer) == (503, "overloaded")
        assert b"Retry-After: 5" in answer
        time.sleep(3)  # the idle timeout frees the held connections
        assert timed_get(port, "/v1/status") < 1
    finally:
        for s in held:
            s.close()
        stop_server(process, work)


def test_a_huge_url_is_414_and_huge_headers_are_431_with_the_json_error(guarded):
    answer = exchange(guarded, b"GET /v1/search?q=" + b"a" * 1_000_000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert status_and_error(answer) == (414, "uri_too_long")
    answer = exchange(guarded, b"GET /v1/status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 100_000 + b"\r\n\r\n")
    assert status_and_error(answer) == (431, "headers_too_large")


def test_malformed_and_truncated_requests_are_400_not_500(guarded):
    assert status_and_error(exchange(guarded, b"GARBAGE\r\n\r\n")) == (400, "invalid_input")
    short = (b"POST /v1/recent HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
             b"Content-Length: 100\r\n\r\n{\"id\":")
    assert status_and_error(exchange(guarded, short, half_close=True)) == (400, "invalid_input")
    chunked = (b"POST /v1/recent HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
               b"Transfer-Encoding: chunked\r\n\r\n5\r\n{\"id\"")
    assert status_and_error(exchange(guarded, chunked, half_close=True)) == (400, "invalid_input")


def test_expect_100_continue_is_answered_before_the_body_is_sent(guarded):
    body = b'{"id": "geonames:658225"}'
    with connect(guarded) as s:
        s.sendall(b"POST /v1/recent HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  b"Expect: 100-continue\r\nContent-Length: %d\r\n\r\n" % len(body))
        s.settimeout(0.5)  # curl waits 1 s when no 100 comes
        assert s.recv(4096).startswith(b"HTTP/1.1 100 Continue")
        s.sendall(body)
        s.settimeout(5)
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += s.recv(4096)
        assert answer.startswith(b"HTTP/1.1 201")


def test_static_paths_refuse_nul_and_going_up(guarded):
    for path in (b"/app.js%00.html", b"/%2e%2e/%2e%2e/etc/passwd", b"/../../etc/passwd"):
        answer = exchange(guarded, b"GET " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        assert status_and_error(answer) == (400, "invalid_input"), path
        assert b"text/html" not in answer and b"root:" not in answer


def read_answer(s):
    """Reads one answer with a Content-Length from `s`: (head bytes, body bytes)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    length = int([line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")][0])
    while len(rest) < length:
        rest += s.recv(65536)
    return head, rest[:length], rest[length:]


def test_two_hosts_or_none_are_400_and_an_absolute_target_is_judged_by_its_own_host(guarded):
    two = b"GET /v1/status HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n"
    assert status_and_error(exchange(guarded, two)) == (400, "invalid_input")
    assert status_and_error(exchange(guarded, b"GET /v1/status HTTP/1.1\r\n\r\n")) == (400, "invalid_input")
    # The authority of an absolute-form target is the host (RFC 9112, 3.2.2), whatever Host says.
    forged = b"GET http://evil.example/v1/status HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    assert status_and_error(exchange(guarded, forged)) == (403, "forbidden")
    own = b"GET http://127.0.0.1:%d/v1/status HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n" % guarded
    assert exchange(guarded, own).startswith(b"HTTP/1.1 200")


def test_http_1_0_without_keep_alive_is_closed_right_after_its_answer(guarded):
    with connect(guarded) as s:
        start = time.perf_counter()
        s.sendall(b"GET /v1/status HTTP/1.0\r\n\r\n")
        answer = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            answer += chunk
        # The idle timeout is 2 s: closed well before it.
        assert time.perf_counter() - start < 1
    head = answer.split(b"\r\n\r\n")[0].lower()
    assert answer.startswith(b"HTTP/1.0 200") and b"connection: close" in head and b"transfer-encoding" not in head


def test_a_range_past_the_end_is_416_and_the_next_request_on_the_connection_is_answered_whole(guarded):
    with connect(guarded) as s:
        s.settimeout(5)
        s.sendall(b"GET /favicon.svg HTTP/1.1\r\nHost: 127.0.0.1\r\nRange: bytes=1000000-\r\n\r\n"
                  b"GET /favicon.svg HTTP/1.1\r\nHost: 127.0.0.1\r\nRange: bytes=-1\r\n\r\n")
        head, body, rest = read_answer(s)
        assert head.startswith(b"HTTP/1.1 416") and b"content-range: bytes */" in head.lower()
        data = rest
        while b"\r\n\r\n" not in data:
            data += s.recv(65536)
        # No stray byte between the two answers: the second starts right after the first's body.
        assert data.startswith(b"HTTP/1.1 206"), data[:40]
        assert b"nosniff" in head.lower()
