"""``ToolNameRule.takes``: the writers' look at a tool name (``name in rule.accepted or
rule.takes(name)``) answers as the rule's pattern does, and remembers only names it takes,
up to its bound; ``tool_name`` answers through it."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chatcodec._providers.kit import tool_names
from chatcodec._providers.kit.tool_names import COMMON_TOOL_NAMES, ToolNameRule, tool_name
from chatcodec.contract import LossRecorder


def _rule() -> ToolNameRule:
    valid, replaced = re.compile(r"\A[a-z]{1,8}\Z"), re.compile(r"[^a-z]")
    return ToolNameRule(valid=valid, limit=8, replaced=replaced, shown="^[a-z]{1,8}$")


@given(st.text(max_size=12))
def test_takes_answers_as_the_pattern_and_remembers_only_what_it_takes(name: str) -> None:
    rule = _rule()
    valid = rule.valid.match(name) is not None
    assert rule.takes(name) is valid
    assert (name in rule.accepted) is valid
    assert rule.takes(name) is valid  # the second look, from the set, says the same


def test_the_remembered_names_stay_within_the_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    rule = _rule()
    monkeypatch.setattr(tool_names, "ACCEPTED_LIMIT", 2)
    assert all(rule.takes(name) for name in ("a", "b", "c"))
    assert rule.accepted == {"a", "b"}
    assert rule.takes("c")  # past the bound a valid name is still taken, by its match


def test_tool_name_sends_a_taken_name_as_it_is_and_reports_a_refused_one() -> None:
    losses = LossRecorder()
    assert tool_name("read_file", losses, ("tools", 0), "openai-chat") == "read_file"
    assert "read_file" in COMMON_TOOL_NAMES.accepted
    sent = tool_name("read file", losses, ("tools", 1), "openai-chat")
    assert sent != "read file"
    assert COMMON_TOOL_NAMES.valid.match(sent)
    assert "read file" not in COMMON_TOOL_NAMES.accepted
    assert [loss.path for loss in losses.losses] == ["$.tools[1].name"]
