"""Reasoning and output settings <-> canonical ``reasoning`` and ``response_format``.

OpenAI Chat has one reasoning knob, ``reasoning_effort``: it reads as reasoning switched on
at that effort (``none``: off), so it reaches Claude as thinking. Another provider's
thinking is written as an effort (``none`` when disabled, a budget by the table in
:mod:`chatcodec._providers.kit.reasoning`, adaptive thinking as ``high``, each reported); a
summary setting or ``include_thoughts`` is a loss. OpenRouter's ``reasoning`` object is read and
written by :mod:`.reasoning_object` (written back as an object when it came as one, and for a
server that takes it, OpenRouter, when it says what an effort cannot: a thinking budget). ``response_format``
is ``text``, ``json_object`` or ``json_schema`` (its ``schema`` is the canonical
``json_schema``); other types, and an effort this library does not know, stay in the
request's leftovers and go back as they came.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chatcodec._providers.families.schema_writing import (
    FORMAT_AS_SENT,
    STRICT_SCHEMA_OPTION,
    openai_format_as_sent,
    openai_strict_schema,
)
from chatcodec._providers.openai_chat.passed_through import PASSED, write_thinking
from chatcodec._providers.openai_chat.reasoning_object import OBJECT_KEYS, said_only_here, write_reasoning_object
from chatcodec._providers.openai_chat.server_options import AS_OBJECT
from chatcodec.codec_kit import as_dict, as_list, effort_word, present_keys, reasoning_for_effort, unmapped_fields

if TYPE_CHECKING:
    from chatcodec.contract import DecodeContext, EncodeContext, LossRecorder, Reading

EFFORTS = ("none", "minimal", "low", "medium", "high", "xhigh", "max")
"""The canonical :data:`~chatcodec._model.request.ReasoningEffort` values, spelled out so the
decoder loads no model (a test checks they are the type's)."""
_OTHER_REASONING = ("summary", "include_thoughts")


def decode_settings(
    request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> None:
    """Fill ``reasoning`` and ``response_format`` from ``reasoning_effort`` and ``response_format``."""
    _decode_reasoning_effort(request, canonical)
    _decode_response_format(request, canonical, bag, exact=context.closed, reading=context.reading)


def encode_settings(
    request: Mapping[str, Any], wire: dict[str, Any], bag: dict[str, Any], context: EncodeContext
) -> None:
    """Write ``reasoning_effort`` and ``response_format`` for canonical request data
    (``bag`` is the request's own bag, unused: the wire fields kept from decoding are
    already in ``wire``)."""
    losses = context.losses
    reasoning = request.get("reasoning")
    if reasoning is not None and not (PASSED in bag and write_thinking(reasoning, bag[PASSED], wire)):
        keys = as_list(bag.get(OBJECT_KEYS))  # (not litellm's thinking, written back above)
        if keys is not None:  # it came as OpenRouter's object: written back so
            write_reasoning_object(reasoning, keys, wire, losses)
        elif context.options.get(AS_OBJECT) is True and said_only_here(reasoning):  # a budget, for OpenRouter
            write_reasoning_object(reasoning, [], wire, losses)
        else:
            _encode_reasoning(reasoning, wire, losses)
    response_format = request.get("response_format")
    if response_format is not None:
        as_sent = bag.get(FORMAT_AS_SENT)
        strict_schema = context.option(STRICT_SCHEMA_OPTION)
        _encode_response_format(response_format, wire, losses, strict_schema, as_sent, reading=context.reading)


def _encode_reasoning(config: Mapping[str, Any], wire: dict[str, Any], losses: LossRecorder) -> None:
    effort = effort_word(config, losses, "OpenAI Chat")
    if effort is not None:
        wire["reasoning_effort"] = effort
    for name in _OTHER_REASONING:
        if config.get(name) is not None:
            losses.add(("reasoning", name), f"reasoning {name}", "OpenAI Chat takes only reasoning_effort", "setting")


def _decode_reasoning_effort(wire: dict[str, Any], data: dict[str, Any]) -> None:
    effort = wire.get("reasoning_effort")
    if effort in EFFORTS:  # anything else stays in the request's leftovers
        data["reasoning"] = reasoning_for_effort(effort)


def _decode_response_format(
    wire: dict[str, Any], data: dict[str, Any], bag: dict[str, Any], *, exact: bool, reading: Reading | None
) -> None:
    """``exact``: the closed front's copy (:func:`~chatcodec._providers.kit.schema_memory.cached_rewrite`);
    ``reading``: a conversion's, for its writer."""
    wire_format = wire.get("response_format")
    if wire_format is None or wire_format["type"] not in ("text", "json_object", "json_schema"):
        return  # another shape: kept in the request's leftovers
    canonical: dict[str, Any] = {"type": wire_format["type"]}
    if wire_format["type"] != "json_schema":  # a json_schema beside another type is kept as it came
        extra = unmapped_fields(wire_format, ("type",))
    else:
        extra = unmapped_fields(wire_format, ("type", "json_schema"))
        schema: dict[str, Any] = wire_format["json_schema"]
        keys = ["name", *present_keys(schema, "description", "schema", "strict")]
        canonical.update((("json_schema" if key == "schema" else key), schema[key]) for key in keys)
        schema_rest = unmapped_fields(schema, keys)
        if schema_rest:
            extra["json_schema"] = schema_rest
    if extra:
        bag["response_format"] = extra
    if openai_format_as_sent(
        canonical, exact=exact, reading=reading
    ):  # sent back unchanged (families/schema_writing.py)
        bag[FORMAT_AS_SENT] = True
    data["response_format"] = canonical


def _encode_response_format(
    response_format: Mapping[str, Any],
    wire: dict[str, Any],
    losses: LossRecorder,
    strict_schema: object,
    as_sent: object,
    *,
    reading: Reading | None,
) -> None:
    extra = dict(as_dict(wire.get("response_format")) or {})
    kind = response_format.get("type", "text")
    built: dict[str, Any] = {"type": kind}
    fields: dict[str, Any] = {"name": response_format.get("name"), "description": response_format.get("description")}
    fields |= {"schema": response_format.get("json_schema"), "strict": response_format.get("strict")}
    if kind == "json_schema" and fields["schema"] is not None:  # JSON Schema, and what strict mode takes
        at = ("response_format", "json_schema")
        fields["schema"], fields["strict"] = openai_strict_schema(
            fields["schema"], fields["strict"], losses, at, strict_schema, as_sent=as_sent, reading=reading
        )
    if kind == "json_schema":
        schema = {**(as_dict(extra.get("json_schema")) or {})}
        schema.update((key, value) for key, value in fields.items() if value is not None)
        if fields["name"] is None:
            losses.add(
                ("response_format", "name"), "missing schema name", "OpenAI requires one; sent 'response'", "setting"
            )
            schema["name"] = "response"
        built["json_schema"] = schema
    else:
        for key, value in fields.items():
            if value is not None:
                name = "json_schema" if key == "schema" else key
                losses.add(
                    ("response_format", name), f"response_format {name}", f"not used with {built['type']}", "setting"
                )
    wire["response_format"] = {**extra, **built}
