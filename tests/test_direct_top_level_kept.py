"""The usual OpenAI Chat request with OpenRouter's own ``reasoning`` and ``usage`` objects beside
it, into Responses and into Anthropic (issue 107): the reader keeps ``usage`` in its bag unread and reads
``reasoning`` into canonical reasoning by its own decoder (what it does not read kept in the
bag), and the writer reports that bag before it writes the input, so the direct top level
writes the usual request, the reasoning by the writer's ``encode_settings``, and reports the
same bag, first, by the writer's kit. What it gives is what the canonical path (the oracle)
gives: the output, the losses in their order, or the error; such objects of any other value go
the general top level."""

from __future__ import annotations

import copy
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chatcodec
from chatcodec import Loss
from chatcodec._direct import openai_chat_to_anthropic, openai_chat_to_openai_responses
from chatcodec._direct.table import canonical_only
from chatcodec._direct.top_levels.openai_chat_usual import KEPT_WHOLE, kept_beside
from chatcodec._providers.kit import remembered_tools

_PAIRS = {"openai-responses": openai_chat_to_openai_responses, "anthropic": openai_chat_to_anthropic}
"""Each target with the pair's module (its general top level, counted)."""
_TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "read_file",
            "description": "Read a file.",
            "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
        },
    },
    {"type": "function", "function": {"name": "a name with spaces", "parameters": {"type": "object"}}},
]
_MESSAGES: list[dict[str, Any]] = [
    {"role": "system", "content": "You are terse."},
    {"role": "user", "content": "Read it."},
    {
        "role": "assistant",
        "content": "",
        "reasoning": "I read it.",
        "reasoning_details": [
            {"type": "reasoning.text", "text": "I read it.", "signature": "sig", "format": "anthropic-claude-v1"}
        ],
        "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "read_file", "arguments": '{"path": "a"}'}}
        ],
    },
    {"role": "tool", "tool_call_id": "call_1", "content": "text"},
    {"role": "user", "content": "Thanks."},
]
"""A history whose turns report losses of their own (OpenRouter's reasoning, dropped), after the bag's."""


def _body(**fields: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"model": "anthropic/claude-sonnet-4.5", "messages": copy.deepcopy(_MESSAGES)}
    body["tools"] = copy.deepcopy(_TOOLS)
    return {**body, **copy.deepcopy(fields)}


def _outcome(body: dict[str, Any], target: str) -> Any:
    losses: list[Loss] = []
    try:
        out = chatcodec.convert_request(
            copy.deepcopy(body), source="openai-chat", target=target, on_loss="ignore", losses=losses
        )
    except chatcodec.ChatcodecError as error:
        return type(error), str(error)
    return out, losses


def _canonical(body: dict[str, Any], target: str) -> Any:
    with canonical_only():
        return _outcome(body, target)


class _General:
    """How many bodies went the pair's general top level."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, target: str) -> None:
        self.count = 0
        pair = _PAIRS[target]
        general = pair.write_directly

        def counted(*arguments: Any, **keywords: Any) -> dict[str, Any] | None:
            self.count += 1
            return general(*arguments, **keywords)

        monkeypatch.setattr(pair, "write_directly", counted)


@pytest.fixture(autouse=True)
def _empty_memory() -> None:
    remembered_tools._READINGS.clear()  # pyright: ignore[reportPrivateUsage]


_KEPT: dict[str, dict[str, Any]] = {
    "OpenRouter's held-out agent": {"reasoning": {"effort": "high"}, "max_tokens": 32_000, "usage": {"include": True}},
    "usage first": {"usage": {"include": False}, "reasoning": {"effort": "low"}},
    "a reasoning budget, streamed": {"reasoning": {"max_tokens": 2048, "exclude": True}, "stream": True},
    "empty objects": {"reasoning": {}, "usage": {}},
    "a choice and a temperature": {"reasoning": {"enabled": True}, "tool_choice": "auto", "temperature": 0.3},
    "a reasoning model's temperature (a target rule)": {
        "model": "gpt-5",
        "reasoning": {"effort": "minimal"},
        "temperature": 0.2,
    },
    "a text of no JSON": {"reasoning": {"effort": "\ud800"}},
    "an integer of no float": {"reasoning": {"max_tokens": 2**80}},
}


@pytest.mark.parametrize("target", list(_PAIRS))
@pytest.mark.parametrize("fields", list(_KEPT.values()), ids=list(_KEPT))
def test_the_kept_objects_are_reported_as_the_canonical_path_reports_them(
    fields: dict[str, Any], target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    general = _General(monkeypatch, target)
    rows = [_outcome(_body(**fields), target) for _ in range(3)]  # the tools read, then as written
    assert general.count == 0
    expected = _canonical(_body(**fields), target)
    assert rows == [expected] * 3
    output, losses = cast("tuple[dict[str, Any], list[Loss]]", rows[0])
    assert list(output) == list(expected[0])  # the writer's order of fields too
    reported = [loss for loss in losses if loss.path == "$.provider_options"]
    if reported:  # the bag's report first, as the writer claims it first
        assert losses[0] is reported[0]
    if "usage" in fields:
        assert "'usage'" in losses[0].what
    read = _READ[target].get(_name(fields))
    if read is not None:  # OpenRouter's reasoning, read as canonical reasoning: written
        assert output[_WRITTEN[target]] == read
        assert ("'reasoning'" in losses[0].what) is ("exclude" in fields["reasoning"])


def _name(fields: dict[str, Any]) -> str:
    return next(name for name, value in _KEPT.items() if value == fields)


_READ: dict[str, dict[str, dict[str, Any]]] = {
    "openai-responses": {
        "OpenRouter's held-out agent": {"effort": "high"},
        "usage first": {"effort": "low"},
        "a reasoning budget, streamed": {"effort": "low"},
        "a choice and a temperature": {"effort": "medium"},
    },
    "anthropic": {
        "OpenRouter's held-out agent": {"type": "enabled", "budget_tokens": 24576},
        "a reasoning budget, streamed": {"type": "enabled", "budget_tokens": 2048},
    },
}
"""The Responses ``reasoning`` (Anthropic's ``thinking``) some cases' OpenRouter object is written as."""
_WRITTEN = {"openai-responses": "reasoning", "anthropic": "thinking"}


_OTHER: dict[str, dict[str, Any]] = {
    "a nested object": {"usage": {"include": True, "detail": {"cost": True}}},
    "a list": {"reasoning": {"effort": ["high"]}},
    "a float": {"reasoning": {"budget": 0.5}},
    "NaN": {"usage": {"include": float("nan")}},
    "a null object": {"reasoning": None},
    "a text": {"reasoning": "high"},
    "a null value": {"usage": {"include": None}},
    "another field beside": {"reasoning": {"effort": "high"}, "provider": {"order": ["anthropic"]}},
    "a setting outside OpenAI's range": {"reasoning": {"effort": "high"}, "temperature": 5.0},
}


@pytest.mark.parametrize("target", list(_PAIRS))
@pytest.mark.parametrize("fields", list(_OTHER.values()), ids=list(_OTHER))
def test_other_values_go_the_general_top_level(
    fields: dict[str, Any], target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    general = _General(monkeypatch, target)
    body = _body(**fields)
    assert _outcome(body, target) == _canonical(body, target)
    assert general.count == 1


def test_the_reader_keeps_usage_whole_and_reads_reasoning_by_its_decoder() -> None:
    """The facts the direct top level stands on, asked of the reader: no decoder reads ``usage``,
    kept in its bag as it came; ``reasoning`` is read by the decoder the top level calls."""
    from chatcodec._providers.openai_chat import request_fields

    assert "usage" not in request_fields._PLANNED_KEYS  # pyright: ignore[reportPrivateUsage]
    assert "reasoning" in request_fields._PLANNED_KEYS  # pyright: ignore[reportPrivateUsage]
    kept = {"reasoning": {"effort": "high", "exclude": True}, "usage": {"include": True}}
    read = chatcodec.decode_request("openai-chat", _body(**kept))
    assert read.provider_options is not None
    assert read.provider_options["openai-chat"]["usage"] == kept["usage"]
    assert read.provider_options["openai-chat"]["reasoning"] == {"exclude": True}
    assert read.reasoning is not None
    assert (read.reasoning.effort, read.max_tokens) == ("high", None)


def test_kept_beside_splits_a_body_in_its_order() -> None:
    body: dict[str, Any] = {"model": "m", "usage": {"include": True}, "messages": [], "reasoning": {"effort": "high"}}
    assert kept_beside(body) == (
        {"model": "m", "messages": []},
        {"usage": {"include": True}, "reasoning": body["reasoning"]},
    )
    assert kept_beside({"model": "m", "messages": []}) is None
    assert kept_beside({**body, "usage": {1: True}}) is None  # a key no text


_VALUES = st.one_of(st.text(max_size=3), st.integers(-2, 2**70), st.booleans(), st.none(), st.floats(allow_nan=True))


@settings(max_examples=120, deadline=None)
@given(
    target=st.sampled_from(list(_PAIRS)),
    kept=st.dictionaries(
        st.sampled_from(sorted(KEPT_WHOLE)), st.dictionaries(st.text(max_size=3), _VALUES, max_size=3), min_size=1
    ),
    fields=st.fixed_dictionaries(
        {},
        optional={
            "max_tokens": st.integers(-1, 70_000),
            "stream": st.booleans(),
            "temperature": st.floats(-1, 3),
            "tool_choice": st.sampled_from(["auto", "none", "required"]),
        },
    ),
)
def test_any_kept_objects_convert_as_the_canonical_path_converts_them(
    target: str, kept: dict[str, Any], fields: dict[str, Any]
) -> None:
    body = _body(**fields, **kept)
    assert _outcome(body, target) == _canonical(body, target)
