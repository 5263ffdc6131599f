"""``generationConfig`` <-> canonical sampling settings, reasoning and output format.

Sampling: ``temperature``, ``topP``, ``topK``, ``maxOutputTokens``, ``stopSequences``,
``seed``, ``presencePenalty``, ``frequencyPenalty`` map to their canonical fields;
``responseLogprobs`` is ``logprobs`` and ``logprobs`` (the top candidates per step)
``top_logprobs`` (https://ai.google.dev/api/generate-content#generationconfig).

Reasoning (``thinkingConfig``): ``thinkingBudget`` is ``budget_tokens`` (``-1``, dynamic
thinking, is ``adaptive``), ``thinkingLevel`` (``LOW``/``HIGH``... in Gemini 3) is
``effort``, ``includeThoughts`` is ``include_thoughts``. Gemini 3 always thinks, the level
setting how deeply, and ``includeThoughts`` asks for the thought summaries back
(https://ai.google.dev/gemini-api/docs/thinking). So a level alone reads as an effort
only (Claude's effort without thinking comes back without thinking), and a level with
``includeThoughts: true`` as thinking turned on: ``adaptive`` at that effort (Claude's
adaptive thinking, whose thinking blocks the client sees). The encoder writes the same
way: ``includeThoughts: true`` whenever canonical thinking is on (a switch, adaptive, a
budget) unless the request says otherwise or was read without it (``_no_thoughts``), and a
level alone for an effort alone. Gemini 2.5 takes budgets, not levels: ``rules.py`` writes
the one the model takes.

Output format: ``responseMimeType: application/json`` with ``responseJsonSchema`` (or
``responseSchema``, Google's OpenAPI subset; the ``_response_schema_key`` marker
remembers which) is a ``json_schema`` format, without a schema ``json_object``. Gemini
has no schema name, description or strict switch: those are losses on encoding.

Everything else in ``generationConfig`` (``candidateCount``, ``responseModalities``,
``mediaResolution``, ``speechConfig``...) rides in the request's bag and is written back.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.gemini.markers import LEVEL_SPELLING, NO_THOUGHTS, PROVIDER
from chatcodec.codec_kit import as_count, as_sampling_number, kept_object, mark_integers, respell_integers, thinking_on
from chatcodec.contract import DecodeContext, EncodeContext, LossRecorder, Steps

_OPTIONS = ("provider_options", PROVIDER)
"""Where a request keeps Gemini's own settings (what the encoder starts from)."""

_SCALARS = (
    ("temperature", "temperature"),
    ("topP", "top_p"),
    ("seed", "seed"),
    ("presencePenalty", "presence_penalty"),
    ("frequencyPenalty", "frequency_penalty"),
)
_SAMPLING_KEYS = tuple(wire_key for wire_key, key in _SCALARS if key != "seed")
_EFFORTS = frozenset({"minimal", "low", "medium", "high", "xhigh"})
RESPONSE_SCHEMA_KEY = "_response_schema_key"
"""Marker: the output schema came as ``responseSchema``."""
JSON = "application/json"
CONFIG_PRESENT = "_generation_config"
"""Marker: the request carried a ``generationConfig`` whose every field has a canonical home."""


def decode_settings(
    request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> None:
    """Map ``generationConfig`` into ``canonical``; what is left of it goes into ``bag``."""
    if "generationConfig" not in request:
        return
    rest = dict(request["generationConfig"])
    mark_integers(rest, _SAMPLING_KEYS, bag)  # canonical holds a float: ``1`` would come back as ``1.0``
    for wire_key, key in _SCALARS:
        if wire_key in rest:
            value = rest.pop(wire_key)
            canonical[key] = value if key == "seed" else as_sampling_number(value)  # 1 reads as 1.0
    if isinstance(rest.get("topK"), int):
        canonical["top_k"] = rest.pop("topK")
    _decode_logprobs(rest, canonical)
    if isinstance(rest.get("maxOutputTokens"), int) and rest["maxOutputTokens"] >= 1:
        canonical["max_tokens"] = rest.pop("maxOutputTokens")
    if rest.get("stopSequences"):
        canonical["stop"] = rest.pop("stopSequences")
    _decode_format(rest, canonical, bag)
    if "thinkingConfig" in rest:
        canonical["reasoning"] = _decode_thinking(rest, bag)
    if rest:
        bag["generationConfig"] = rest
    else:
        bag[CONFIG_PRESENT] = True  # sent even when empty (``"generationConfig": {}``)


def _decode_logprobs(rest: dict[str, Any], canonical: dict[str, Any]) -> None:
    """``responseLogprobs`` (a boolean) is ``logprobs``, ``logprobs`` (a count of top
    candidates per step, "only valid if responseLogprobs=True") ``top_logprobs``."""
    if type(rest.get("responseLogprobs")) is bool:
        canonical["logprobs"] = rest.pop("responseLogprobs")
    if type(rest.get("logprobs")) is int and rest["logprobs"] >= 0:
        canonical["top_logprobs"] = rest.pop("logprobs")


def _decode_format(rest: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any]) -> None:
    if rest.get("responseMimeType") != JSON:
        return
    schema_key = next((key for key in ("responseJsonSchema", "responseSchema") if key in rest), None)
    if schema_key is None:
        del rest["responseMimeType"]
        canonical["response_format"] = {"type": "json_object"}
    elif isinstance(rest[schema_key], dict):
        del rest["responseMimeType"]
        canonical["response_format"] = {"type": "json_schema", "json_schema": rest.pop(schema_key)}
        if schema_key == "responseSchema":
            bag[RESPONSE_SCHEMA_KEY] = True


def _decode_thinking(rest: dict[str, Any], bag: dict[str, Any]) -> dict[str, Any]:
    thinking = dict(rest.pop("thinkingConfig"))
    reasoning: dict[str, Any] = {}
    budget = thinking.get("thinkingBudget")
    dynamic = "thinkingBudget" not in thinking
    if budget == -1:
        reasoning["adaptive"] = True
        del thinking["thinkingBudget"]
    elif as_count(budget) is not None:
        reasoning["budget_tokens"] = thinking.pop("thinkingBudget")
    level = thinking.get("thinkingLevel")
    thoughts = thinking.get("includeThoughts")
    if isinstance(level, str) and level.lower() in _EFFORTS:
        reasoning["effort"] = level.lower()
        del thinking["thinkingLevel"]
        if dynamic and thoughts is True:
            reasoning["adaptive"] = True  # thinking shown at a level: Claude's adaptive thinking
        if level != level.upper():
            bag[LEVEL_SPELLING] = level
    if "includeThoughts" in thinking:
        reasoning["include_thoughts"] = thinking.pop("includeThoughts")
    elif thinking_on(reasoning):
        bag[NO_THOUGHTS] = True
    if thinking:
        rest["thinkingConfig"] = thinking
    return reasoning


def encode_settings(
    request: Mapping[str, Any], wire: dict[str, Any], bag: dict[str, Any], context: EncodeContext
) -> None:
    """Write ``generationConfig`` for canonical request data into ``wire`` (over what the
    bag kept)."""
    losses = context.losses
    present = "generationConfig" in wire or bag.get(CONFIG_PRESENT) is True
    config = kept_object(wire, "generationConfig", _OPTIONS, PROVIDER)
    for wire_key, key in _SCALARS:
        value = request.get(key)
        if value is not None:
            config[wire_key] = value
    top_k = request.get("top_k")
    if top_k is not None:
        config["topK"] = top_k
    for wire_key, key in (("responseLogprobs", "logprobs"), ("logprobs", "top_logprobs")):
        if request.get(key) is not None:
            config[wire_key] = request[key]
    max_tokens = request.get("max_tokens")
    if max_tokens is not None:
        config["maxOutputTokens"] = max_tokens
    stop: list[str] = request.get("stop", [])
    if stop:
        config["stopSequences"] = list(stop)
    response_format: Mapping[str, Any] | None = request.get("response_format")
    if response_format is not None:
        _encode_format(response_format, config, bag, losses)
    reasoning: Mapping[str, Any] | None = request.get("reasoning")
    if reasoning is not None:
        config["thinkingConfig"] = _encode_thinking(reasoning, config, bag, losses)
    respell_integers(config, bag)
    if config or present:
        wire["generationConfig"] = config


def _encode_format(
    response_format: Mapping[str, Any], config: dict[str, Any], bag: dict[str, Any], losses: LossRecorder
) -> None:
    at = ("response_format",)
    kind = response_format.get("type", "text")
    if kind == "text":
        return  # Gemini's default output
    config["responseMimeType"] = JSON
    schema = response_format.get("json_schema")
    if kind == "json_schema" and schema is not None:
        config["responseSchema" if bag.get(RESPONSE_SCHEMA_KEY) else "responseJsonSchema"] = schema
    elif schema is not None:  # JSON mode asks for any JSON; a schema sent would make it a json_schema format
        losses.add((*at, "json_schema"), "json_schema", f"a {kind} format's schema is not sent to Gemini", "setting")
    for key in ("name", "description"):
        if response_format.get(key) is not None:
            losses.add((*at, key), f"schema {key}", "Gemini output schemas have none", "setting")
    if response_format.get("strict") is False:
        losses.add((*at, "strict"), "strict=False", "Gemini always holds the answer to its schema", "setting")


def _encode_thinking(
    reasoning: Mapping[str, Any], config: dict[str, Any], bag: dict[str, Any], losses: LossRecorder
) -> dict[str, Any]:
    at = ("reasoning",)
    thinking = kept_object(config, "thinkingConfig", (*_OPTIONS, "generationConfig"), PROVIDER)
    budget = reasoning.get("budget_tokens")
    effort: str | None = reasoning.get("effort")
    if budget is not None:
        thinking["thinkingBudget"] = budget
    elif reasoning.get("adaptive") or (reasoning.get("enabled") and effort is None):
        thinking["thinkingBudget"] = -1
    elif reasoning.get("enabled") is False or effort == "none":
        thinking["thinkingBudget"] = 0
    _report_switches(reasoning, losses, at)
    if effort == "max":
        losses.add((*at, "effort"), "effort 'max'", "Gemini's highest thinking level is XHIGH", "setting")
        effort = "xhigh"
    if effort is not None and effort != "none":
        spelling = bag.get(LEVEL_SPELLING)
        thinking["thinkingLevel"] = (
            spelling if isinstance(spelling, str) and spelling.lower() == effort else effort.upper()
        )
    if reasoning.get("include_thoughts") is not None:
        thinking["includeThoughts"] = reasoning["include_thoughts"]
    elif thinking_on(reasoning) and not bag.get(NO_THOUGHTS):
        thinking["includeThoughts"] = True  # thinking on shows its thoughts (module docstring)
    if reasoning.get("summary") is not None:
        losses.add((*at, "summary"), "reasoning summary", "Gemini has includeThoughts only", "setting")
    return thinking


def _report_switches(reasoning: Mapping[str, Any], losses: LossRecorder, at: Steps) -> None:
    """Gemini has a budget and a level, no switches: what reads back differently."""
    if reasoning.get("enabled") is False:
        losses.add(
            (*at, "enabled"), "reasoning switch", "Gemini has none; thinkingBudget 0 turns thinking off", "setting"
        )
    if reasoning.get("adaptive") is False:
        losses.add((*at, "adaptive"), "adaptive=False", "Gemini has no such switch", "setting")
    if reasoning.get("effort") == "none":
        losses.add((*at, "effort"), "effort 'none'", "Gemini has no such level; sent as thinkingBudget 0", "setting")
