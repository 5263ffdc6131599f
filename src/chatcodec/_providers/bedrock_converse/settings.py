"""Reasoning and structured output <-> ``additionalModelRequestFields`` and ``outputConfig``.

Converse has no reasoning field of its own: each model family takes its switch through
``additionalModelRequestFields`` (Claude's ``thinking`` object, as the Anthropic API
spells it; Nova's ``reasoningConfig``; gpt-oss ``reasoning_effort``). Claude's
``{"type": "enabled", "budget_tokens": N}`` and ``{"type": "adaptive"}`` map to canonical
``reasoning``; everything else in that object rides in the request bag and is written
back. Canonical reasoning is written as Claude's ``thinking`` object (the family that
takes most histories here); what it cannot say (a summary) is reported. For an Amazon Nova
model id it is written as Nova's ``reasoningConfig`` instead (``families/aws/nova_reasoning.py``,
the spelling Nova's own body writes), which the ``reasoning_config`` rule keeps for Nova 2 only;
a body whose ``modelId`` is a Nova id has its ``reasoningConfig`` read as canonical reasoning
(when canonical holds it exactly), so it reaches Nova's InvokeModel body and other formats.

``outputConfig.effort`` (botocore ``OutputConfig.effort``: ``low``, ``medium``, ``high``,
``xhigh``, ``max``) is canonical ``reasoning.effort``, as Anthropic's
``output_config.effort`` is; OpenAI's ``minimal`` is sent as ``low`` and ``none`` as
disabled thinking, both reported.

``outputConfig.textFormat`` with ``type: "json_schema"`` is canonical ``response_format``:
its ``structure.jsonSchema.schema`` is a JSON *string* on the wire (botocore's
``JsonSchemaDefinition``), parsed here; the string as spelled rides as ``_schema_text``
so the round trip is exact.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from chatcodec._providers.families.aws.nova_models import model_of
from chatcodec._providers.families.aws.nova_reasoning import decode_reasoning, encode_reasoning_config
from chatcodec._providers.families.claude.schema_subset import to_anthropic_subset
from chatcodec._providers.families.claude.wire_rules import (
    ThinkingTaken,
    effort_spent_on_thinking,
    encode_thinking_config,
    thinking_taken,
)
from chatcodec._providers.families.schema_writing import FORMAT_AS_SENT, anthropic_schema, read_as_sent
from chatcodec.codec_kit import as_dict, read_json_text
from chatcodec.contract import DecodeContext, EncodeContext, LossRecorder

_FORMAT_KEYS = {"name", "description", "schema"}
_KEPT = frozenset({"additionalModelRequestFields", "outputConfig"})
"""What the request's bag may keep of these settings."""
_EFFORTS = frozenset({"low", "medium", "high", "xhigh", "max"})
"""botocore ``OutputConfig.effort`` values (the documented ones)."""


def decode_settings(
    request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> None:
    """Fill ``reasoning`` and ``response_format``."""
    fields = as_dict(request.get("additionalModelRequestFields"))
    if fields is not None:
        thinking = as_dict(fields.get("thinking"))
        reasoning = _decode_thinking(thinking) if thinking is not None else None
        rest = dict(fields)
        if reasoning is not None:
            canonical["reasoning"] = reasoning
            del rest["thinking"]
        elif "thinking" not in fields and _nova(request.get("modelId")):
            reasoning = _decode_nova_reasoning(rest, canonical)
        if rest or reasoning is None:
            bag["additionalModelRequestFields"] = rest
    output = as_dict(request.get("outputConfig"))
    effort = output.get("effort") if output is not None else None
    if output is not None and isinstance(effort, str) and effort in _EFFORTS:  # another value stays in the bag
        canonical["reasoning"] = {**canonical.get("reasoning", {}), "effort": output["effort"]}
        output = {key: value for key, value in output.items() if key != "effort"}
        if not output:
            return
    if output is not None:
        _decode_output(output, canonical, bag)


def _nova(model: object) -> bool:
    """Whether a Converse body's ``modelId`` names an Amazon Nova model."""
    return isinstance(model, str) and model_of(model) is not None


def _decode_nova_reasoning(rest: dict[str, Any], canonical: dict[str, Any]) -> dict[str, Any] | None:
    """A Nova model's ``reasoningConfig`` (its spelling on Converse too) as canonical
    reasoning, taken out of ``rest``, when canonical holds it exactly (the writer spells it
    back for the same model id)."""
    config = as_dict(rest.get("reasoningConfig"))
    reasoning = decode_reasoning(config) if config is not None else None
    if reasoning is not None:
        canonical["reasoning"] = reasoning
        del rest["reasoningConfig"]
    return reasoning


def _decode_thinking(thinking: dict[str, Any]) -> dict[str, Any] | None:
    budget = thinking.get("budget_tokens")
    if thinking == {"type": "enabled", "budget_tokens": budget} and type(budget) is int and budget >= 0:
        return {"enabled": True, "budget_tokens": budget}
    if thinking == {"type": "adaptive"}:
        return {"adaptive": True}
    if thinking == {"type": "disabled"}:
        return {"enabled": False}
    return None


def _decode_output(output: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any]) -> None:
    text_format = as_dict(output.get("textFormat"))
    structure = as_dict(text_format.get("structure")) if text_format is not None else None
    schema = as_dict(structure.get("jsonSchema")) if structure is not None else None
    if (
        text_format is None
        or text_format.keys() != {"type", "structure"}
        or text_format["type"] != "json_schema"
        or structure is None
        or structure.keys() != {"jsonSchema"}
        or schema is None
        or not set(schema) <= _FORMAT_KEYS
        or not all(isinstance(value, str) for value in schema.values())
    ):
        bag["outputConfig"] = output
        return
    try:
        parsed = as_dict(read_json_text(schema.get("schema", "{}")))
    except ValueError:
        parsed = None
    if parsed is None:
        bag["outputConfig"] = output
        return
    response_format: dict[str, Any] = {"type": "json_schema", "json_schema": parsed}
    for key in ("name", "description"):
        if key in schema:
            response_format[key] = schema[key]
    canonical["response_format"] = response_format
    if "schema" in schema and schema["schema"] != _schema_text(parsed):
        bag["_schema_text"] = schema["schema"]
    if "schema" not in schema:
        bag["_no_schema"] = True
    elif read_as_sent(parsed, to_anthropic_subset):  # sent back unchanged (families/schema_writing.py)
        bag[FORMAT_AS_SENT] = True
    rest = {key: value for key, value in output.items() if key != "textFormat"}
    if rest:
        bag["outputConfig"] = rest


def _schema_text(schema: dict[str, Any]) -> str:
    return json.dumps(schema, ensure_ascii=False, separators=(",", ":"))


def encode_settings(
    request: Mapping[str, Any], wire: dict[str, Any], bag: dict[str, Any], context: EncodeContext
) -> None:
    """Write ``additionalModelRequestFields`` and ``outputConfig`` (bag first, canonical over
    it; ``request``: canonical request data)."""
    reasoning, response_format = request.get("reasoning"), request.get("response_format")
    if reasoning is None and response_format is None and not bag.keys() & _KEPT:
        return  # nothing to write
    losses = context.losses
    fields = dict(as_dict(bag.get("additionalModelRequestFields")) or {})
    had_fields = "additionalModelRequestFields" in bag
    output = dict(as_dict(bag.get("outputConfig")) or {})
    if reasoning is not None and model_of(context.model or "") is not None:  # Nova's own spelling
        config = encode_reasoning_config(reasoning, losses)
        if config is not None:
            fields["reasoningConfig"] = config
    elif reasoning is not None:
        limit = request.get("max_tokens")
        _encode_reasoning(reasoning, fields, output, losses, taken=thinking_taken(context.model), max_tokens=limit)
    if fields or had_fields:
        wire["additionalModelRequestFields"] = fields
    if response_format is not None:
        _encode_format(response_format, output, bag, losses)
    if output:
        wire["outputConfig"] = output


def _encode_format(
    response_format: Mapping[str, Any], output: dict[str, Any], bag: Mapping[str, Any], losses: LossRecorder
) -> None:
    """``outputConfig.textFormat`` for a canonical response format with a JSON schema."""
    kind = response_format.get("type", "text")
    if kind == "text":
        return
    at = ("response_format",)
    json_schema = response_format.get("json_schema")
    if json_schema is None:
        losses.add(at, f"response format {kind!r}", "Bedrock needs a JSON schema for JSON output", "setting")
        return
    schema: dict[str, Any] = {}
    for key in ("name", "description"):
        if response_format.get(key) is not None:
            schema[key] = response_format[key]
    if not bag.get("_no_schema") or json_schema:
        # structured outputs take Claude's subset of JSON Schema on Bedrock too
        subset = anthropic_schema(json_schema, losses, (*at, "json_schema"), as_sent=bag.get(FORMAT_AS_SENT))
        schema["schema"] = _spelled(subset, bag.get("_schema_text"))
    if response_format.get("strict") is not None:
        losses.add((*at, "strict"), "schema strict flag", "Bedrock's output format has no such flag", "setting")
    output["textFormat"] = {"type": "json_schema", "structure": {"jsonSchema": schema}}


def _encode_reasoning(
    reasoning: Mapping[str, Any],
    fields: dict[str, Any],
    output: dict[str, Any],
    losses: LossRecorder,
    *,
    taken: ThinkingTaken,
    max_tokens: int | None,
) -> None:
    """Claude's ``thinking`` into ``fields`` and the effort into ``output`` (reasoning
    switched on with an effort: adaptive thinking on Claude 4.6+, a budget from the effort
    on an older Claude with extended thinking, which then is not sent as an effort too, and
    neither on a model not known to think, as on Anthropic)."""
    thinking = encode_thinking_config(
        reasoning,
        losses,
        unsupported=("summary", "include_thoughts"),
        why="Bedrock Converse has no such setting (Claude thinking sent)",
        taken=taken,
        max_tokens=max_tokens,
    )
    effort = _encode_effort(reasoning.get("effort"), losses)
    if effort == "none" and thinking is None:
        thinking = {"type": "disabled"}
    elif effort is not None and effort != "none" and not effort_spent_on_thinking(reasoning, taken):
        output["effort"] = effort
    if thinking is not None:
        fields["thinking"] = thinking


def _encode_effort(effort: str | None, losses: LossRecorder) -> str | None:
    """The ``outputConfig.effort`` for a canonical effort (``none``: thinking disabled)."""
    at = ("reasoning", "effort")
    if effort == "minimal":
        losses.add(at, "effort 'minimal'", "Bedrock's lowest effort is 'low'; sent as that", "setting")
        return "low"
    if effort == "none":
        losses.add(at, "effort 'none'", "Bedrock has no such effort; thinking disabled", "setting")
    return effort


def _spelled(schema: dict[str, Any], text: object) -> str:
    """The schema as text: the spelling the decoder saw when it still says the same."""
    if isinstance(text, str):
        try:
            if read_json_text(text) == schema:
                return text
        except ValueError:
            pass
    return _schema_text(schema)
