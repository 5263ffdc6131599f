"""The canonical target follows the depth rule every path follows (docs/converting.md: a value
nested too deeply is a :class:`chatcodec.PayloadError` with rule ``recursion_depth_exceeded``
naming the route into it). Issue 76: a value the canonical model validated, but which
pydantic-core's writer (which counts a few levels more than its validator where canonical
keeps a value whole) could not write, let pydantic's bare ``ValueError: Maximum
serialization depth exceeded`` out of ``target="canonical"``. The body is a Vercel AI SDK
``UIMessage`` answer (``ai`` 6.0.325's ``UIMessage``: ``id``, ``role``, ``parts``) whose text
part holds an object, kept whole as an opaque part: a fuzz find (``convert_response[ai-sdk-ui->canonical]``).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

import chatcodec


def _nested(depth: int) -> object:
    value: object = 1
    for _ in range(depth):
        value = {"a": value}
    return value


def _answer(depth: int) -> dict[str, Any]:
    return {"messages": [{"id": "a", "role": "assistant", "parts": [{"type": "text", "text": _nested(depth)}]}]}


def _verdict(call: Callable[[], object]) -> str:
    try:
        call()
    except chatcodec.PayloadError as error:
        if "[rule: recursion_depth_exceeded]" not in str(error):
            return f"refused for another reason: {error}"
        return "refused at the route" if error.path.startswith("$.messages[0].parts[0]") else "refused at $"
    return "taken"


@pytest.mark.parametrize("depth", range(248, 258))
def test_the_canonical_target_refuses_what_it_cannot_write_as_every_path_refuses(depth: int) -> None:
    body = _answer(depth)
    converted = _verdict(
        lambda: chatcodec.convert_response(
            copy.deepcopy(body), source="ai-sdk-ui", target="canonical", on_loss="ignore"
        )
    )
    assert converted in {"taken", "refused at the route"}
    decoded = _verdict(lambda: chatcodec.decode_response("ai-sdk-ui", copy.deepcopy(body)))
    if decoded == "taken":
        model = chatcodec.decode_response("ai-sdk-ui", copy.deepcopy(body))
        written = _verdict(lambda: chatcodec.encode_response("canonical", model))
        assert written == ("taken" if converted == "taken" else "refused at $")
    else:
        assert converted == "refused at the route"


def test_the_window_the_writer_refused_is_written_now() -> None:
    """At 252 levels the model holds the value (``decode_response`` takes it) and pydantic-core's
    JSON writer counts it as too deep; the canonical target writes it all the same (issue 87:
    whatever validates serializes, ``chatcodec._model.deep_dump``)."""
    body = _answer(252)
    chatcodec.decode_response("ai-sdk-ui", copy.deepcopy(body))
    written = chatcodec.convert_response(copy.deepcopy(body), source="ai-sdk-ui", target="canonical", on_loss="ignore")
    assert json.dumps(written).count('{"a": ') == 252
