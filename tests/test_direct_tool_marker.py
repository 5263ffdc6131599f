"""OpenAI Chat tools carrying a cache marker (litellm's clients mark the last tool for Anthropic's
prompt cache: ``{"type": "function", "function": {...}, "cache_control": {"type": "ephemeral"}}``)
on the direct paths' usual top level, into Anthropic and into Responses: the closed front takes
the marker (an extra key of the wire tool, as on a part or a message), and the tools are written
once and taken from memory after (``remembered_tools.remember_written_whole``), as unmarked
tools are, with what the writing reported reported again (Responses has no cache marker) and the
cache breakpoints Anthropic's writer noted for the marked tools noted again on the copy (its
``limit_breakpoints`` keeps four). Each shape gives what the canonical path gives (body, losses,
warnings) on its first request and on later ones, and the later ones write no tool again."""

from __future__ import annotations

import copy
import json
import warnings
from typing import Any, Literal

import pytest

import chatcodec
from chatcodec._direct.table import canonical_only
from chatcodec._direct.top_levels import (
    openai_chat_to_anthropic,
    openai_chat_to_openai_responses,
    openai_chat_usual_remembered,
)
from chatcodec._providers.kit import remembered_tools
from chatcodec._providers.openai_chat.common_shapes import COMMON_REQUEST
from chatcodec._providers.openai_chat.tools import FRONT_KEY

_TARGETS = ("anthropic", "openai-responses")


def _tool(name: str, **beside: Any) -> dict[str, Any]:
    schema = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
    function = {"name": name, "description": f"{name} a file.", "parameters": schema}
    return {"type": "function", "function": function, **beside}


def _marker(ttl: str | None = None) -> dict[str, Any]:
    return {"type": "ephemeral"} if ttl is None else {"type": "ephemeral", "ttl": ttl}


def _tools(marked: tuple[int, ...], ttl: str | None = None, count: int = 3) -> list[dict[str, Any]]:
    names = ("read", "write", "list", "grep")[:count]
    return [_tool(name, cache_control=_marker(ttl)) if i in marked else _tool(name) for i, name in enumerate(names)]


def _messages(marked: bool = False) -> list[dict[str, Any]]:
    """A session's turns; ``marked``: a system marker and message markers beside (five in all)."""
    call = {"id": "call_1", "type": "function", "function": {"name": "read", "arguments": '{"path": "a"}'}}
    if not marked:
        return [
            {"role": "system", "content": "You are terse."},
            {"role": "user", "content": "Read it."},
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "call_1", "content": "text"},
            {"role": "user", "content": "Thanks."},
        ]

    def text(said: str) -> list[dict[str, Any]]:
        return [{"type": "text", "text": said, "cache_control": _marker()}]

    return [
        {"role": "system", "content": text("You are terse.")},
        {"role": "user", "content": text("Read it.")},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "call_1", "content": text("text")},
        {"role": "user", "content": text("Thanks.")},
    ]


def _body(tools: list[dict[str, Any]], *, marked_messages: bool = False) -> dict[str, Any]:
    return {
        "model": "claude-sonnet-4-5",
        "messages": _messages(marked_messages),
        "tools": copy.deepcopy(tools),
        "tool_choice": "auto",
        "max_completion_tokens": 1024,
    }


def _outcome(body: dict[str, Any], target: str, on_loss: Literal["ignore", "warn"]) -> str:
    losses: list[Any] = []
    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        output = chatcodec.convert_request(
            copy.deepcopy(body), source="openai-chat", target=target, on_loss=on_loss, losses=losses
        )
    said = [(warning.category.__name__, str(warning.message)) for warning in shown]
    return json.dumps([output, [repr(loss) for loss in losses], said], default=repr)


class _Writings:
    """The tools the pair's top level writes by the writer's rules (not taken from memory), counted."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        for module, name in (
            (openai_chat_to_anthropic, "encode_tool"),
            (openai_chat_to_openai_responses, "encode_functions"),
        ):
            monkeypatch.setattr(module, name, self._counted(getattr(module, name)))

    def _counted(self, rule: Any) -> Any:
        def counted(*arguments: Any) -> Any:
            self.count += 1
            return rule(*arguments)

        return counted


def _sessions(bodies: list[dict[str, Any]], target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each body of ``bodies`` in turn, its first request then later ones, written as the canonical
    path writes it; no tools written twice (a body of tools an earlier one sent takes them as written)."""
    remembered_tools._READINGS.clear()  # pyright: ignore[reportPrivateUsage]
    openai_chat_usual_remembered._BEGUN.clear()  # pyright: ignore[reportPrivateUsage]
    writings = _Writings(monkeypatch)
    seen: list[object] = []
    for body in bodies:
        assert COMMON_REQUEST.validate(copy.deepcopy(body)) is not None  # the closed front takes it
        with canonical_only():
            expected = {on_loss: _outcome(body, target, on_loss) for on_loss in ("ignore", "warn")}
        before = writings.count
        assert _outcome(body, target, "ignore") == expected["ignore"]  # the first request of these tools
        assert (writings.count > before) is (body["tools"] not in seen)  # written by the writer's rules, once
        seen.append(body["tools"])
        written = writings.count
        for on_loss in ("ignore", "warn", "ignore"):
            assert _outcome(body, target, on_loss) == expected[on_loss]  # later ones
        assert writings.count == written  # taken as written


_SHAPES: dict[str, list[dict[str, Any]]] = {
    "last": [_body(_tools((2,)))],
    "first": [_body(_tools((0,)))],
    "every": [_body(_tools((0, 1, 2)))],
    "ttl 1h": [_body(_tools((2,), "1h"))],
    "ttl 5m": [_body(_tools((2,), "5m"))],
    "every, ttl 1h, four": [_body(_tools((0, 1, 2, 3), "1h", count=4))],
    "beside a system and message markers": [_body(_tools((2,)), marked_messages=True)],
    "every beside message markers": [_body(_tools((0, 1, 2), "1h"), marked_messages=True)],
    "a strict tool beside": [
        _body(
            [
                _tool("read", cache_control=_marker()),
                {**_tool("write"), "function": {**_tool("write")["function"], "strict": True}},
            ]
        )
    ],
    "marker before the function": [
        _body([{"type": "function", "cache_control": _marker(), "function": _tool("read")["function"]}, _tool("write")])
    ],
    "a marker of another shape (kept in the bag)": [_body([_tool("read", cache_control={"type": "persistent"})])],
    "unmarked then marked": [_body(_tools(())), _body(_tools((2,))), _body(_tools(())), _body(_tools((2,), "1h"))],
    "marked then unmarked": [_body(_tools((0,))), _body(_tools(())), _body(_tools((0,)))],
}


@pytest.mark.parametrize("target", _TARGETS)
@pytest.mark.parametrize("shape", list(_SHAPES))
def test_marked_tools_are_written_once_as_the_canonical_path_writes_them(
    shape: str, target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _sessions(_SHAPES[shape], target, monkeypatch)


def test_more_than_four_breakpoints_leave_the_copy_of_the_tools_as_written() -> None:
    """The limit takes the earliest markers off (the tools'): off the request's copy, not the memory's."""
    remembered_tools._READINGS.clear()  # pyright: ignore[reportPrivateUsage]
    openai_chat_usual_remembered._BEGUN.clear()  # pyright: ignore[reportPrivateUsage]
    body = _body(_tools((0, 1, 2)), marked_messages=True)
    outputs = [
        chatcodec.convert_request(copy.deepcopy(body), source="openai-chat", target="anthropic", on_loss="ignore")
        for _ in "ab"
    ]
    assert outputs[0] == outputs[1]
    assert all("cache_control" not in tool for tool in outputs[1]["tools"])
    found = remembered_tools.written_whole(body["tools"], FRONT_KEY, openai_chat_to_anthropic.write_tools)
    assert found[0] is not None
    assert [tool.get("cache_control") for tool in found[0]] == [{"type": "ephemeral"}] * 3
    assert [at for _, at in found[3]] == [("tools", 0), ("tools", 1), ("tools", 2)]
