"""Chat Completions request bodies, both ways, over canonical data: the one reader and the
one writer of this format.

Top-level fields without a canonical home (``n``, ``stream_options``,
``web_search_options``, ``store``, a compatible server's ``thinking`` or ``top_k`` of a shape
canonical cannot say, :mod:`.passed_through`...) stay in ``provider_options["openai-chat"]`` and
are sent back as they were,
to the server they came for; a body written for a named server (the option ``server``, or
a model id only it serves) holds only what that server takes (:mod:`.servers`).
``max_tokens`` and ``max_completion_tokens`` both mean the canonical ``max_tokens``; the
newer ``max_completion_tokens`` is written unless the payload used ``max_tokens`` (or the
caller sets the option ``max_tokens_key="max_tokens"``, for servers that know only that
one); another provider holds the limit in its own field, so the key is a pure spelling
there (``markers.py``). A sampling number spelled as an integer is written so again
(:mod:`~chatcodec._providers.kit.integer_spelling`). Custom tools (``type: custom``) are kept whole in
``provider_tools``.

The reader validates a body once: the closed schema of the common shapes
(:data:`~chatcodec._providers.openai_chat.common_shapes.COMMON_REQUEST`, one pass in Rust, no
pydantic loaded) and, when it refuses, the full wire shapes, whose errors name the wire
path and rule. Either validated copy is then read by the same functions, each taking the
plain shape first. What it returns is canonical data: what ``ChatRequest.model_dump()``
gives for the request, with no model built.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from chatcodec._providers.families.openai.tools_front import front_copy
from chatcodec._providers.openai_chat import settings, tools
from chatcodec._providers.openai_chat.capabilities import CAPABILITIES
from chatcodec._providers.openai_chat.common_shapes import (
    COMMON_MESSAGES,
    COMMON_REQUEST,
)
from chatcodec._providers.openai_chat.markers import KIT, PROVIDER
from chatcodec._providers.openai_chat.messages import decode_messages, encode_messages
from chatcodec._providers.openai_chat.passed_through import PASSED, write_top_k
from chatcodec._providers.openai_chat.request_fields import (
    ASK_FOR_USAGE,
    DEFAULTS,
    IDENTITY_KEYS,
    MAX_TOKENS_KEY,
    MAX_TOKENS_KEYS,
    NEUTRAL,
    SAME_NAME,
    SAME_NAME_TOO,
    SERVICE_TIERS,
    STREAM_OPTIONS,
    decoders_for,
)
from chatcodec._providers.openai_chat.wire import Request
from chatcodec._providers.openai_chat.wire_validators import fully_validated, messages_adapter, request_adapter
from chatcodec.codec_kit import (
    absent_keys,
    as_dict,
    history_for,
    holds_a_container,
    leftovers,
    respell_integers,
    wire_fields,
    write_logprob_settings,
    write_tier,
)

if TYPE_CHECKING:
    from chatcodec.contract import DecodeContext, EncodeContext, LossRecorder

JSON_FRONT = COMMON_REQUEST
"""The closed schema that parses a JSON body and validates it in one pass in Rust
(:meth:`~chatcodec._providers.contract.provider_codec.ProviderCodec.read_request_json`)."""


# --- decode --------------------------------------------------------------------------


def decode_request(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read a request body as canonical data; everything without a canonical field is kept."""
    # a conversion's reading looks the caller's tools up first: the front leaves tools it
    # took before unchecked (families/openai/tools_front.py; the decoder takes their reading)
    wire: dict[str, Any] | None
    wire, context.tools_recalled = front_copy(
        payload,
        context.reading,
        tools.FRONT_KEY,
        "function",
        front=COMMON_REQUEST,
    )
    if wire is None:  # a shape beyond the common ones, or an error: the full wire shapes say which
        validated: Request = fully_validated(request_adapter(), payload, "OpenAI Chat request")
        wire = dict(validated)
    else:
        context.closed = True
    data: dict[str, Any] = {"messages": decode_messages(wire["messages"], context)}
    if len(wire) == 1:
        return data
    bag: dict[str, Any] = {}
    mapped = ["messages"]
    for decoder in decoders_for(wire):
        mapped += decoder(wire, data, bag, context)
    unmapped = leftovers(wire, mapped)
    if unmapped:  # usually every field is mapped: the markers' bag as it is
        bag = {**unmapped, **bag}
    if bag:
        data["provider_options"] = {PROVIDER: bag}
        if context.closed and holds_a_container(bag):  # a JSON value kept in the bag sits deeper than it came
            context.closed = False
    return data


def decode_message_list(messages: list[dict[str, Any]], context: DecodeContext) -> list[dict[str, Any]]:
    """Read a bare ``messages`` list (a stored conversation) with this format's rules."""
    common = COMMON_MESSAGES.validate({"messages": messages})
    if common is not None:
        return decode_messages(common["messages"], context)
    wire = fully_validated(messages_adapter(), messages, "OpenAI Chat messages")
    return decode_messages([dict(message) for message in wire], context)


def _neutral_fields(bag: dict[str, Any]) -> dict[str, Any]:
    kept = as_dict(bag.get(DEFAULTS)) or {}
    return {key: value for key, value in kept.items() if key in NEUTRAL and value == NEUTRAL[key]}


# --- encode --------------------------------------------------------------------------

_KNOBS = (*SAME_NAME[1:], *SAME_NAME_TOO)
"""The settings written as they are, in the order they are written."""


def encode_request(request: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Write a body for canonical request data; what OpenAI cannot carry is recorded in
    ``context.losses``."""
    losses = context.losses
    from chatcodec._providers.openai_chat import servers  # the servers' records: what a direct path never asks

    server, named = servers.prepare(request, context)
    read: list[Any] = request.get("messages") or []
    messages = history_for(read, losses, PROVIDER, CAPABILITIES, reading=context.reading)
    options = request.get("provider_options")
    wire: dict[str, Any] = {}
    bag: dict[str, Any] = {}
    if options:
        KIT.report_foreign(losses, options, ("provider_options",))
        bag = KIT.own(options)
        wire = {**_neutral_fields(bag), **wire_fields(bag)}
        wire.pop("model", None)  # an option (read into the context), not a field to send back
    model = request.get("model")
    if model is None:
        model = context.option("model")
    if model is not None:
        wire["model"] = model
    # a direct path's reading (``chatcodec._direct``) carries the messages written from the
    # source's validated copy, in one pass that calls this folder's message functions
    direct: Callable[[EncodeContext], list[dict[str, Any]]] | None = getattr(context.reading, "direct_messages", None)
    wire["messages"] = encode_messages(messages, 0, context) if direct is None else direct(context)
    tools.encode_tools(request, wire, bag, context)
    encode_knobs(request, bag, context, wire)
    if bag:
        respell_integers(wire, bag)
    ask_for_usage(request, wire, bag)
    settings.encode_settings(request, wire, bag, context)
    if request.get("cache_control") is not None:
        why = "OpenAI caches prompts automatically; explicit breakpoints sit on content parts"
        losses.add(("cache_control",), "request-wide cache_control", why, "setting")
    servers.fit_written(wire, server, named, context)
    return wire


def ask_for_usage(request: Mapping[str, Any], wire: dict[str, Any], bag: dict[str, Any]) -> None:
    """A streaming request asks for its usage (:data:`ASK_FOR_USAGE`) unless it holds its own
    ``stream_options`` or its reading marked them absent (``bag``, the request's own)."""
    if request.get("stream") is True and STREAM_OPTIONS not in wire and STREAM_OPTIONS not in absent_keys(bag):
        wire[STREAM_OPTIONS] = dict(ASK_FOR_USAGE)


def encode_knobs(request: Mapping[str, Any], bag: dict[str, Any], context: EncodeContext, wire: dict[str, Any]) -> None:
    """The settings written as they are (:data:`_KNOBS`), the log probability settings, the
    token limit under the key chosen (the option ``max_tokens_key``, else the reader's marker in
    ``bag``, else ``max_completion_tokens``), ``stop``, ``metadata``, ``user``,
    ``safety_identifier``, ``prompt_cache_key``, ``service_tier`` and ``verbosity``; ``top_k``
    written where it was read from this format (:mod:`.passed_through`), else reported."""
    losses = context.losses
    write_as_they_are(request, wire)
    write_logprob_settings(request, wire)
    encode_limit(request, bag, context, wire)
    stop = request.get("stop")
    if stop:
        one_string = bag.get("_stop") == "string" and len(stop) == 1
        wire["stop"] = stop[0] if one_string else list(stop)
    if request.get("top_k") is not None and not write_top_k(request, bag.get(PASSED), wire):
        losses.add(("top_k",), "top_k", "OpenAI Chat has no top-k sampling", "setting")
    metadata = request.get("metadata")
    if metadata is not None:
        _encode_metadata(metadata, wire, losses)
    for key in IDENTITY_KEYS:
        if request.get(key) is not None:
            wire[key] = request[key]
    tier = request.get("service_tier")
    if tier is not None:
        written = write_tier(tier, SERVICE_TIERS, losses, "OpenAI Chat")
        if written is not None:
            wire["service_tier"] = written
    verbosity = request.get("verbosity")
    if verbosity is not None:
        wire["verbosity"] = verbosity


def write_as_they_are(request: Mapping[str, Any], wire: dict[str, Any]) -> None:
    """The settings written as they are (:data:`_KNOBS`), in that order: lifted out of
    :func:`encode_knobs` for a direct path's top level (``chatcodec._direct``), which calls it too."""
    for key in _KNOBS:
        value = request.get(key)
        if value is not None:
            wire[key] = value


def encode_limit(request: Mapping[str, Any], bag: dict[str, Any], context: EncodeContext, wire: dict[str, Any]) -> None:
    """The token limit, under the key chosen: the option ``max_tokens_key``, else the reader's
    marker in ``bag``, else ``max_completion_tokens``. Lifted out of :func:`encode_knobs` for a
    direct path's top level (``chatcodec._direct``), which calls it too."""
    max_tokens = request.get("max_tokens")
    if max_tokens is not None:
        spelled = context.option("max_tokens_key")
        if spelled is None:  # the reader's marker of the key the source used
            spelled = bag.get(MAX_TOKENS_KEY)
        wire[spelled if spelled in MAX_TOKENS_KEYS else "max_completion_tokens"] = max_tokens


def _encode_metadata(metadata: Mapping[str, Any], wire: dict[str, Any], losses: LossRecorder) -> None:
    kept = {key: value for key, value in metadata.items() if isinstance(value, str)}
    if len(kept) < len(metadata):
        for key in metadata:  # in the request's order
            if key not in kept:
                why = "OpenAI metadata values are strings"
                losses.add(("metadata", key), "metadata value that is not a string", why, "metadata")
    wire["metadata"] = kept
