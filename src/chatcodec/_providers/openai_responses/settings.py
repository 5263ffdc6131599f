"""``reasoning`` and ``text`` <-> canonical ``reasoning`` and ``response_format``.

``reasoning.effort`` (``none``, ``minimal``, ``low``, ``medium``, ``high``, ``xhigh``, ``max``) and
``reasoning.summary`` (``auto``, ``concise``, ``detailed``) are canonical fields; the
deprecated ``generate_summary`` and anything else stay in the bag. Structured output is
``text.format`` (``json_schema`` flat: ``name``, ``schema``, ``description``, ``strict``;
``json_object``; ``text``), and ``text.verbosity`` is the canonical ``verbosity`` (OpenAI Chat's
top-level ``verbosity``; another word stays in the bag). What canonical can say
and Responses cannot say is written as the closest effort (``none`` for thinking disabled,
a budget by the table in :mod:`chatcodec._providers.kit.reasoning`, adaptive thinking as
``high``), reported; an effort reads as reasoning switched on at that effort, so it reaches
Claude as thinking. Gemini's ``include_thoughts`` is reported.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.families.schema_writing import (
    FORMAT_AS_SENT,
    STRICT_SCHEMA_OPTION,
    openai_format_as_sent,
    openai_strict_schema,
)
from chatcodec._providers.openai_responses.markers import PROVIDER
from chatcodec.codec_kit import (
    as_dict,
    effort_word,
    kept_object,
    leftovers,
    reasoning_for_effort,
    restore_fields,
    rule_error,
    unmapped_fields,
)
from chatcodec.contract import DecodeContext, EncodeContext, LossRecorder

_EFFORTS = frozenset({"none", "minimal", "low", "medium", "high", "xhigh", "max"})
"""Responses' efforts; ``max`` since 2026 (openai 3.54 ``shared_params/reasoning.py``,
https://www.openrouter.ai/docs/cookbook/evaluate-and-optimize/model-migrations/gpt-5-6)."""
_SUMMARIES = frozenset({"auto", "concise", "detailed"})
_VERBOSITY = frozenset({"low", "medium", "high"})
"""The canonical :data:`~chatcodec._model.request.Verbosity` words (openai 3.54
``ResponseTextConfigParam.verbosity``)."""
_AT_BAG = ("provider_options", PROVIDER)
"""Where a request's kept fields are, for an error about one of them."""
_FORMAT_KEYS = (("name", "name"), ("description", "description"), ("schema", "json_schema"), ("strict", "strict"))


def decode_settings(
    request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> None:
    """Fill ``reasoning`` and ``response_format`` from ``reasoning`` and ``text``."""
    reasoning = as_dict(request.get("reasoning"))
    if reasoning is not None:
        _check_reasoning(reasoning)
        config: dict[str, Any] = {}
        if reasoning.get("effort") in _EFFORTS:
            config.update(reasoning_for_effort(reasoning["effort"]))
        if reasoning.get("summary") in _SUMMARIES:
            config["summary"] = reasoning["summary"]
        rest = leftovers(reasoning, [key for key in config if key != "enabled"])
        if config:
            canonical["reasoning"] = config
        if rest or not config:
            bag["reasoning"] = rest
    text = as_dict(request.get("text"))
    if text is not None:
        _decode_text(text, canonical, bag)


def _check_reasoning(reasoning: dict[str, Any]) -> None:
    """``effort`` and ``summary`` are text or null (the SDK's ``Reasoning``: literals, and an
    unknown text stays in the bag as a value added later); a list or an object is refused at
    its path (it raised ``TypeError`` from the set lookup)."""
    for key in ("effort", "summary"):
        value = reasoning.get(key)
        if value is not None and not isinstance(value, str):
            raise rule_error("OpenAI Responses request", ("reasoning", key), "string_type", "must be text", value)


def _decode_text(text: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any]) -> None:
    verbosity = text.get("verbosity")
    if verbosity.__class__ is str and verbosity in _VERBOSITY:
        canonical["verbosity"] = verbosity
        text = {key: value for key, value in text.items() if key != "verbosity"}
        if not text:  # the verbosity alone: written again from canonical
            return
    fields = as_dict(text.get("format"))
    response_format = None if fields is None else _decode_format(fields)
    if fields is None or response_format is None:
        bag["text"] = text
        return
    canonical["response_format"] = response_format
    if openai_format_as_sent(response_format):  # sent back unchanged (families/schema_writing.py)
        bag[FORMAT_AS_SENT] = True
    mapped = ["type", *(wire for wire, key in _FORMAT_KEYS if key in response_format)]
    format_rest = unmapped_fields(fields, mapped)  # wire values, written back as they are: not escaped
    rest = unmapped_fields(text, ("format",))
    if format_rest:
        rest["format"] = format_rest
    if rest:  # `text` is written again for the format: an empty rest says nothing
        bag["text"] = rest


def _decode_format(fields: dict[str, Any]) -> dict[str, Any] | None:
    kind = fields.get("type")
    if kind in ("text", "json_object"):
        return {"type": kind}
    if kind != "json_schema" or not isinstance(fields.get("schema"), dict):
        return None
    decoded: dict[str, Any] = {"type": "json_schema"}
    for wire, key in _FORMAT_KEYS:
        value = fields.get(wire)
        if value is not None and isinstance(value, bool if key == "strict" else dict if key == "json_schema" else str):
            decoded[key] = value
    return decoded


def encode_settings(
    request: Mapping[str, Any], wire: dict[str, Any], bag: dict[str, Any], context: EncodeContext
) -> None:
    """Write ``reasoning`` and ``text`` (the bag's leftovers first, canonical over them: the
    format and the verbosity)."""
    losses = context.losses
    reasoning = request.get("reasoning")
    if reasoning is not None:
        written = {**restore_fields(kept_object(bag, "reasoning", _AT_BAG, PROVIDER)), **_reasoning(reasoning, losses)}
        if written or "reasoning" in bag:
            wire["reasoning"] = written
    response_format, verbosity = request.get("response_format"), request.get("verbosity")
    if response_format is None and verbosity is None and "text" not in wire and "text" not in bag:
        return
    text = kept_object(wire, "text", _AT_BAG, PROVIDER, take=True)
    if response_format is not None:
        written = _format(response_format, losses, context.option(STRICT_SCHEMA_OPTION), bag.get(FORMAT_AS_SENT))
        text["format"] = {**(as_dict(text.get("format")) or {}), **written}
    if verbosity is not None:
        text["verbosity"] = verbosity
    if text or "text" in bag:
        wire["text"] = text


def _reasoning(reasoning: Mapping[str, Any], losses: LossRecorder) -> dict[str, Any]:
    at = ("reasoning",)
    wire: dict[str, Any] = {}
    effort, summary = effort_word(reasoning, losses, "Responses"), reasoning.get("summary")
    if effort is not None:
        wire["effort"] = effort
    if summary in _SUMMARIES:
        wire["summary"] = summary
    elif summary is not None:
        losses.add(
            (*at, "summary"), f"summary {summary!r}", "Responses summaries are auto, concise, detailed", "setting"
        )
    for key in ("include_thoughts",):
        if reasoning.get(key) is not None:
            losses.add((*at, key), f"reasoning {key}", "Responses has no such setting", "setting")
    return wire


def _format(
    response_format: Mapping[str, Any], losses: LossRecorder, strict_schema: object, as_sent: object
) -> dict[str, Any]:
    at = ("response_format",)
    kind = response_format.get("type", "text")
    schema = response_format.get("json_schema")
    wire: dict[str, Any] = {"type": kind}
    if kind != "json_schema" or schema is None:
        for key in ("name", "description", "strict", "json_schema"):
            if response_format.get(key) is not None:
                losses.add((*at, key), f"format {key}", f"a {kind!r} format has no schema fields", "setting")
        if kind == "json_schema":
            losses.add(at, "JSON schema format without a schema", "sent as a JSON object format", "setting")
            wire["type"] = "json_object"
        return wire
    name = response_format.get("name")
    if not name:  # none, or the empty one Responses refuses (a name is 1 to 64 characters)
        losses.add((*at, "name"), "unnamed schema", "Responses requires a schema name; sent 'response'", "setting")
    wire["name"] = name or "response"
    # JSON Schema, and what strict mode takes (families/schema_writing.py)
    at_schema = (*at, "json_schema")
    strict = response_format.get("strict")
    wire["schema"], strict = openai_strict_schema(schema, strict, losses, at_schema, strict_schema, as_sent=as_sent)
    if response_format.get("description") is not None:
        wire["description"] = response_format["description"]
    if strict is not None:
        wire["strict"] = strict
    return wire
