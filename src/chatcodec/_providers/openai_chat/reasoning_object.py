"""OpenRouter's reasoning setting on a Chat Completions body <-> canonical ``reasoning``.

OpenRouter takes ``reasoning: {effort, max_tokens, exclude, enabled}`` beside the OpenAI body
(https://openrouter.ai/docs/use-cases/reasoning-tokens): ``effort`` is OpenAI's word (``none``
to ``xhigh``), ``max_tokens`` an Anthropic-style thinking budget, ``enabled`` the switch (by
default inferred from the other two), ``exclude`` whether the reasoning is left out of the
answer. The first three mean what canonical ``effort``, ``budget_tokens`` and ``enabled`` mean,
so they are read there and reach Responses as ``reasoning.effort`` and Claude as thinking, as
``reasoning_effort`` does. ``exclude: true`` (canonical has no field for it) and any value that
is not the documented kind stay in the request's leftovers under ``reasoning``, written back to
OpenAI Chat, reported by any other format; ``exclude: false`` is the default, which says
nothing. The object's keys in their order are the pure spelling marker :data:`OBJECT_KEYS`, so
an OpenAI Chat write gives the object back as it came, not ``reasoning_effort``; a body that
sends ``reasoning_effort`` too keeps the object unread. For a server that takes the object
(OpenRouter named as the server), reasoning an effort word cannot say (another provider's
thinking budget) is written as the object too, where ``reasoning_effort`` would lose it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chatcodec.codec_kit import as_count, as_dict, reasoning_for_effort

if TYPE_CHECKING:
    from chatcodec.contract import LossRecorder

FIELD = "reasoning"
EXCLUDE = "exclude"
OBJECT_KEYS = "_reasoning_keys"
"""Marker (pure spelling): the keys of OpenRouter's ``reasoning`` object in their order."""
_UNWRITTEN = ("adaptive", "summary", "include_thoughts")
"""Canonical reasoning settings the object has no key for."""


def read_reasoning_object(
    wire: dict[str, Any], data: dict[str, Any], bag: dict[str, Any], efforts: tuple[str, ...]
) -> list[str]:
    """Read ``wire``'s ``reasoning`` object into ``data["reasoning"]`` (its other keys into
    ``bag``); the wire keys mapped (none when nothing in it has a canonical meaning, or when
    ``reasoning_effort`` was read already). ``efforts``: the canonical efforts (the settings'
    table, which writes this module's object: passed, not imported)."""
    setting = as_dict(wire.get(FIELD))
    if setting is None or "reasoning" in data:
        return []
    config: dict[str, Any] = {}
    effort = setting.get("effort")
    if effort.__class__ is str and effort in efforts:
        config.update(reasoning_for_effort(effort))
    budget = as_count(setting.get("max_tokens"))
    if budget is not None:
        config["budget_tokens"] = budget
        if budget:  # a budget switches reasoning on, as OpenRouter infers it
            config["enabled"] = True
    enabled = setting.get("enabled")
    if enabled.__class__ is bool:
        config["enabled"] = enabled
    if not config:
        return []
    mapped = {"effort": "effort" in config, "max_tokens": budget is not None, "enabled": enabled.__class__ is bool}
    mapped[EXCLUDE] = setting.get(EXCLUDE) is False  # the default: says nothing, given back by the marker
    rest = {key: value for key, value in setting.items() if not mapped.get(key)}
    data["reasoning"] = config
    bag[OBJECT_KEYS] = list(setting)
    if rest:
        bag[FIELD] = rest
    return [FIELD]


def said_only_here(config: Mapping[str, Any]) -> bool:
    """Whether canonical ``config`` holds what ``reasoning_effort`` cannot say and the object can:
    a thinking budget above zero or reasoning switched on, with no effort (OpenRouter takes one of
    ``effort`` and ``max_tokens``, not both) and not adaptive (the object has no key for it)."""
    if config.get("effort") is not None or config.get("adaptive") is not None:
        return False
    budget = config.get("budget_tokens")
    return bool(budget) if budget is not None else config.get("enabled") is True


def write_reasoning_object(
    config: Mapping[str, Any], keys: list[object], wire: dict[str, Any], losses: LossRecorder
) -> None:
    """Write canonical reasoning as OpenRouter's object in the order of ``keys`` (the
    :data:`OBJECT_KEYS` marker), over the keys kept from it (already in ``wire``); ``enabled``
    only where it came, or where nothing else says it."""
    values: dict[str, Any] = {**(as_dict(wire.get(FIELD)) or {})}
    if config.get("effort") is not None:
        values["effort"] = config["effort"]
    if config.get("budget_tokens") is not None:
        values["max_tokens"] = config["budget_tokens"]
    enabled = config.get("enabled")
    if enabled is not None and ("enabled" in keys or enabled is False or not values):
        values["enabled"] = enabled
    if EXCLUDE in keys and EXCLUDE not in values:
        values[EXCLUDE] = False
    for name in _UNWRITTEN:
        if config.get(name) is not None:
            why = "OpenRouter's reasoning takes effort, max_tokens, enabled and exclude"
            losses.add((FIELD, name), f"reasoning {name}", why, "setting")
    ordered = {key: values[key] for key in keys if isinstance(key, str) and key in values}
    wire[FIELD] = {**ordered, **values}
