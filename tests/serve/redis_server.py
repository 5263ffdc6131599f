"""A real ``redis-server`` on loopback that a test can stop and start again on the same
port (its append-only file brings back what it held); the ``redis_server`` fixture
(``conftest.py``) skips a test when ``redis-server`` is not on PATH (CI installs it)."""

from __future__ import annotations

import socket
import subprocess
import time
from pathlib import Path


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


START_SECONDS = 60
"""How long a start may take before the test fails: a loaded two-core machine is slow to exec."""


class RedisServer:
    """A real ``redis-server`` on loopback that a test can restart on the same port."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.folder = folder
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [
            "redis-server",
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--dir",
            str(self.folder),
        ]
        self.process = subprocess.Popen(
            [*command, "--appendonly", "yes"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + START_SECONDS
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                if time.monotonic() > deadline:
                    self.kill()  # a server that did not answer in time is not left running
                    raise
                time.sleep(0.05)

    def kill(self) -> None:
        """Stops the server at once, whatever state it is in."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
            self.process = None
