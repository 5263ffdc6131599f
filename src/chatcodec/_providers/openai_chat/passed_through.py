"""Two settings other providers define that clients send through an OpenAI Chat body, read
into their canonical fields: vLLM's and OpenRouter's ``top_k`` (canonical ``top_k``, which
Anthropic and Gemini write) and the ``thinking`` object litellm's clients pass for Claude
(``{"type": "enabled", "budget_tokens": N}``, ``{"type": "disabled"}``,
``{"type": "adaptive"}``: canonical reasoning's ``enabled``, ``budget_tokens`` and
``adaptive``, which Anthropic writes as its ``thinking``).

OpenAI's own API takes neither, so this format's writer writes them back only where they came
from this format: the reader marks the keys it read (:data:`PASSED`, pure spelling: the
canonical fields carry the meaning, so another format drops the marker unreported), and the
writer writes each back from the canonical field when that field still says exactly what was
read (a caller may have changed it: then the usual writing, an effort or a loss). A value read
otherwise (a ``top_k`` below 1, vLLM's "all tokens"; a ``thinking`` of another shape; a
``thinking`` beside ``reasoning_effort`` or OpenRouter's ``reasoning``, which say the same
thing) is kept in the request's bag as it came, written back here, reported elsewhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec.codec_kit import as_count, as_dict, as_list

PASSED = "_passed"
"""Marker (pure spelling): the settings of :data:`KEYS` read into canonical fields, in the order
they came, so this format's writer writes them back."""
KEYS = ("top_k", "thinking")
"""The wire keys read here (the same names as Anthropic's)."""
_OTHER_REASONING = ("reasoning_effort", "reasoning")
"""The reasoning settings a ``thinking`` beside them would contradict or repeat: then kept as data."""
_SWITCHES = {"disabled": {"enabled": False}, "adaptive": {"adaptive": True}}
"""A ``thinking`` type with no other key -> the canonical reasoning it says."""


def read_passed_through(wire: dict[str, Any], data: dict[str, Any], bag: dict[str, Any]) -> list[str]:
    """``wire``'s ``top_k`` and ``thinking`` read into ``data`` where canonical says them
    exactly, the :data:`PASSED` marker in ``bag``; the keys mapped."""
    mapped: list[str] = []
    top_k = as_count(wire.get("top_k"), minimum=1)
    if top_k is not None:
        data["top_k"] = top_k
        mapped.append("top_k")
    config = _reasoning_of(wire.get("thinking"))
    if config is not None and "reasoning" not in data and all(key not in wire for key in _OTHER_REASONING):
        data["reasoning"] = config
        mapped.append("thinking")
    if mapped:
        bag[PASSED] = mapped
    return mapped


def _reasoning_of(thinking: object) -> dict[str, Any] | None:
    """The canonical reasoning a ``thinking`` object of one of Anthropic's three shapes says
    (nothing else in it); None for another value."""
    fields = as_dict(thinking)
    if fields is None:
        return None
    kind = fields.get("type")
    if kind == "enabled" and len(fields) == 2:
        budget = as_count(fields.get("budget_tokens"))
        return None if budget is None else {"enabled": True, "budget_tokens": budget}
    switch = _SWITCHES.get(kind) if isinstance(kind, str) else None
    return dict(switch) if switch is not None and len(fields) == 1 else None


def write_top_k(request: Mapping[str, Any], passed: object, wire: dict[str, Any]) -> bool:
    """Whether ``request``'s ``top_k`` is written to ``wire``: it was read from this format
    (``passed``, the :data:`PASSED` marker)."""
    if "top_k" not in (as_list(passed) or ()):
        return False
    wire["top_k"] = request["top_k"]
    return True


def write_thinking(config: Mapping[str, Any], passed: object, wire: dict[str, Any]) -> bool:
    """Whether canonical reasoning ``config`` is written to ``wire`` as the ``thinking`` object it
    was read from (``passed``, the :data:`PASSED` marker): only when it still says exactly one of
    the three shapes read."""
    if "thinking" not in (as_list(passed) or ()):
        return False
    if config.get("enabled") is True and len(config) == 2 and as_count(config.get("budget_tokens")) is not None:
        wire["thinking"] = {"type": "enabled", "budget_tokens": config["budget_tokens"]}
        return True
    for kind, said in _SWITCHES.items():
        if dict(config) == said:
            wire["thinking"] = {"type": kind}
            return True
    return False
