"""The fence around ``TargetRule.reads``, the hand-kept list of the top-level keys a rule acts
on (a body holding none of them passes the rule by unrun): a rule edited to act on a key it
does not name is caught by the law ``law_rule_reads``, whose bodies are made from what the
edit's own code looks up and compares (``testing/_laws/rule_reads_search.py``), where the
bodies the codec writes alone miss it."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from chatcodec._losses import LossRecorder
from chatcodec._providers.contract.target_rules import ProviderRules, RuleCall, TargetRule
from chatcodec._registry import rules_for
from chatcodec.testing._laws import law_rule_reads
from chatcodec.testing._laws.rule_reads_search import changed_body
from conformance.providers import PROVIDERS


def _table(provider: str) -> ProviderRules:
    table = rules_for(provider)
    assert table is not None
    return table


def _edited(table: ProviderRules, name: str, edit: Callable[[RuleCall], None]) -> ProviderRules:
    """``table`` with rule ``name``'s edit replaced and its ``reads`` left as they were: a
    change to a rule's code that forgets its second list."""
    rules = tuple(dataclasses.replace(rule, edit=edit) if rule.name == name else rule for rule in table.rules)
    return dataclasses.replace(table, rules=rules)


def _written(provider: str) -> list[tuple[str, dict[str, Any]]]:
    (entry,) = [entry for entry in PROVIDERS if entry.name == provider]
    return list(law_rule_reads.written_bodies(provider, (*entry.rule_models, law_rule_reads.NEUTRAL_MODEL)))


def _sampling_removed_and_min_p(call: RuleCall) -> None:
    """Anthropic's ``sampling_removed`` edited to drop ``min_p`` too (a key the API might
    refuse next), its ``reads`` still ``temperature``, ``top_p``, ``top_k``."""
    for key in ("temperature", "top_p", "top_k", "min_p"):
        if key in call.body:
            value = call.body.pop(key)
            call.report((key,), f"{key} {value!r}", "not sent")


def _effort_none_in_reasoning_too(call: RuleCall) -> None:
    """OpenAI Chat's ``effort_none`` edited to read the effort where Responses writes it
    (``reasoning.effort``) too, its ``reads`` still ``reasoning_effort``: a value three
    steps deep, acted on only when it is the text ``"none"``."""
    for holder, key in ((call.body, "reasoning_effort"), (call.body.get("reasoning"), "effort")):
        if isinstance(holder, dict) and holder.get(key) == "none":
            holder[key] = "minimal"
            call.report((key,), "reasoning effort 'none'", "sent as 'minimal'")


def _forced_tool_choice_and_priority_tier(call: RuleCall) -> None:
    """Anthropic's ``forced_tool_choice`` edited to also send a ``priority`` service tier as
    ``auto`` (in a helper), its ``reads`` still ``tool_choice``."""
    _unforced(call)
    _tier(call)


def _unforced(call: RuleCall) -> None:
    choice = call.body.get("tool_choice")
    if isinstance(choice, dict) and choice.get("type") in ("any", "tool"):
        call.body["tool_choice"] = {"type": "auto"}
        call.report(("tool_choice",), "forced tool choice", "sent as auto")


def _tier(call: RuleCall) -> None:
    if call.body.get("service_tier") == "priority":
        call.body["service_tier"] = "auto"
        call.report(("service_tier",), "service tier 'priority'", "sent as 'auto'")


EDITS = [
    pytest.param("anthropic", "sampling_removed", _sampling_removed_and_min_p, "min_p", id="a key added to a loop"),
    pytest.param("openai-chat", "effort_none", _effort_none_in_reasoning_too, "reasoning", id="a nested text"),
    pytest.param(
        "anthropic", "forced_tool_choice", _forced_tool_choice_and_priority_tier, "service_tier", id="a helper's key"
    ),
]


@pytest.mark.parametrize(("provider", "name", "edit", "key"), EDITS)
def test_a_rule_edited_to_act_on_a_key_its_reads_do_not_name_is_caught(
    provider: str, name: str, edit: Callable[[RuleCall], None], key: str
) -> None:
    """The law fails on the edited table, naming the rule and the key it looked up outside
    its ``reads``: the writer would have passed a body holding only that key by the rule."""
    table = _edited(_table(provider), name, edit)
    with pytest.raises(AssertionError, match=rf"^{name} \(") as failure:
        law_rule_reads.unchanged_without_reads(table, _written(provider))
    assert repr(key) in str(failure.value).split("it looked up")[1]


@pytest.mark.parametrize(("provider", "name", "edit", "key"), EDITS)
def test_the_written_bodies_alone_miss_those_edits(
    provider: str, name: str, edit: Callable[[RuleCall], None], key: str
) -> None:
    """What the law checked before the search: each edit run on the bodies the codec writes,
    the rule's keys taken out. None of the three edits changes one, so that check passed
    them: the search is what catches them."""
    table = _edited(_table(provider), name, edit)
    (rule,) = [rule for rule in table.rules if rule.name == name]
    assert rule.reads is not None
    assert key not in rule.reads
    for model, body in _written(provider):
        for version in table.api_versions:
            without = {field: value for field, value in body.items() if field not in rule.reads}
            losses, before = LossRecorder(), repr(without)
            rule.edit(RuleCall(table.provider, without, model, version, rule, "", losses))
            assert (repr(without), losses.losses) == (before, [])


def test_the_search_finds_a_value_only_a_comparison_names() -> None:
    """A key acted on for one text only (``"priority"``, which no fixed value list holds) is
    found: the text the edit compares the body's value with is tried in its place."""
    rule = TargetRule("tier", "", "", _forced_tool_choice_and_priority_tier, reads=frozenset({"tool_choice"}))

    def edit(body: dict[str, Any], losses: LossRecorder) -> None:
        rule.edit(RuleCall("anthropic", body, None, "v", rule, "", losses))

    found = changed_body(edit, {"model": "m"}, frozenset({"tool_choice"}))
    assert found is not None
    assert found.body == {"model": "m", "service_tier": "priority"}
    assert found.outside == ("service_tier",)
