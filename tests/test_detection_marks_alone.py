"""A row of ``chatcodec convert`` is checked for marks against its ``--from`` format by the
marks alone (each looked up in what the format cannot hold, made once a detection table:
a role, a key or a content type that settles it makes no text): the verdict must be the one
the marks found in words give, :func:`chatcodec._detect.markers`, on every body.

Checked on every recorded body, the dataset route's rows, and a body holding each content
type the marks name, in each variant of a part the finder tells apart, in each role, beside
messages that are no object and roles that are no text, for every known format and for a
format registered after the table was first made."""

from __future__ import annotations

import importlib
import json
import random
import sys
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest

from chatcodec import _detect as detect
from test_detection_laws import trial_codec  # noqa: F401  (the fixture, used by name)

FIXTURES = Path(__file__).parent / "fixtures"
_VARIANTS: tuple[dict[str, Any], ...] = (
    {},
    {"input": {}},
    {"source": {"type": "base64", "data": "AAAA"}},
    {"source": {"type": "base64", "media_type": "image/png", "data": "AAAA"}},
    {"source": "https://example.com/a.png"},
    {"thinking": "t"},
    {"input": {}, "thinking": "t", "source": {"media_type": "x"}},
    {"role": "user"},
    {"text": "t"},
)
_TYPES = (
    *("text", "image_url", "input_audio", "file", "refusal", "image", "document", "tool_use", "tool_result"),
    *("thinking", "redacted_thinking", "server_tool_use", "web_search_tool_result", "search_result"),
    *("input_text", "output_text", "untyped", "a_type_no_format_names"),
)
"""Every content type a format's marks name (and two that none does)."""
_ROLES = ("system", "developer", "user", "assistant", "tool", "function", "model", "other")


def _recorded() -> Iterator[Any]:
    for path in sorted(FIXTURES.rglob("*.json")):
        yield json.loads(path.read_text(encoding="utf-8"))
    for path in sorted(FIXTURES.rglob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                yield json.loads(line)


def _dataset_rows() -> Iterator[dict[str, Any]]:
    """The dataset route's rows (``bench/dataset_route.py``), what the check was made cheap for."""
    root = str(Path(__file__).resolve().parents[1])
    if root not in sys.path:
        sys.path.insert(0, root)
    route = importlib.import_module("bench.dataset_route")
    yield from route.rows(60)


def _part_bodies() -> Iterator[dict[str, Any]]:
    kinds: list[object] = [*_TYPES, None, 5]
    for kind in kinds:
        for variant in _VARIANTS:
            part = {**variant} if kind is None else {"type": kind, **variant}
            for role in _ROLES:
                message = {"role": role, "content": [{"type": "text", "text": "a"}, part]}
                yield {"model": "m", "messages": [message]}
                yield {"messages": [{**message, "tool_call_id": "c"}, {"role": role, "parts": [{"text": "x"}]}]}
                yield {"choices": [{"message": message, "finish_reason": "stop"}]}


def _odd(bodies: list[Any]) -> Iterator[dict[str, Any]]:
    """Bodies with a message that is no object, a role that is no text, a prompt column, and
    messages and parts of a dict's subclass (a caller's ``OrderedDict``)."""
    for body in bodies:
        if isinstance(body, dict) and isinstance(body.get("messages"), list) and body["messages"]:
            messages: list[Any] = body["messages"]
            yield {**body, "messages": ["loose", *messages]}
            yield {**body, "messages": [{"role": ["x"]}, *messages]}
            yield {**body, "messages": [{**message, "role": 5} for message in messages if isinstance(message, dict)]}
            yield {**body, "prompt": "a dataset's prompt column", "tools": [{"type": "web_search_20250305"}]}
            yield {**body, "messages": [_ordered(message) for message in messages]}


def _ordered(value: object) -> object:
    """``value`` with every object in it an ``OrderedDict``."""
    if isinstance(value, dict):
        return OrderedDict((key, _ordered(item)) for key, item in cast("dict[str, object]", value).items())
    if isinstance(value, list):
        return [_ordered(item) for item in cast("list[object]", value)]
    return value


def _bodies() -> list[Any]:
    bodies: list[Any] = [*_recorded(), *_dataset_rows(), *_part_bodies()]
    bodies += list(_odd(random.Random(81).sample(bodies, 400)))
    return bodies


BODIES = _bodies()


def _verdicts_agree(source: str) -> None:
    for body in BODIES:
        against = [marker for marker in detect.markers(body) if source not in marker.formats]
        found = detect.other_format(source, body)
        if not against:
            assert found is None, (source, body)
        else:
            assert found is not None, (source, body)
            assert found[0] == against[0].found, (source, body)


@pytest.mark.parametrize("source", detect.known_formats())
def test_the_marks_alone_give_the_verdict_of_the_marks_in_words(source: str) -> None:
    _verdicts_agree(source)


def test_a_format_registered_later_is_checked_by_its_own_marks(trial_codec: str) -> None:  # noqa: F811
    """The table is made again when a codec is registered, and what each format cannot
    hold with it: the trial format's verdicts, and the others' beside it, agree."""
    assert trial_codec in detect.known_formats()
    for source in (trial_codec, "openai-chat", "anthropic"):
        _verdicts_agree(source)
    assert detect.mismatch(trial_codec, {"messages": [{"role": "user", "content": "hi"}], "system": "s"}) is not None
