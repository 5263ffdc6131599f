"""The fake upstream most serve tests share: one per test module, emptied before each test
of a module that asks for it (``pytestmark = pytest.mark.usefixtures("fresh_fake")``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from serve.harness import FakeUpstream, serving_fake


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
