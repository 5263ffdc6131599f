"""``thinking`` and ``output_config`` <-> canonical ``reasoning`` and ``response_format``.

Anthropic splits reasoning over two fields: ``thinking`` says whether and how
(``enabled`` with ``budget_tokens``, ``adaptive``, ``disabled``), ``output_config.effort``
how hard (``low``..``max``). Canonical ``ReasoningConfig`` has a field for each, so both
map exactly. What canonical can say and Anthropic cannot (OpenAI's ``minimal`` and
``none`` efforts, reasoning summaries, Gemini's ``include_thoughts`` without thinking) is
sent as the closest setting and reported. Reasoning switched on with an effort (an OpenAI
``reasoning_effort``) is adaptive thinking at that effort on Claude 4.6+, and a thinking
budget from the effort (:mod:`chatcodec._providers.kit.reasoning`) on an older Claude
with extended thinking, and nothing on a model without it or one chatcodec cannot name
(``families/claude/model_limits.py``), reported; an effort alone stays an effort without
thinking. Structured output (``output_config.format`` with a JSON
schema) is canonical ``response_format``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.families.claude.model_limits import output_limit
from chatcodec._providers.families.claude.schema_subset import to_anthropic_subset
from chatcodec._providers.families.claude.wire_rules import (
    effort_spent_on_thinking,
    encode_thinking_config,
    thinking_taken,
)
from chatcodec._providers.families.schema_writing import FORMAT_AS_SENT, anthropic_schema, read_as_sent
from chatcodec.codec_kit import as_count, as_dict, restore_fields, split_fields
from chatcodec.contract import DecodeContext, EncodeContext, LossRecorder

_EFFORTS = frozenset({"low", "medium", "high", "xhigh", "max"})
_THINKING_KEYS = {"enabled": frozenset({"type", "budget_tokens"}), "adaptive": frozenset({"type"})}
_THINKING_KEYS["disabled"] = _THINKING_KEYS["adaptive"]


def decode_settings(
    request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> None:
    """Fill ``reasoning`` and ``response_format`` from ``thinking`` and ``output_config``."""
    reasoning: dict[str, Any] = {}
    thinking = as_dict(request.get("thinking"))
    if thinking is not None:
        _decode_thinking(thinking, reasoning, bag)
    output_config = as_dict(request.get("output_config"))
    if output_config is not None:
        mapped: set[str] = set()
        if output_config.get("effort") in _EFFORTS:
            reasoning["effort"] = output_config["effort"]
            mapped.add("effort")
        schema = _json_schema_format(output_config.get("format"))
        if schema is not None:
            canonical["response_format"] = {"type": "json_schema", "json_schema": schema}
            mapped.add("format")
            if read_as_sent(schema, to_anthropic_subset):  # sent back unchanged (families/schema_writing.py)
                bag[FORMAT_AS_SENT] = True
        rest = {key: value for key, value in output_config.items() if key not in mapped}
        if rest or not output_config:
            bag["output_config"] = rest
    if reasoning:
        canonical["reasoning"] = reasoning


def _decode_thinking(thinking: dict[str, Any], reasoning: dict[str, Any], bag: dict[str, Any]) -> None:
    kind = thinking["type"]
    budget = thinking.get("budget_tokens")
    if kind == "enabled" and as_count(budget) is not None:
        reasoning.update(enabled=True, budget_tokens=budget)
    elif kind == "adaptive":
        reasoning["adaptive"] = True
    elif kind == "disabled":
        reasoning["enabled"] = False
    else:
        bag["thinking"] = thinking  # a type canonical has no word for: kept whole
        return
    rest = split_fields(thinking, _THINKING_KEYS[kind])
    if rest:
        bag["thinking"] = rest


def _json_schema_format(value: object) -> dict[str, Any] | None:
    fields = as_dict(value)
    if fields is None or fields.get("type") != "json_schema" or set(fields) != {"type", "schema"}:
        return None
    return as_dict(fields["schema"])


def encode_settings(
    request: Mapping[str, Any], wire: dict[str, Any], bag: dict[str, Any], context: EncodeContext
) -> None:
    """Write ``thinking`` and ``output_config`` (the bag's leftovers first, canonical over them)."""
    reasoning, response_format = request.get("reasoning"), request.get("response_format")
    if reasoning is None and response_format is None and "thinking" not in wire and "output_config" not in wire:
        return  # the common request: nothing to write
    losses = context.losses
    thinking_rest = as_dict(wire.pop("thinking", None)) or {}
    had_output_config = "output_config" in wire
    output_config = dict(as_dict(wire.pop("output_config", None)) or {})
    thinking: dict[str, Any] | None = None
    if reasoning is not None:
        taken = thinking_taken(context.model)
        thinking = encode_thinking_config(
            reasoning,
            losses,
            unsupported=("summary", "include_thoughts"),
            why="Anthropic has no such setting",
            taken=taken,
            max_tokens=_budget_cap(request, context),
        )
        effort = _encode_effort(reasoning.get("effort"), losses)
        if effort == "none" and thinking is None:
            thinking = {"type": "disabled"}
        elif effort is not None and effort != "none" and not effort_spent_on_thinking(reasoning, taken):
            output_config["effort"] = effort
    if thinking is not None:
        wire["thinking"] = {**restore_fields(thinking_rest), **thinking}
    elif "type" in thinking_rest:
        wire["thinking"] = thinking_rest
    _encode_format(response_format, output_config, losses, bag.get(FORMAT_AS_SENT))
    if output_config or had_output_config:
        wire["output_config"] = output_config


def _budget_cap(request: Mapping[str, Any], context: EncodeContext) -> int | None:
    """What a thinking budget must stay below: the ``max_tokens`` the client gave (the
    request's, or the option), else the model's own output limit; None for a model without
    a known limit, whose filled ``max_tokens`` grows to hold the budget instead
    (:func:`budget_wanted`, ``request.py``): a value chatcodec fills in never cuts the
    client's effort."""
    for value in (request.get("max_tokens"), context.option("max_tokens")):
        if isinstance(value, int):
            return value
    return output_limit(context.model)


def budget_wanted(request: Mapping[str, Any], context: EncodeContext) -> int | None:
    """The thinking budget :func:`encode_settings` will write for ``request`` when the client
    gave no ``max_tokens`` (capped only by the model's own limit), for ``request.py`` to fill
    ``max_tokens`` above it; None without a budget. Its crossings are reported when the
    settings are written, not here."""
    reasoning = request.get("reasoning")
    if reasoning is None:
        return None
    thinking = encode_thinking_config(
        reasoning,
        LossRecorder(),
        unsupported=(),
        why="",
        taken=thinking_taken(context.model),
        max_tokens=output_limit(context.model),
    )
    budget = (thinking or {}).get("budget_tokens")
    return budget if isinstance(budget, int) else None


def _encode_effort(effort: str | None, losses: LossRecorder) -> str | None:
    if effort == "minimal":
        losses.add(
            ("reasoning", "effort"), "effort 'minimal'", "Anthropic's lowest effort is 'low'; sent as that", "setting"
        )
        return "low"
    if effort == "none":
        losses.add(
            ("reasoning", "effort"), "effort 'none'", "Anthropic has no such effort; thinking disabled", "setting"
        )
    return effort


def _encode_format(
    response_format: Mapping[str, Any] | None, output_config: dict[str, Any], losses: LossRecorder, as_sent: object
) -> None:
    kind = "text" if response_format is None else response_format.get("type", "text")
    if response_format is None or kind == "text":
        return
    at = ("response_format",)
    schema = response_format.get("json_schema")
    if kind == "json_object" or schema is None:
        losses.add(at, f"response format {kind!r}", "Anthropic needs a JSON schema for JSON output", "setting")
        return
    # structured outputs take a subset of JSON Schema (families/claude/schema_subset.py)
    output_config["format"] = {
        "type": "json_schema",
        "schema": anthropic_schema(schema, losses, (*at, "json_schema"), as_sent=as_sent),
    }
    for key in ("name", "description", "strict"):
        if response_format.get(key) is not None:
            losses.add((*at, key), f"schema {key}", "Anthropic's output format has only the schema", "setting")
