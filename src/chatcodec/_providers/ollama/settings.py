"""Sampling (``options``), thinking (``think``) and the output format (``format``), both ways.

- ``options`` holds the sampling settings (``api.Options``): ``temperature``, ``top_p``,
  ``top_k``, ``seed``, ``stop``, ``frequency_penalty``, ``presence_penalty``, and
  ``num_predict``, the token limit (``max_tokens``; its ``-1`` "no limit" and ``-2`` "fill
  the context" have no canonical value and stay as they are). The server reads
  ``options`` as a map (``Options.FromMap``): it truncates a fractional ``top_k`` and
  refuses a ``stop`` that is not a list; such values have no canonical reading and stay as
  they came too. The rest of ``options``
  (``num_ctx``, ``min_p``, ``repeat_penalty``, ``mirostat``...) rides in
  ``provider_options["ollama"]["options"]`` and is written back beside the canonical ones.
- ``think`` is a boolean or a level (``api.ThinkValue``: ``"low"``, ``"medium"``,
  ``"high"``, ``"max"``): ``true``/``false`` is ``reasoning.enabled``, a level is
  thinking switched on at that ``reasoning.effort`` (the level turns thinking on, as an
  OpenAI ``reasoning_effort`` does: :func:`~chatcodec._providers.kit.reasoning.reasoning_for_effort`;
  so it reaches Claude as thinking, not as an effort alone that only tunes the answer),
  and an effort without thinking (Claude's) is sent as the level, reported. Encoding,
  effort ``none`` is ``false``, ``minimal`` is sent as ``"low"`` and ``xhigh`` as
  ``"high"`` (reported); a token budget, adaptive thinking, a
  summary and ``include_thoughts`` have no field (reported). ``enabled: true`` beside an
  effort is said by the effort alone.
- ``format`` is ``"json"`` (``response_format`` ``json_object``) or a JSON Schema object
  (``json_schema``); the server always holds the answer to the schema, so ``strict: true``
  needs no field, while ``strict: false``, a schema's ``name`` and ``description`` have
  none (reported). ``text`` is the default: no ``format``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.families.schema_writing import FORMAT_AS_SENT, json_schema, read_as_sent
from chatcodec._providers.ollama.wire import THINK_LEVELS
from chatcodec.codec_kit import (
    as_dict,
    as_sampling_number,
    mark_integers,
    reasoning_for_effort,
    respell_integers,
    thinking_on,
)
from chatcodec.contract import DecodeContext, EncodeContext, LossRecorder

SAMPLING = ("temperature", "top_p", "frequency_penalty", "presence_penalty")
"""Sampling numbers with the same name in ``options`` and canonical form."""

WHOLE_NUMBERS = ("top_k", "seed")
"""Integer settings with the same name in ``options`` and canonical form."""

_EFFORT_SENT: Mapping[str, bool | str] = {
    "none": False,
    "minimal": "low",
    "low": "low",
    "medium": "medium",
    "high": "high",
    "xhigh": "high",
    "max": "max",
}
"""The ``think`` value sent for each canonical effort."""


# --- decode --------------------------------------------------------------------------


def decode_settings(
    request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> None:
    """``options``, ``think`` and ``format`` into ``canonical``; what has no canonical field into ``bag``."""
    options = request.get("options")
    if options is not None:
        mark_integers(options, SAMPLING, bag)  # canonical holds a float: ``1`` would come back as ``1.0``
        rest = _decode_options(options, canonical)
        if rest or not options:
            bag["options"] = rest
    think = request.get("think")
    if isinstance(think, bool):
        canonical["reasoning"] = {"enabled": think}
    elif isinstance(think, str):
        canonical["reasoning"] = reasoning_for_effort(think)  # a level turns thinking on, at that effort
    response_format = request.get("format")
    if response_format == "json":
        canonical["response_format"] = {"type": "json_object"}
    elif isinstance(response_format, dict):
        canonical["response_format"] = {"type": "json_schema", "json_schema": response_format}
        if read_as_sent(response_format):  # sent back unchanged (families/schema_writing.py)
            bag[FORMAT_AS_SENT] = True
    elif "format" in request:
        bag["format"] = response_format  # "" or a word the server may add, kept as it came


def _decode_options(options: dict[str, Any], canonical: dict[str, Any]) -> dict[str, Any]:
    """The canonical settings ``options`` holds; returns the rest of it."""
    mapped: list[str] = []
    for key in SAMPLING:
        if options.get(key) is not None:
            canonical[key] = as_sampling_number(options[key])
            mapped.append(key)
    for key in WHOLE_NUMBERS:
        if type(options.get(key)) is int:  # the server truncates a fraction; canonical takes whole numbers only
            canonical[key] = options[key]
            mapped.append(key)
    limit = options.get("num_predict")
    if type(limit) is int and limit >= 1:
        canonical["max_tokens"] = limit
        mapped.append("num_predict")
    stop = options.get("stop")
    if isinstance(stop, list) and stop:  # the server refuses a string ("must be of type array"): kept as it came
        canonical["stop"] = stop
        mapped.append("stop")
    return {key: value for key, value in options.items() if key not in mapped}


# --- encode --------------------------------------------------------------------------


def encode_settings(
    request: Mapping[str, Any], wire: dict[str, Any], bag: dict[str, Any], context: EncodeContext
) -> None:
    """``options``, ``think`` and ``format`` from the canonical settings (and ``bag``)."""
    kept = as_dict(bag.get("options"))
    options: dict[str, Any] = dict(kept or {})
    for key in (*SAMPLING, *WHOLE_NUMBERS):
        if request.get(key) is not None:
            options[key] = request[key]
    if request.get("max_tokens") is not None:
        options["num_predict"] = request["max_tokens"]
    stop: list[str] = request.get("stop") or []
    if stop:
        options["stop"] = list(stop)
    respell_integers(options, bag)
    if options or kept is not None:
        wire["options"] = options
    reasoning = request.get("reasoning")
    if reasoning is not None:
        think = encode_think(reasoning, context.losses)
        if think is not None:
            wire["think"] = think
    response_format = request.get("response_format")
    if response_format is not None:
        encoded = encode_format(response_format, context.losses, as_sent=bag.get(FORMAT_AS_SENT))
        if encoded is not None:
            wire["format"] = encoded
    elif "format" in bag:
        wire["format"] = bag["format"]


def encode_think(reasoning: Mapping[str, Any], losses: LossRecorder) -> bool | str | None:
    """The ``think`` value for canonical reasoning settings (None: leave it out)."""
    at = ("reasoning",)
    for key, why in (
        ("budget_tokens", "Ollama takes a thinking level, not a token budget"),
        ("adaptive", "Ollama has no adaptive thinking switch"),
        ("summary", "Ollama returns the whole thinking, never a summary"),
        ("include_thoughts", "Ollama returns thinking whenever it thinks"),
    ):
        if reasoning.get(key) is not None:
            losses.add((*at, key), f"reasoning {key}", why, "setting")
    enabled, effort = reasoning.get("enabled"), reasoning.get("effort")
    if effort is None:
        return enabled if isinstance(enabled, bool) else None
    sent = _EFFORT_SENT.get(effort)
    if enabled is False and effort != "none":
        losses.add((*at, "effort"), f"reasoning effort {effort!r}", "thinking is off; Ollama sends false", "setting")
        return False
    if effort != "none" and not thinking_on(reasoning):
        why = "Ollama's level turns thinking on too (it reads back as thinking switched on)"
        losses.add((*at, "effort"), f"effort {effort!r} without thinking", why, "setting")
    if sent is None or (isinstance(sent, str) and sent != effort):
        why = f"Ollama's levels are {', '.join(THINK_LEVELS)}; sent {sent!r}"
        losses.add((*at, "effort"), f"reasoning effort {effort!r}", why, "setting")
    return sent


def encode_format(
    response_format: Mapping[str, Any], losses: LossRecorder, *, as_sent: object = False
) -> str | dict[str, Any] | None:
    """The ``format`` value for a canonical response format (None: free text, the default)."""
    at = ("response_format",)
    kind = response_format.get("type", "text")
    if kind == "text":
        return None
    for key in ("name", "description"):
        if response_format.get(key) is not None:
            losses.add((*at, key), f"response format {key}", "Ollama's format is the schema alone", "setting")
    if response_format.get("strict") is False:
        losses.add((*at, "strict"), "strict: false", "Ollama always holds the answer to the schema", "setting")
    schema = response_format.get("json_schema")
    if kind == "json_schema" and schema is not None:
        return dict(json_schema(schema, losses, (*at, "json_schema"), as_sent=as_sent))
    if kind == "json_schema":
        losses.add(at, "json_schema without a schema", "sent as Ollama's JSON mode", "setting")
    return "json"
