"""Whatever validates serializes (issue 87). pydantic-core's validator takes a JSON value
nested up to its recursion limit, and its JSON writer counted one level more for the same
value (three inside an opaque part): a request decoded with a tool schema 253 levels deep
raised pydantic's "Maximum serialization depth exceeded" from ``model_dump_json``. Every depth
around the limit is either refused where it is read, with chatcodec's error naming the route
into the value, or written by ``model_dump_json`` and ``model_dump(mode="json")`` as held.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

import chatcodec
from chatcodec._model.deep_dump import json_text

_FIXTURES = Path(__file__).parent / "fixtures"


def _nested(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {"a": 1}
    for _ in range(depth - 1):
        value = {"a": value}
    return value


def _tool_schema(depth: int) -> tuple[str, dict[str, Any], Callable[[dict[str, Any]], object]]:
    parameters = {"type": "object", "properties": {"x": _nested(depth)}}
    body = {
        "model": "m",
        "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"type": "function", "function": {"name": "f", "parameters": parameters}}],
    }
    return "$.tools[0].function.parameters.properties.x", body, lambda data: data["tools"][0]["parameters"]


def _metadata(depth: int) -> tuple[str, dict[str, Any], Callable[[dict[str, Any]], object]]:
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "metadata": {"x": _nested(depth)}}
    return "$.metadata.x", body, lambda data: data["provider_options"]["openai-chat"]["metadata"]


_SHAPES = {"tool schema": _tool_schema, "metadata": _metadata}


@pytest.mark.parametrize("shape", list(_SHAPES))
@pytest.mark.parametrize("depth", range(248, 258))
def test_a_decoded_request_serializes_or_is_refused_at_its_path(shape: str, depth: int) -> None:
    route, body, held = _SHAPES[shape](depth)
    if not _decodes(copy.deepcopy(body)):
        with pytest.raises(chatcodec.PayloadError, match=r"\[rule: recursion_depth_exceeded\]") as refused:
            chatcodec.decode_request("openai-chat", copy.deepcopy(body))
        assert refused.value.path.startswith(route)
        return
    request = chatcodec.decode_request("openai-chat", copy.deepcopy(body))
    text = request.model_dump_json()
    assert json.loads(text) == request.model_dump(mode="json")
    source = body["tools"][0]["function"]["parameters"] if shape == "tool schema" else body["metadata"]
    assert held(json.loads(text)) == source


@pytest.mark.parametrize("shape", list(_SHAPES))
def test_the_deepest_value_the_validator_takes_is_written(shape: str) -> None:
    """The boundary itself: the deepest value taken (one level more is refused) is written,
    which pydantic-core's JSON writer refused on its own."""
    taken = [depth for depth in range(240, 270) if _decodes(_SHAPES[shape](depth)[1])]
    deepest = max(taken)
    assert not _decodes(_SHAPES[shape](deepest + 1)[1])
    request = chatcodec.decode_request("openai-chat", _SHAPES[shape](deepest)[1])
    with pytest.raises(ValueError, match="Maximum serialization depth exceeded"):
        BaseModel.model_dump_json(request)  # pydantic's own writer, which the models' override completes
    assert json.loads(request.model_dump_json(indent=2)) == request.model_dump(mode="json")


def _decodes(body: dict[str, Any]) -> bool:
    try:
        chatcodec.decode_request("openai-chat", body)
    except chatcodec.PayloadError:
        return False
    return True


@pytest.mark.parametrize(
    "options",
    [{}, {"indent": 2}, {"exclude_none": True, "ensure_ascii": True}, {"by_alias": True, "exclude_defaults": True}],
    ids=["plain", "indent", "ascii", "aliases"],
)
def test_the_deep_writer_writes_pydantics_text(options: dict[str, Any]) -> None:
    """The text written past pydantic-core's writer is the text it writes: the same
    separators, indentation and escaping, over recorded requests of several providers."""
    compared = 0
    for provider in ("openai-chat", "anthropic", "gemini", "openai-responses"):
        for path in sorted((_FIXTURES / provider / "request").glob("*.json")):
            request = chatcodec.decode_request(provider, json.loads(path.read_text()))
            assert json_text(request, dict(options)) == request.model_dump_json(**options), path.name
            compared += 1
    assert compared >= 40
