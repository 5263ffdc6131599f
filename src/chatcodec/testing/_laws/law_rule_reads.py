"""For every codec with a rules table, a target rule that names the top-level keys it acts on
(``TargetRule.reads``) leaves a body holding none of them as it is: the writer passes such a
body by the rule without running it (one look in C), so an edit that would change it, or
report something, must not name its keys so.

Each rule's edit is run on bodies the codec writes (its rules off, ``skip_rules="*"``) for
requests that set what rules act on (sampling values, reasoning, a forced tool choice, a
late system turn, a prefill), for the model ids of the entry's ``rule_models`` and one no
family names, under every API version of the table, with the rule's keys taken out; and on
the bodies made from those (and from one naming only the model) by setting, one at a time,
the keys the edit's own code looks up and the texts it compares them with
(:mod:`.rule_reads_search`): an edit changed to act on a key it does not name is caught
although no written body holds that key.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import chatcodec
from chatcodec.contract import LossRecorder, ProviderRules, RuleCall, TargetRule
from chatcodec.testing._laws.entry import ProviderEntry
from chatcodec.testing._laws.registry import law
from chatcodec.testing._laws.rule_reads_search import Edit, changed_body

NEUTRAL_MODEL = "m"
"""A model id no family names, beside the entry's ``rule_models`` (an edit reads its call's model)."""

REASONING: tuple[dict[str, Any], ...] = ({"effort": "none"}, {"budget_tokens": 2048}, {"effort": "max"})
"""Reasoning asked three ways, each written differently (an effort, a budget, the highest)."""

SETS_EVERYTHING: dict[str, Any] = {
    "messages": [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "c1", "name": "f", "arguments": "{}"}]},
        {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "c1", "content": "ok"}]},
        {"role": "system", "content": "late"},
        {"role": "assistant", "content": "prefill "},
    ],
    "tools": [{"type": "function", "name": "f", "parameters": {"type": "object", "properties": {}}}],
    "tool_choice": {"type": "tool", "name": "f"},
    "temperature": 1.7,
    "top_p": 0.2,
    "top_k": 5,
    "frequency_penalty": 3.0,
    "max_tokens": 10,
}
"""A request setting what target rules act on, several values outside a target's range."""


def rules_table(name: str) -> ProviderRules | None:
    """The codec's rules table (its ``rules`` role), if it has one."""
    table: object = getattr(chatcodec.get_codec(name), "rules", None)
    return table if isinstance(table, ProviderRules) else None


def written_bodies(name: str, models: Sequence[str]) -> Iterator[tuple[str, dict[str, Any]]]:
    """``(model, body)``: what the codec writes for :data:`SETS_EVERYTHING` with each of
    ``models`` and each reasoning, no rule applied."""
    for model, reasoning in itertools.product(models, REASONING):
        fields = {**SETS_EVERYTHING, "model": model, "reasoning": reasoning}
        request = chatcodec.validate_model(chatcodec.ChatRequest, fields)
        yield model, chatcodec.encode_request(name, request, on_loss="ignore", options={"skip_rules": "*"})


def _reading(name: str) -> bool:
    """Whether the codec has a rule that names its keys."""
    table = rules_table(name)
    return table is not None and any(rule.reads is not None for rule in table.rules)


@law(lambda suite: [entry for entry in suite.entries if _reading(entry.name)])
def a_rule_leaves_a_body_without_what_it_reads_as_it_is(entry: ProviderEntry) -> None:
    table = rules_table(entry.name)
    assert table is not None
    unchanged_without_reads(table, written_bodies(entry.name, (*entry.rule_models, NEUTRAL_MODEL)))


def unchanged_without_reads(table: ProviderRules, written: Iterable[tuple[str, dict[str, Any]]]) -> None:
    """Every rule of ``table`` naming its keys leaves as it is each body holding none of them,
    under every API version: the ``written`` bodies (a model, a body the model is written
    for) with the rule's keys taken out, and the bodies :func:`~.rule_reads_search.changed_body`
    makes from them and from a body naming only the model, by setting what the edit looks
    up. An :class:`AssertionError` names the rule, the body it changed and the keys it
    looked up that it does not name."""
    by_model: dict[str, list[dict[str, Any]]] = {}
    for model, body in written:
        by_model.setdefault(model, [{"model": model}]).append(body)
    for rule in table.rules:
        reads = rule.reads
        if reads is None:
            continue
        for (model, bodies), version in itertools.product(by_model.items(), table.api_versions):
            edit = _edit(table, rule, model, version)
            for body in bodies:
                found = changed_body(edit, _without(body, reads), reads)
                assert found is None, (
                    f"{rule.name} ({model}, {version}) changed a body without {sorted(reads)}: {found.body!r}; "
                    f"it looked up {list(found.outside)}, which its reads do not name"
                )


def _edit(table: ProviderRules, rule: TargetRule, model: str, version: str) -> Edit:
    def edit(body: dict[str, Any], losses: LossRecorder) -> None:
        rule.edit(RuleCall(table.provider, body, model, version, rule, "every model", losses))

    return edit


def _without(body: dict[str, Any], keys: frozenset[str]) -> dict[str, Any]:
    return {key: value for key, value in body.items() if key not in keys}
