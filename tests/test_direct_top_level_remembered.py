"""A usual request's top level before its turns, remembered by its shape for OpenAI Chat -> Anthropic and
-> Responses (``_direct/top_levels/openai_chat_usual_remembered.py``): a client's sessions of one top level, each with
its own ``user`` and ``seed``, take the pair's writing of it from memory, and each gives what the
canonical path (the oracle) gives, under ``ignore`` and ``warn``; what the memory cannot prove a
function of the body's text is written by the pair each time."""

from __future__ import annotations

import copy
import json
import marshal
from typing import Any

import pytest

import chatcodec
from chatcodec._direct import openai_chat_to_anthropic, openai_chat_to_openai_responses
from chatcodec._direct.table import canonical_only
from chatcodec._direct.top_levels import openai_chat_usual_remembered
from chatcodec._direct.top_levels.openai_chat_usual import Usual
from chatcodec._losses import LossRecorder
from chatcodec._providers.kit import remembered_tools
from direct_outcomes import ON_LOSSES, equal_to_canonical, outcome

_TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "read_file",
            "description": "Read a file.",
            "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
        },
    },
    {
        "type": "function",
        "function": {"name": "run", "parameters": {"type": "object", "additionalProperties": False}},
        "cache_control": {"type": "ephemeral"},  # litellm's marker on the last tool: a breakpoint noted
    },
]


def _body(session: int, *, without: tuple[str, ...] = (), **fields: Any) -> dict[str, Any]:
    """A session's request of one client: its own task, end user and seed, the client's settings
    (``fields`` put in, ``without`` taken out)."""
    body = {
        "model": "claude-sonnet-4-5",
        "messages": [
            {"role": "system", "content": "You are terse."},
            {"role": "user", "content": f"Task {session}: read it."},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": f"call_{session}",
                        "type": "function",
                        "function": {"name": "read_file", "arguments": f'{{"path": "f{session}.py"}}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": f"call_{session}", "content": "text"},
        ],
        "tools": copy.deepcopy(_TOOLS),
        "tool_choice": "auto",
        "max_completion_tokens": 4000,
        "stream": True,
        "stream_options": {"include_usage": True},
        "temperature": 1,
        "user": f"end-user-{session}",
        "seed": session,
        **fields,
    }
    for name in without:
        del body[name]
    return body


_PAIRS = {"anthropic": openai_chat_to_anthropic, "openai-responses": openai_chat_to_openai_responses}
"""Each target whose pair remembers a top level, and its pair's module."""
_USER = {"anthropic": lambda out: out["metadata"]["user_id"], "openai-responses": lambda out: out["user"]}
"""Where each target's body holds the session's end user."""


class _Usual:
    """How many bodies the pair proved and wrote the top level of (not from memory)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, target: str) -> None:
        self.count = 0
        pair = _PAIRS[target]
        usual = pair.usual

        def counted(*arguments: Any) -> Usual | None:
            self.count += 1
            return usual(*arguments)

        monkeypatch.setattr(pair, "usual", counted)


def _forget() -> None:
    openai_chat_usual_remembered._forget()  # pyright: ignore[reportPrivateUsage]
    remembered_tools._READINGS.clear()  # pyright: ignore[reportPrivateUsage]


def _kept() -> int:
    """How many writings the memory keeps."""
    return sum(len(texts) for texts in openai_chat_usual_remembered._BEGUN.values())  # pyright: ignore[reportPrivateUsage]


def _direct(body: dict[str, Any], target: str = "anthropic") -> dict[str, Any] | None:
    """``body`` as a gateway parses it (no text shared with another body: an object a conversion holds
    twice is then held twice only by it) written by the pair's direct path."""
    return _PAIRS[target].convert(json.loads(json.dumps(body)), LossRecorder(), chatcodec.get_codec(target))


_OPENROUTER = {"reasoning": {"effort": "high"}, "usage": {"include": True}}
"""OpenRouter's objects beside the usual fields, which the reading holds while the pair writes (a text of
the body taken then would mark them held twice: not the text a later look takes)."""


@pytest.mark.parametrize("fields", [{}, _OPENROUTER], ids=["settings", "OpenRouter's objects"])
@pytest.mark.parametrize("target", list(_PAIRS))
def test_sessions_of_one_client_take_its_top_level_from_memory_with_their_own_values(
    target: str, fields: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    _forget()
    written = _Usual(monkeypatch, target)
    assert _direct(_body(1, **fields), target) is not None  # the tools read and written
    assert not _kept()  # (the body's keys noted: the next body of them is looked for)
    assert _direct(_body(2, **fields), target) is not None  # the tools written before: remembered, tried
    assert _kept() == 1
    assert written.count == 2
    for session in (3, 4, 5):
        body = _body(session, **fields)
        out = _direct(body, target)
        assert out is not None
        assert _USER[target](out) == f"end-user-{session}"  # the session's own, not the first's
        if target == "anthropic":  # the breakpoint noted again on this copy's tools
            assert out["tools"][-1]["cache_control"] == {"type": "ephemeral"}
        assert out["tools"] is not _direct(body, target)["tools"]  # type: ignore[index] - a new copy each time
    assert written.count == 2  # none proved again
    for session in (6, 7):
        equal_to_canonical(_body(session, **fields), "openai-chat", target)  # the losses and warnings too


@pytest.mark.parametrize(
    ("fields", "without", "remembered"),
    [
        ({"tool_choice": "none", "parallel_tool_calls": False}, (), True),  # reported where the choice is written
        ({}, ("max_completion_tokens",), True),  # the model's limit sent, reported
        ({}, ("user", "seed", "stream_options"), True),  # no client values: no trial
        ({"user": "usuário-1"}, (), False),  # not ASCII: the front's copy is read, not the value as it is
        ({"seed": True}, (), False),  # not an integer
        ({"response_format": {"type": "json_schema", "json_schema": {"name": "a", "schema": {}}}}, (), False),
    ],
    ids=["choice reported", "limit filled", "no client values", "a user not in ASCII", "a flag for a seed", "a schema"],
)
@pytest.mark.parametrize("target", list(_PAIRS))
def test_each_top_level_gives_the_canonical_outcome_from_memory_or_not(
    fields: dict[str, Any], without: tuple[str, ...], remembered: bool, target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _forget()
    written = _Usual(monkeypatch, target)
    for session in range(1, 5):
        body = _body(session, without=without, **fields)
        for on_loss in ON_LOSSES:
            direct = outcome(body, "openai-chat", target, on_loss)
            with canonical_only():
                assert direct == outcome(body, "openai-chat", target, on_loss)
    assert bool(_kept()) is remembered
    assert written.count == (2 if remembered else 8)  # the first two requests, then none; else each


def _found(canonical: dict[str, Any]) -> Usual:
    return Usual(canonical, None)


def test_a_writing_that_differs_on_the_trial_is_not_remembered() -> None:
    """The trial's reading or wire fields other than the client's values at their keys: not a function
    of the text, so the pair writes each body."""
    _forget()
    body = _body(1)
    canonical = {"model": "m", "user": body["user"], "seed": body["seed"]}
    wire = {"model": "m", "max_tokens": 9}

    def again(other: dict[str, Any]) -> tuple[Usual, dict[str, Any], Any]:
        return _found({"model": "m", "user": other["user"], "seed": other["seed"]}), {**wire, "max_tokens": 8}, ()

    assert openai_chat_usual_remembered.recall(body, "writer") == (None, None)  # its keys noted
    text = openai_chat_usual_remembered.recall(body, "writer")[1]
    assert text is not None
    openai_chat_usual_remembered.remember(body, "writer", text, (_found(canonical), wire, ()), again)
    assert not _kept()

    def copied(other: dict[str, Any]) -> tuple[Usual, dict[str, Any], Any]:
        return _found({"model": "m", "user": other["user"], "seed": other["seed"] + 1000}), wire, ()

    openai_chat_usual_remembered.remember(body, "writer", text, (_found(canonical), wire, ()), copied)
    assert not _kept()  # the seed not the value

    def same(other: dict[str, Any]) -> tuple[Usual, dict[str, Any], Any]:
        return _found({"model": "m", "user": other["user"], "seed": other["seed"]}), dict(wire), ()

    openai_chat_usual_remembered.remember(body, "writer", None, (_found(canonical), wire, ()), same)
    assert not _kept()  # not looked for: no text to remember it by
    openai_chat_usual_remembered.remember(body, "writer", text, (_found(canonical), wire, ()), same)
    remembered = openai_chat_usual_remembered.recall(_body(2), "writer")[0]
    assert remembered is not None
    assert remembered.read(_body(2)) == ({"model": "m", "user": "end-user-2", "seed": 2}, wire)
    assert openai_chat_usual_remembered.recall(_body(2, model="other"), "writer")[0] is None
    assert openai_chat_usual_remembered.recall(_body(2), "another writer")[0] is None
    _forget()


def test_top_levels_of_ever_other_texts_are_forgotten_past_the_bound() -> None:
    _forget()
    for limit in range(1, 80):  # a client changing its limit every request: each a top level of its own
        for session in (1, 2):
            _direct(_body(session, max_completion_tokens=limit))
        assert 1 <= _kept() <= 16  # (one writer, one order of keys)
    _forget()


def test_a_writing_is_kept_as_the_same_value_with_its_texts_shared() -> None:
    """The text a writing is kept as reads back as the same value, of the same types, at any depth."""
    nested: Any = {"type": "object"}
    for _ in range(100):  # past the depth whose texts are shared
        nested = {"items": [nested, "object", 1, 1.0, True, None]}
    value = ({"model": "m", "t": ("a", "a")}, {"tools": [nested, {"object": "object"}]})
    shared = openai_chat_usual_remembered._shared(value, {}, 64)  # pyright: ignore[reportPrivateUsage]
    assert shared == value
    assert marshal.loads(marshal.dumps(shared)) == value
    assert repr(marshal.loads(marshal.dumps(shared))) == repr(value)  # 1, 1.0 and True each their own
    assert shared[1]["tools"][1]["object"] is shared[1]["tools"][1].popitem()[0]  # one copy of a text
