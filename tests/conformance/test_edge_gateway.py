"""The gateway laws of every edge: its model list and token counting hold together.

- a front that lists models writes a JSON object for any names, its routes absolute
  ``GET`` paths;
- a front that counts tokens is an API whose upstream side counts too (one provider's
  endpoint, offered and called), and the count a front writes is the count its own
  upstream side reads back; its routes are absolute paths;
- an upstream's count URL starts with the base it is given, and its count body is a
  JSON object for a plain written request.
"""

from __future__ import annotations

import json

import pytest

from chatcodec._registry import get_edge
from conformance.providers import PROVIDER_NAMES

LISTING = [name for name in PROVIDER_NAMES if (front := get_edge(name).front) is not None and front.models is not None]
COUNTING = [
    name for name in PROVIDER_NAMES if (front := get_edge(name).front) is not None and front.count_tokens is not None
]
COUNTED = [
    name
    for name in PROVIDER_NAMES
    if (upstream := get_edge(name).upstream) is not None and upstream.count_tokens is not None
]


def test_the_gateway_facts_are_not_empty() -> None:
    """The laws below run over something: the lists are the edges' own."""
    assert LISTING
    assert COUNTING
    assert set(COUNTING) <= set(COUNTED)


@pytest.mark.parametrize("name", LISTING)
def test_a_model_list_is_json_for_any_names(name: str) -> None:
    front = get_edge(name).front
    assert front is not None
    assert front.models is not None
    assert all(route.startswith("/") for route in front.models.routes)
    for names in ([], ["a-model"], ["one", "two/with-slash"]):
        body = front.models.write(names)
        assert json.loads(json.dumps(body)) == body
        assert str(names[-1] if names else "") in json.dumps(body)


@pytest.mark.parametrize("name", COUNTING)
def test_a_front_that_counts_tokens_reads_its_own_count_back(name: str) -> None:
    edge = get_edge(name)
    assert edge.front is not None
    assert edge.front.count_tokens is not None
    assert all(route.startswith("/") for route in edge.front.count_tokens.routes)
    assert edge.upstream is not None
    assert edge.upstream.count_tokens is not None, "a count offered is a count called"
    assert edge.upstream.count_tokens.read(edge.front.count_tokens.write(1234)) == 1234


@pytest.mark.parametrize("name", COUNTED)
def test_an_upstream_count_url_starts_with_its_base(name: str) -> None:
    upstream = get_edge(name).upstream
    assert upstream is not None
    assert upstream.count_tokens is not None
    assert upstream.count_tokens.url("https://example.test/base", "a-model").startswith("https://example.test/base/")
    body = upstream.count_tokens.body({"model": "a-model", "messages": [], "stream": True}, "a-model")
    assert "stream" not in json.dumps(body)
