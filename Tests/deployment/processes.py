"""What the process-level tests share: the binary, free loopback ports, running `pindrop` commands, and waiting for
a server to answer."""
import http.client
import os
import socket
import subprocess
import threading
import time

BIN = os.environ["PINDROP_BIN"]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pindrop(home, *arguments, env=None):
    """stdout of a `pindrop` command that must succeed, with PINDROP_HOME=home."""
    result = subprocess.run([BIN, *arguments], env=dict(os.environ, PINDROP_HOME=home, **(env or {})),
                            capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stderr
    return result.stdout


def wait_until_answering(process, port, path, output, seconds=600):
    """Waits until GET path answers 200 (a debug build may build an index first); fails with the server's output
    (`output()`) when it exits or the time runs out."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        assert process.poll() is None, output()
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        try:
            connection.request("GET", path)
            if connection.getresponse().status == 200:
                return
        except OSError:
            pass
        finally:
            connection.close()
        time.sleep(0.2)
    raise AssertionError("the server did not start: " + output())


class SaveBurst:
    """Four clients saving places as fast as they are answered, `per_client` each, until stopped or a connection is
    refused; `save(n)` makes the request for place n and returns (status, body). Records the saves acknowledged
    (200/201, by place number) and any other answer (refused)."""

    def __init__(self, save, per_client):
        self.acknowledged, self.refused = [], []
        self._save, self._lock, self._stop = save, threading.Lock(), threading.Event()
        self._threads = [threading.Thread(target=self._client, args=(1000 + 1000 * t, per_client)) for t in range(4)]
        for thread in self._threads:
            thread.start()

    def _client(self, first, count):
        for n in range(first, first + count):
            if self._stop.is_set():
                return
            try:
                status, body = self._save(n)
            except OSError:
                return   # the server is gone or no longer accepts: this save was never acknowledged
            with self._lock:
                if status in (200, 201):
                    self.acknowledged.append(n)
                else:
                    self.refused.append((status, body))

    def wait_for(self, count, seconds=120):
        """Until `count` saves are acknowledged, one is refused, or the time runs out."""
        deadline = time.time() + seconds
        while len(self.acknowledged) < count and time.time() < deadline and not self.refused:
            time.sleep(0.01)

    def stop(self):
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=60)
