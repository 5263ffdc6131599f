"""``generation_config``, ``response_format`` and ``response_mime_type``, both ways.

``generation_config`` (google-genai 3.6.1 ``GenerationConfig``): ``temperature``,
``top_p``, ``seed``, ``max_output_tokens`` (canonical ``max_tokens``), ``stop_sequences``
(``stop``), ``thinking_level`` (``minimal`` ... ``xhigh``: canonical ``reasoning.effort``),
``thinking_summaries`` (``auto`` / ``none``: ``reasoning.include_thoughts``, as Gemini's
``includeThoughts``), ``tool_choice`` (:mod:`.tools`); its other fields (image, speech,
video and transcription configs) stay in the request bag under ``generation_config``.
``response_format`` ``{"type": "text", "mime_type": "application/json", "schema"}`` is a
JSON schema (without ``schema``, JSON mode); the older spelling gives the schema itself
beside ``response_mime_type: "application/json"`` (:data:`~.markers.SCHEMA_FORMAT`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.gemini_interactions.markers import DISPLAY, GENERATION_CONFIG, SCHEMA_FORMAT
from chatcodec._providers.gemini_interactions.tools import decode_tool_choice, encode_tool_choice
from chatcodec.codec_kit import as_dict
from chatcodec.contract import DecodeContext, EncodeContext

SAMPLING = {"temperature": "temperature", "top_p": "top_p", "seed": "seed", "max_output_tokens": "max_tokens"}
"""Generation config fields -> the canonical settings spelled alike in meaning."""

LEVELS = frozenset({"minimal", "low", "medium", "high", "xhigh"})
"""The ``thinking_level`` words (google-genai 3.6.1 ``ThinkingLevel``), canonical efforts too."""

_SUMMARIES = {"auto": True, "none": False}
_JSON = "application/json"
_UNSENT = ("top_k", "frequency_penalty", "presence_penalty", "verbosity", "prompt_cache_key", "safety_identifier")


def decode_settings(
    request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> None:
    """Read the generation config and the output format into ``canonical``; the rest into ``bag``."""
    del context
    config = bag.pop("generation_config", None)
    if config is not None:
        rest = _read_config(dict(config), canonical)
        if rest:
            bag["generation_config"] = rest
        else:
            bag[GENERATION_CONFIG] = True
    _read_format(bag, canonical)
    del request


def _read_config(config: dict[str, Any], canonical: dict[str, Any]) -> dict[str, Any]:
    for wire, key in SAMPLING.items():
        if wire in config:
            canonical[key] = config.pop(wire)
    if "stop_sequences" in config:
        canonical["stop"] = config.pop("stop_sequences")
    reasoning: dict[str, Any] = {}
    if config.get("thinking_level") in LEVELS:
        reasoning["effort"] = config.pop("thinking_level")
    if config.get("thinking_summaries") in _SUMMARIES:
        reasoning["include_thoughts"] = _SUMMARIES[config.pop("thinking_summaries")]
    if reasoning:
        canonical["reasoning"] = reasoning
    if "tool_choice" in config:
        choice = decode_tool_choice(config["tool_choice"])
        if choice is not None:
            canonical["tool_choice"] = choice
            del config["tool_choice"]
    return config


def _read_format(bag: dict[str, Any], canonical: dict[str, Any]) -> None:
    form = as_dict(bag.get("response_format"))
    if form is not None and form.get("type") == "text" and set(form) <= {"type", "mime_type", "schema"}:
        schema = form.get("schema")
        # a schema that is no object is none canonical data holds: kept as it came, in the bag
        if form.get("mime_type") == _JSON and (schema is None or isinstance(schema, dict)):
            del bag["response_format"]
            canonical["response_format"] = (
                {"type": "json_object"} if schema is None else {"type": "json_schema", "json_schema": schema}
            )
    elif form is not None and bag.get("response_mime_type") == _JSON:
        del bag["response_format"], bag["response_mime_type"]
        canonical["response_format"] = {"type": "json_schema", "json_schema": form}
        bag[SCHEMA_FORMAT] = True


def encode_settings(
    request: Mapping[str, Any], wire: dict[str, Any], bag: dict[str, Any], context: EncodeContext
) -> None:
    """Write the settings; one the API has no field for is a ``setting`` loss."""
    losses = context.losses
    config: dict[str, Any] = dict(wire.pop("generation_config", None) or {})
    for field, key in SAMPLING.items():
        if request.get(key) is not None:
            config[field] = request[key]
    if request.get("stop"):
        config["stop_sequences"] = list(request["stop"])
    if request.get("reasoning") is not None:
        _write_reasoning(request["reasoning"], config, context)
    if request.get("tool_choice") is not None:
        config["tool_choice"] = encode_tool_choice(request["tool_choice"], context)
    if config or bag.get(GENERATION_CONFIG):
        wire["generation_config"] = config
    if request.get("response_format") is not None:
        _write_format(request["response_format"], wire, bag, context)
    for key in _UNSENT:
        if request.get(key) is not None:
            losses.add((key,), key, f"{DISPLAY} has no {key} setting", "setting")


def _write_reasoning(reasoning: Mapping[str, Any], config: dict[str, Any], context: EncodeContext) -> None:
    losses = context.losses
    effort = reasoning.get("effort")
    if effort in LEVELS:
        config["thinking_level"] = effort
    elif effort is not None:
        losses.add(("reasoning", "effort"), f"effort {effort!r}", f"{DISPLAY} has no such thinking_level", "setting")
    if reasoning.get("enabled") is False:  # on is the API's default: only off says something
        why = f"{DISPLAY} cannot turn thinking off; thinking_level minimal is its least"
        losses.add(("reasoning", "enabled"), "reasoning disabled", why, "setting")
    for key in ("budget_tokens", "adaptive", "summary"):
        if reasoning.get(key) is not None:
            why = f"{DISPLAY} takes thinking_level and thinking_summaries only"
            losses.add(("reasoning", key), f"reasoning {key}", why, "setting")
    if reasoning.get("include_thoughts") is not None:
        config["thinking_summaries"] = "auto" if reasoning["include_thoughts"] else "none"


def _write_format(
    form: Mapping[str, Any], wire: dict[str, Any], bag: Mapping[str, Any], context: EncodeContext
) -> None:
    kind = form["type"]
    if kind == "text":
        return
    schema = form.get("json_schema") if kind == "json_schema" else None
    if bag.get(SCHEMA_FORMAT) and schema is not None:
        wire["response_format"], wire["response_mime_type"] = schema, _JSON
    else:
        wire["response_format"] = {"type": "text", "mime_type": _JSON, **({"schema": schema} if schema else {})}
    for key in ("name", "description", "strict"):
        if form.get(key) is not None:
            context.losses.add(("response_format", key), key, f"{DISPLAY} takes the schema alone", "setting")
