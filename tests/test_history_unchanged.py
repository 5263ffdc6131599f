"""``history_for``'s one-pass look (``turns._survey``): its answers are each rule's own look
(an empty content, an unsent part), and when it finds nothing each rule agrees (no empty
content where the target has no empty system message, no part the target cannot send, no
result waiting behind another role), so the history is returned as it came, for every
built-in format's capabilities."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, cast

from hypothesis import given
from hypothesis import strategies as st

from chatcodec._losses import LossRecorder
from chatcodec._providers.contract.capabilities import Capabilities
from chatcodec._providers.history import turns
from chatcodec._registry import get_codec

FORMATS = ["openai-chat", "anthropic", "openai-responses", "gemini", "bedrock-converse", "bedrock-nova", "ollama"]

_PART = st.sampled_from(
    [
        {"type": "text", "text": "hi"},
        {"type": "tool_use", "id": "c1", "name": "f", "arguments": "{}"},
        {"type": "tool_use", "id": "c2", "name": "f", "arguments": "x", "kind": "custom"},
        {"type": "opaque", "provider": "gemini", "data": {"a": 1}},
        {"type": "tool_result", "tool_use_id": "c1", "content": "ok"},
    ]
)
Message = Mapping[str, Any]


def _message(role: str, content: object) -> Message:
    return {"role": role, "content": content}


_MESSAGE = st.builds(
    _message,
    st.sampled_from(["system", "developer", "user", "assistant", "tool"]),
    st.just("text") | st.lists(_PART, max_size=3),
)


def _holds_unsent(messages: list[Message], *, freeform: bool) -> bool:
    """The unsent-parts look as the rule asks it, written here: an opaque part, or a custom
    call for a target with no freeform calls, in an assistant turn."""
    for message in messages:
        content: Any = message["content"]
        parts: list[Message] = cast("list[Message]", content) if isinstance(content, list) else []
        if message["role"] == "assistant" and any(
            part["type"] == "opaque" or (not freeform and part.get("kind") == "custom") for part in parts
        ):
            return True
    return False


def _capabilities(name: str) -> Capabilities:
    codec: Any = get_codec(name)
    return cast("Capabilities", codec.capabilities)


@given(st.lists(_MESSAGE, max_size=8), st.sampled_from(FORMATS), st.booleans(), st.booleans())
def test_a_history_called_unchanged_is_one_no_rule_changes(
    messages: list[Message], name: str, freeform: bool, ordered: bool
) -> None:
    capabilities = dataclasses.replace(_capabilities(name), freeform_calls=freeform, results_follow_calls=ordered)
    empty, unsent, misordered = turns._survey(messages, capabilities)  # pyright: ignore[reportPrivateUsage]
    assert empty == (not capabilities.empty_system and turns.holds_empty_content(messages))
    assert unsent == _holds_unsent(messages, freeform=freeform)
    if empty or unsent or misordered:
        return
    assert capabilities.empty_system or not turns.holds_empty_content(messages)
    assert not _holds_unsent(messages, freeform=freeform)
    if ordered:
        assert turns.results_after_calls(messages, LossRecorder(), "x") is messages
    assert turns.history_for(messages, LossRecorder(), name, capabilities) is messages


def test_each_rule_still_changes_what_it_changes() -> None:
    """A history each rule changes is not called unchanged (the rules run, as before)."""
    gemini = _capabilities("gemini")
    strict_order = dataclasses.replace(gemini, results_follow_calls=True, freeform_calls=False, empty_system=False)
    call = {"type": "tool_use", "id": "c1", "name": "f", "arguments": "{}"}
    cases: list[list[Message]] = [
        [{"role": "system", "content": []}, {"role": "user", "content": "hi"}],
        [{"role": "assistant", "content": [{"type": "opaque", "provider": "anthropic", "data": {}}]}],
        [{"role": "assistant", "content": [{**call, "kind": "custom"}]}],
        [
            {"role": "assistant", "content": [call]},
            {"role": "user", "content": "wait"},
            {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "c1", "content": "ok"}]},
        ],
    ]
    for messages in cases:
        assert any(turns._survey(messages, strict_order))  # pyright: ignore[reportPrivateUsage]
    moved = turns.history_for(cases[3], LossRecorder(), "gemini", strict_order)
    assert [message["role"] for message in moved] == ["assistant", "tool", "user"]
