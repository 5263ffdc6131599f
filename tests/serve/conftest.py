"""The fake upstream most serve tests share: one per test module, emptied before each test
of a module that asks for it (``pytestmark = pytest.mark.usefixtures("fresh_fake")``)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from serve.harness import FakeUpstream, serving_fake
from serve.redis_server import RedisServer


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeUpstream]:
    with serving_fake() as upstream:
        yield upstream


@pytest.fixture
def fresh_fake(fake: FakeUpstream) -> None:
    """The fake with no reply queued, nothing received, no client gone and no stream closed."""
    fake.replies.clear()
    fake.received.clear()
    fake.disconnected.clear()
    fake.stream_closed.clear()


@pytest.fixture(autouse=True, scope="session")
def config_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The servers' config directory (where a seal key is kept with no durable store:
    :mod:`chatcodec.serve._seals`) is the session's own, never the user's."""
    previous = os.environ.get("XDG_CONFIG_HOME")
    os.environ["XDG_CONFIG_HOME"] = str(tmp_path_factory.mktemp("config"))
    yield
    if previous is None:
        del os.environ["XDG_CONFIG_HOME"]
    else:
        os.environ["XDG_CONFIG_HOME"] = previous


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    """A real Redis server, started (append-only, in the test's folder), stopped at the end."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not on PATH: install it (apt-get install redis-server) to test the Redis store")
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()
