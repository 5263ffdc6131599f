"""The top-level fields of a Chat Completions request, read into canonical data.

Each decoder maps some wire fields into the canonical dict (and markers into the
request's bag) and returns the keys it mapped; the reader
(:func:`~chatcodec._providers.openai_chat.request.decode_request`) runs :data:`DECODERS`
in order. What they write is what the canonical model dumps: a sampling number is a
float (:func:`~chatcodec._narrow.as_sampling_number`, the canonical ``SamplingNumber``
rule), and nothing holds its default.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chatcodec._providers.openai_chat import settings, tools
from chatcodec._providers.openai_chat.passed_through import KEYS as PASSED_KEYS
from chatcodec._providers.openai_chat.passed_through import read_passed_through
from chatcodec._providers.openai_chat.reasoning_object import read_reasoning_object
from chatcodec.codec_kit import (
    ABSENT_MARKER,
    as_count,
    as_sampling_number,
    mark_integers,
    read_logprob_settings,
    read_tier,
)
from chatcodec.contract import DecodeContext

SAME_NAME = ("model", "parallel_tool_calls", "temperature", "top_p", "frequency_penalty", "presence_penalty")
"""Fields with the same name and value in canonical (``model`` first)."""
SAME_NAME_TOO = ("seed", "stream")
SAMPLING = ("temperature", "top_p", "frequency_penalty", "presence_penalty")
"""The canonical ``SamplingNumber`` fields: a float in canonical data (``1`` reads as ``1.0``)."""
MAX_TOKENS_KEYS = ("max_completion_tokens", "max_tokens")
MAX_TOKENS_KEY = "_max_tokens_key"
"""Marker: the key of ``MAX_TOKENS_KEYS`` the source used, read back by the request writer
unless the ``max_tokens_key`` option chooses."""

Decoder = Callable[[dict[str, Any], dict[str, Any], dict[str, Any], DecodeContext], list[str]]
"""Maps some wire fields into the canonical dict (and markers into the bag); returns the keys mapped."""


def _decode_same_name(
    wire: dict[str, Any], data: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> list[str]:
    keys = [key for key in _SAME_KEYS if wire.get(key) is not None]  # present_keys, with no tuple packed per call
    if _SAMPLING_KEYS.isdisjoint(keys):  # an agent's request: a model, maybe a seed or a stream flag
        for key in keys:
            data[key] = wire[key]
        return keys
    sampled: list[str] = []  # the sampling keys present, in SAMPLING's order (SAME_NAME keeps it)
    for key in keys:  # a loop in this frame: a generator's frame is resumed a key
        value = wire[key]
        if key in _SAMPLING_KEYS:
            sampled.append(key)
            value = as_sampling_number(value)
        data[key] = value
    mark_integers(wire, sampled, bag)  # canonical holds a float: ``1`` would come back as ``1.0``
    return keys


_SAME_KEYS = (*SAME_NAME, *SAME_NAME_TOO)
_SAMPLING_KEYS = frozenset(SAMPLING)


def _decode_tools(wire: dict[str, Any], data: dict[str, Any], bag: dict[str, Any], context: DecodeContext) -> list[str]:
    tools.decode_tools(wire, data, bag, context)
    mapped = ["tool_choice"] if "tool_choice" in data else []
    return ["tools", *mapped] if "tools" in data or "provider_tools" in data else mapped


def _decode_max_tokens(
    wire: dict[str, Any], data: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> list[str]:
    for key in MAX_TOKENS_KEYS:
        value = wire.get(key)
        if (
            value is not None and as_count(value, minimum=1) is not None
        ):  # 0 or less is not a canonical limit: kept as it is
            data["max_tokens"] = value
            if key == "max_tokens":
                bag[MAX_TOKENS_KEY] = key
            return [key]
    return []


def _decode_stop(wire: dict[str, Any], data: dict[str, Any], bag: dict[str, Any], context: DecodeContext) -> list[str]:
    stop = wire.get("stop")
    if isinstance(stop, str):
        data["stop"] = [stop]
        bag["_stop"] = "string"
        return ["stop"]
    if not stop:
        return []  # null or []: kept as it is
    data["stop"] = stop
    return ["stop"]


def _decode_settings(
    wire: dict[str, Any], data: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> list[str]:
    if _SETTINGS_WIRE_KEYS.isdisjoint(wire):  # the usual request: neither is sent
        return []
    settings.decode_settings(wire, data, bag, context)
    return [key for canonical, key in _SETTINGS_KEYS if canonical in data]


_SETTINGS_KEYS = (("reasoning", "reasoning_effort"), ("response_format", "response_format"))
_SETTINGS_WIRE_KEYS = frozenset(key for _, key in _SETTINGS_KEYS)


def _decode_reasoning_object(
    wire: dict[str, Any], data: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> list[str]:
    """OpenRouter's ``reasoning`` object, after ``reasoning_effort`` (which wins: the object is
    then kept as it came): :mod:`~chatcodec._providers.openai_chat.reasoning_object`."""
    return read_reasoning_object(wire, data, bag, settings.EFFORTS)


NEUTRAL: dict[str, object] = {"n": 1, "store": False}
"""Fields whose value here is what every other provider does anyway (one answer, nothing
stored): kept as the pure-spelling marker ``_defaults``, so an
OpenAI round trip is exact and another provider drops them without a report (a value
equal to the target's default is not a loss: ``--strict`` once rejected 200 of 500
ordinary lines for ``n: 1`` alone)."""
DEFAULTS = "_defaults"
"""The marker :data:`NEUTRAL` fields are kept under."""


def _decode_defaults(
    wire: dict[str, Any], data: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> list[str]:
    if NEUTRAL.keys().isdisjoint(wire):  # the usual request: neither is sent
        return []
    found = {
        key: wire[key] for key, value in NEUTRAL.items() if type(wire.get(key)) is type(value) and wire[key] == value
    }
    if found:
        bag[DEFAULTS] = found
    return list(found)


def _decode_passed_through(
    wire: dict[str, Any], data: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> list[str]:
    """vLLM's ``top_k`` and litellm's ``thinking``, after the reasoning settings (a ``thinking``
    beside one is kept as it came): :mod:`~chatcodec._providers.openai_chat.passed_through`."""
    return read_passed_through(wire, data, bag)


def _decode_logprobs(
    wire: dict[str, Any], data: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> list[str]:
    """``logprobs`` and ``top_logprobs``, the canonical fields of the same names (a format
    with none reports them unless they ask for nothing: :mod:`~chatcodec._providers.kit.logprob_settings`)."""
    return read_logprob_settings(wire, data)


def _decode_metadata(
    wire: dict[str, Any], data: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> list[str]:
    metadata = wire.get("metadata")
    if metadata is None or not all(isinstance(value, str) for value in metadata.values()):
        return []
    data["metadata"] = metadata
    return ["metadata"]


IDENTITY_KEYS = ("user", "safety_identifier", "prompt_cache_key")
"""The texts of the same names in canonical, read and written in this order."""

SERVICE_TIERS = {tier: tier for tier in ("auto", "default", "flex", "scale", "priority", "fast")}
"""Chat Completions' tiers (openai 3.54 ``CompletionCreateParams.service_tier``), canonical's
words (:mod:`chatcodec._providers.kit.service_tier`)."""


def _decode_identity(
    wire: dict[str, Any], data: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> list[str]:
    """``user`` (the end user's id), OpenAI's ``safety_identifier`` and ``prompt_cache_key`` (texts,
    canonical fields of the same names: Responses has both) and a ``service_tier`` this format has."""
    mapped: list[str] = []
    for key in IDENTITY_KEYS:
        value = wire.get(key)
        if value.__class__ is str:
            data[key] = value
            mapped.append(key)
    tier = wire.get("service_tier")
    if tier is not None:  # most requests name none: no call
        tier = read_tier(tier, SERVICE_TIERS)
    if tier is not None:
        data["service_tier"] = tier
        mapped.append("service_tier")
    return mapped


VERBOSITY = ("low", "medium", "high")
"""The canonical :data:`~chatcodec._model.request.Verbosity` words (openai 3.54
``CompletionCreateParams.verbosity``), spelled out so the decoder loads no model (a test checks
they are the type's)."""


def _decode_verbosity(
    wire: dict[str, Any], data: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> list[str]:
    """``verbosity``, the canonical field of the same name (Responses holds it as
    ``text.verbosity``); another word stays in the request's leftovers, sent back as it came."""
    verbosity = wire.get("verbosity")
    if verbosity.__class__ is str and verbosity in VERBOSITY:
        data["verbosity"] = verbosity
        return ["verbosity"]
    return []


STREAM_OPTIONS = "stream_options"
ASK_FOR_USAGE = {"include_usage": True}
"""What a streaming request gets by default: OpenAI Chat sends a stream's usage only when
asked (``stream_options.include_usage``: "an additional chunk will be streamed before the
data: [DONE] message ... the usage field on this chunk shows the token usage statistics
for the entire request", API reference), while Anthropic, Gemini, Bedrock and Responses
streams always carry it, so a client of theirs whose request is converted expects it. A
streaming request asking exactly this is not kept (the writer's default, no loss
elsewhere); one without ``stream_options`` is marked ``_absent`` and written back without."""


def _decode_stream_options(
    wire: dict[str, Any], data: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> list[str]:
    if wire.get("stream") is not True:
        return []
    if STREAM_OPTIONS not in wire:
        bag[ABSENT_MARKER] = [STREAM_OPTIONS]
        return []
    options = wire[STREAM_OPTIONS]
    return [STREAM_OPTIONS] if options == ASK_FOR_USAGE and type(options["include_usage"]) is bool else []


DECODERS: tuple[tuple[frozenset[str], Decoder], ...] = (
    (frozenset(_SAME_KEYS), _decode_same_name),
    (frozenset({"tools", "tool_choice"}), _decode_tools),
    (frozenset(MAX_TOKENS_KEYS), _decode_max_tokens),
    (frozenset({"stop"}), _decode_stop),
    (_SETTINGS_WIRE_KEYS, _decode_settings),
    (frozenset({"reasoning"}), _decode_reasoning_object),
    (frozenset(PASSED_KEYS), _decode_passed_through),
    (frozenset({"logprobs", "top_logprobs"}), _decode_logprobs),
    (frozenset({"metadata"}), _decode_metadata),
    (frozenset({*IDENTITY_KEYS, "service_tier"}), _decode_identity),
    (frozenset({"verbosity"}), _decode_verbosity),
    (frozenset(NEUTRAL), _decode_defaults),
    (frozenset({"stream", STREAM_OPTIONS}), _decode_stream_options),
)
"""Each decoder beside the wire keys it reads, in order: a body holding none of them maps
nothing and marks nothing there, so the reader passes it by (an agent's request sets a
model, messages, tools and a limit, so most decoders are never called): :func:`decoders_for`."""

_PLANNED_KEYS = frozenset({"messages"}).union(*(reads for reads, _ in DECODERS))
_PLANS: dict[tuple[str, ...], tuple[Decoder, ...]] = {}
"""The decoders a body runs, in order, by its keys in their order: a dataset or a gateway's
clients send a handful of bodies' shapes, so each is worked out once, not per request (a
tuple of the keys is made and matched for a third of what a set of them costs)."""
_MAX_PLANS = 256
"""Bodies of ever other keys do not grow it past this."""


def decoders_for(wire: dict[str, Any]) -> tuple[Decoder, ...]:
    """The :data:`DECODERS` that map something of ``wire`` (those reading a key it holds), in
    order: a look-up by its keys, for keys seen before. Remembered only of a body whose keys
    are all fields the decoders read (and ``messages``): no caller text is kept."""
    keys = tuple(wire)
    plan = _PLANS.get(keys)
    if plan is None:
        plan = tuple(decoder for reads, decoder in DECODERS if not reads.isdisjoint(keys))
        if not _PLANNED_KEYS.issuperset(keys):
            return plan
        if len(_PLANS) >= _MAX_PLANS:
            _PLANS.clear()
        _PLANS[keys] = plan
    return plan
