"""Anthropic Messages request <-> :class:`~chatcodec.ChatRequest`.

Top-level fields with a canonical meaning are mapped (``thinking`` and
``output_config.effort`` to ``reasoning``, ``output_config.format`` to
``response_format``, ``tool_choice.disable_parallel_tool_use`` to
``parallel_tool_calls=False``, server tools such as ``web_search_20250305`` to
``provider_tools``); everything else rides in ``provider_options["anthropic"]`` and is
written back verbatim. Knobs for this encoder also live there (or in the ``options``
of :func:`chatcodec.encode_request` / :func:`chatcodec.convert_request`):
``unsigned_thinking`` (``"drop"``, the default, or ``"text"``), and ``max_tokens`` and
``model``, used when the request has none. Anthropic requires both: a request with
neither the field nor the option for ``max_tokens`` gets :data:`DEFAULT_MAX_TOKENS` with
a reported loss, never a silent default; one without a ``model`` is sent without one
(no value is made up).

Prompt caching allows at most four breakpoints per request (the top-level
``cache_control`` takes one). The prefix is read in the order tools, system, messages,
and the last breakpoint caches the longest prefix, so the *last* four are kept and
earlier ones are dropped and reported.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from chatcodec._base import ProviderMetadata
from chatcodec.canonical_validation import validate_canonical, validate_with
from chatcodec.losses import LossRecorder
from chatcodec.messages import MESSAGES_ADAPTER as MESSAGES_LIST_ADAPTER
from chatcodec.messages import AnyMessage
from chatcodec.providers.anthropic.markers import DEFAULT_MAX_TOKENS, KIT, PROVIDER
from chatcodec.providers.anthropic.messages import (
    decode_messages,
    decode_system,
    encode_messages,
    encode_system,
    leading_system_count,
)
from chatcodec.providers.anthropic.parts import AnthropicContext
from chatcodec.providers.anthropic.rules import version_shown
from chatcodec.providers.anthropic.settings import decode_settings, encode_settings
from chatcodec.providers.anthropic.tool_ids import tool_id_rewrites
from chatcodec.providers.anthropic.tools import decode_tools, encode_tools
from chatcodec.providers.anthropic.wire import MESSAGES_ADAPTER, REQUEST_ADAPTER, validated
from chatcodec.providers.history import history_for
from chatcodec.providers.kit import decode_cache_control, encode_cache_control, restore_fields, split_fields
from chatcodec.providers.kit.claude import unsigned_thinking
from chatcodec.providers.kit.context import DecodeContext, EncodeContext
from chatcodec.providers.target_rules import API_VERSION, carries_nothing
from chatcodec.request import ChatRequest

MAX_BREAKPOINTS = 4
"""Anthropic's limit on ``cache_control`` markers in one request."""

_MAPPED = frozenset(
    {
        "model",
        "messages",
        "system",
        "max_tokens",
        "stop_sequences",
        "temperature",
        "top_p",
        "top_k",
        "metadata",
        "stream",
        "cache_control",
        "tools",
        "tool_choice",
        "thinking",
        "output_config",
    }
)
_SCALARS = ("model", "temperature", "top_p", "top_k", "metadata", "stream")
_KNOBS = frozenset({"unsigned_thinking", "max_tokens", "model"})


def decode_request(payload: dict[str, Any], context: DecodeContext) -> ChatRequest:
    """Read an Anthropic request body (the API's rules are not enforced: decoding is not the API)."""
    request = validated(REQUEST_ADAPTER, payload, "Anthropic request")
    canonical: dict[str, Any] = {key: request[key] for key in _SCALARS if request.get(key) is not None}
    bag = split_fields(request, _MAPPED)
    messages = decode_messages(request["messages"], context)
    if "system" in request:
        messages.insert(0, decode_system(request["system"]))
    canonical["messages"] = messages
    max_tokens = request.get("max_tokens")
    if max_tokens is not None and max_tokens >= 1:
        canonical["max_tokens"] = max_tokens
    elif max_tokens is not None:
        bag["max_tokens"] = max_tokens  # 0 pre-warms the cache; canonical needs >= 1
    if request.get("stop_sequences") is not None:
        canonical["stop"] = request["stop_sequences"]
        if not request["stop_sequences"]:
            bag["_empty_stop_sequences"] = True
    cache_control = request.get("cache_control")
    if cache_control is not None:
        marker = decode_cache_control(cache_control)
        if marker is None:
            bag["cache_control"] = cache_control
        else:
            canonical["cache_control"] = marker
    decode_tools(request, canonical, bag, context)
    decode_settings(request, canonical, bag, context)
    version = version_shown(dict(request))
    if version is not None:  # re-encoded for the version it was written for (``rules.py``)
        bag[API_VERSION] = version
    if bag:
        canonical["provider_options"] = {PROVIDER: bag}
    return validate_canonical(ChatRequest, canonical)


def decode_message_list(messages: list[dict[str, Any]], context: DecodeContext) -> list[AnyMessage]:
    """Read a bare Anthropic ``messages`` list (a stored conversation)."""
    wire = validate_with(MESSAGES_ADAPTER, messages, "Anthropic messages")
    return validate_with(MESSAGES_LIST_ADAPTER, decode_messages(wire, context), "Messages")


def encode_request(request: ChatRequest, shared: EncodeContext) -> dict[str, Any]:
    """Write ``request`` as an Anthropic request body, applying the API's rules."""
    losses = shared.losses
    request = history_for(
        request, losses, PROVIDER, "Anthropic", freeform_calls=False, results_follow_calls=True, developer_role=False
    )
    user, options = _openai_user(request)
    bag = KIT.claim(losses, options, ("provider_options",))
    for key in _KNOBS & bag.keys():  # options (read into the context), not fields to send
        del bag[key]
    context = shared.extend(
        AnthropicContext,
        unsigned_thinking=unsigned_thinking(shared),
        tool_names=cache(lambda: _names(request)),  # walked only if a result names its tool
    )
    wire = restore_fields(bag)
    _encode_required(request, wire, shared)
    encode_tools(request, wire, bag, context)
    leading = leading_system_count(request.messages)
    system = encode_system(request.messages[:leading], context)
    if system is not None:
        wire["system"] = system
    wire["messages"] = encode_messages(request.messages, leading, context)
    if request.stop or bag.get("_empty_stop_sequences"):
        wire["stop_sequences"] = list(request.stop)
    for key in ("temperature", "top_p", "top_k", "stream"):
        value = getattr(request, key)
        if value is not None:
            wire[key] = value
    _encode_metadata(request.metadata, user, wire, losses)
    for key in ("frequency_penalty", "presence_penalty", "seed"):
        if getattr(request, key) is not None and not carries_nothing(key, getattr(request, key)):
            losses.add((key,), key, "Anthropic has no such setting", "setting")
    encode_settings(request, wire, bag, context)
    if request.cache_control is not None:
        wire["cache_control"] = encode_cache_control(request.cache_control)
    _limit_breakpoints(context, reserved=1 if "cache_control" in wire else 0)
    return wire


def _encode_required(request: ChatRequest, wire: dict[str, Any], context: EncodeContext) -> None:
    """``model`` and ``max_tokens``: the request's, else the caller's option (from the
    context). Without ``max_tokens`` Anthropic rejects the request, so the default is sent
    and reported; a missing ``model`` is left out (nothing is made up, so nothing changed
    to report: the API names the field it wants)."""
    model = request.model if request.model is not None else context.option("model")
    if model is not None:
        wire["model"] = model
    max_tokens = request.max_tokens if request.max_tokens is not None else context.option("max_tokens")
    if max_tokens is None:
        why = f"Anthropic requires it; none was given, sent {DEFAULT_MAX_TOKENS} (set it, or the option 'max_tokens')"
        context.losses.add(("max_tokens",), "max_tokens", why, "default")
        max_tokens = DEFAULT_MAX_TOKENS
    wire["max_tokens"] = max_tokens


_OPENAI = ("openai-chat", "openai-responses")


def _openai_user(request: ChatRequest) -> tuple[str | None, ProviderMetadata | None]:
    """An OpenAI bag's ``user`` (the end-user id OpenAI's ``user`` field names, now
    ``safety_identifier``), for ``metadata.user_id``, and the options without it (issue 21
    item 5): Anthropic's ``metadata.user_id`` is the same id ("an external identifier for
    the user who is associated with the request", API reference, Messages)."""
    options = request.provider_options
    for provider in _OPENAI:
        bag = (options or {}).get(provider) or {}
        user = bag.get("user")
        if options is not None and isinstance(user, str) and user:
            rest = {key: value for key, value in bag.items() if key != "user"}
            others = {name: value for name, value in options.items() if name != provider}
            return user, {**others, provider: rest} if rest else others
    return None, options


def _encode_metadata(
    metadata: dict[str, Any] | None, user: str | None, wire: dict[str, Any], losses: LossRecorder
) -> None:
    """``metadata``, which takes only ``user_id`` (the SDK's ``MetadataParam``; any other
    key is a 400 "Extra inputs are not permitted"): other keys (OpenAI's free-form
    ``metadata``) are reported, not copied; an OpenAI ``user`` fills a missing ``user_id``."""
    kept: dict[str, Any] = {}
    for key, value in (metadata or {}).items():
        if key == "user_id" and (value is None or isinstance(value, str)):
            kept[key] = value
        else:
            losses.add(("metadata", key), f"metadata {key!r}", "Anthropic metadata takes only user_id", "metadata")
    if user is not None and kept.get("user_id") is None:
        kept["user_id"] = user
    if kept or metadata == {}:  # an empty one as it came
        wire["metadata"] = kept


def _names(request: ChatRequest) -> dict[str, str]:
    """Tool names by call id, to tell whether a result's name is implied by its call."""
    return {
        call.id: call.name for message in request.messages if message.role == "assistant" for call in message.tool_calls
    }


def _limit_breakpoints(context: AnthropicContext, reserved: int) -> None:
    room = max(MAX_BREAKPOINTS - reserved, 0)
    excess = len(context.breakpoints) - room
    for breakpoint in context.breakpoints[: max(excess, 0)]:
        del breakpoint.block["cache_control"]
        context.losses.add(
            (*breakpoint.at, "cache_control"),
            "cache breakpoint",
            f"Anthropic allows {MAX_BREAKPOINTS} per request; the last ones (longest cached prefix) were kept",
            "setting",
        )


def tool_id_map(request: ChatRequest) -> dict[str, str]:
    """``{original id: id sent to Anthropic}`` for every tool id the encoder rewrites.

    A proxy that forwards a request from a provider with ids Anthropic rejects
    (``functions.write:0``) can invert this map to restore ids in whatever it sends back;
    :func:`~chatcodec.providers.anthropic.tool_ids.restore_tool_use_id` does the same for
    one id without the request.
    """
    ids: list[str] = []
    for message in request.messages:
        for part in message.parts:
            if part.type == "tool_use":
                ids.append(part.id)
            elif part.type == "tool_result":
                ids.append(part.tool_use_id)
    return tool_id_rewrites(ids)
