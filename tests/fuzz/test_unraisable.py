"""Issue: a union tag nested 1,000+ deep made pydantic-core's ``union_tag_invalid``
message overflow ``str`` (a ``RecursionError`` sent to ``sys.unraisablehook``, the
message saying ``'<unprintable list object>'``). The canonical unions now carry a custom
error (``_base.TaggedOn``) and chatcodec's errors write the tag by a short repr; the fuzz
law counts such a report as a broken law."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec
from fuzz.targets import ForeignError, Target, check


def _deep(depth: int) -> object:
    value: object = "user"
    for _ in range(depth):
        value = [value]
    return value


DEEP = _deep(1200)

INPUTS: dict[str, Any] = {
    "message role": [{"role": DEEP, "content": "x"}],
    "user part type": [{"role": "user", "content": [{"type": DEEP, "text": "x"}]}],
    "assistant part type": [{"role": "assistant", "content": [{"type": DEEP}]}],
    "system part type": [{"role": "system", "content": [{"type": DEEP}]}],
    "image source type": [{"role": "user", "content": [{"type": "image", "source": {"type": DEEP}}]}],
    "document source type": [{"role": "user", "content": [{"type": "document", "source": {"type": DEEP}}]}],
    "tool result part type": [{"role": "tool", "content": [{"type": DEEP}]}],
    "tool result content type": [
        {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "c", "content": [{"type": DEEP}]}]}
    ],
    "a 5,000-digit role": [{"role": 10**5000, "content": "x"}],
}


class _Unraisable:
    def __del__(self) -> None:
        raise ValueError("raised in __del__")


def _drop_one(value: object) -> object:
    _Unraisable()
    return value


def test_the_fuzz_law_counts_an_unraisable_report() -> None:
    with pytest.raises(ForeignError, match="unraisablehook: ValueError: raised in __del__"):
        check(Target("drops", lambda chooser: None, _drop_one), None)


@pytest.mark.parametrize("messages", list(INPUTS.values()), ids=list(INPUTS))
def test_a_deep_union_tag_is_a_chatcodec_error_without_an_unraisable_report(messages: list[Any]) -> None:
    assert check(Target("validate_messages", lambda chooser: None, chatcodec.validate_messages), messages) == (
        "ValidationError"
    )
    with pytest.raises(chatcodec.ValidationError) as info:
        chatcodec.validate_messages(messages)
    assert [detail["type"] for detail in info.value.errors()] == ["union_tag_invalid"]
    assert "unprintable" not in str(info.value)


def test_a_deep_stream_event_type_is_a_chatcodec_error() -> None:
    target = Target(
        "decode_stream", lambda chooser: None, lambda events: list(chatcodec.decode_stream("canonical", events))
    )
    assert check(target, [{"type": _deep(1200)}]) in ("ValidationError", "StreamError")


def test_the_tag_is_shown_as_before_for_a_short_value() -> None:
    with pytest.raises(chatcodec.ValidationError) as info:
        chatcodec.validate_messages([{"role": ["a"], "content": "x"}, {"role": 5}, {}])
    messages = [detail["msg"] for detail in info.value.errors()]
    assert messages[0].startswith(
        "Input tag '['a']' found using 'role' does not match any of the expected tags: 'system'"
    )
    assert messages[1].startswith("Input tag '5' found using 'role'")
    assert messages[2] == "Unable to extract tag using discriminator 'role'"
