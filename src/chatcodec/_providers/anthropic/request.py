"""Anthropic Messages request <-> canonical request data: the one reader and the one writer.

Top-level fields with a canonical meaning are mapped (``thinking`` and
``output_config.effort`` to ``reasoning``, ``output_config.format`` to
``response_format``, ``tool_choice.disable_parallel_tool_use`` to
``parallel_tool_calls=False``, server tools such as ``web_search_20250305`` to
``provider_tools``, ``metadata.user_id`` to ``user``, ``service_tier`` ``auto`` and
``standard_only`` to the canonical ``auto`` and ``default``); everything else rides in
``provider_options["anthropic"]`` and is written back verbatim. This encoder's options
(:data:`~.markers.OPTIONS`, read from the encode context by public name):
``unsigned_thinking`` (``"drop"``, the default, or ``"text"``); ``server``, the
Anthropic-compatible server the body is written for (only what it documents is sent,
:mod:`.servers`); and ``max_tokens`` and ``model``, used when the request has none.
Anthropic requires both: a request with
neither the field nor the option for ``max_tokens`` gets the model's output limit
(:data:`~.markers.DEFAULT_MAX_TOKENS` for a model the table does not name) with a
reported ``default`` loss, never a silent default; one
without a ``model`` is sent without one (no value is made up).

Reading validates a body with the closed schema of the common shapes first
(:data:`~.wire.COMMON_REQUEST`, one pass in Rust, no pydantic loaded), and with the wire
``TypedDict`` shapes when it refuses (their errors name the wire path and the rule); either
validated copy is read by the same functions into canonical data, as
``ChatRequest.model_dump()`` gives it (tags written, no ``None``), and taken over. No
model is built: :meth:`~chatcodec._providers.contract.provider_codec.ProviderCodec.decode_request`
builds one where the public API returns it.

Prompt caching allows at most four breakpoints per request (the top-level
``cache_control`` takes one). The prefix is read in the order tools, system, messages,
and the last breakpoint caches the longest prefix, so the *last* four are kept and
earlier ones are dropped and reported.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, cast

from chatcodec._providers.anthropic.capabilities import CAPABILITIES
from chatcodec._providers.anthropic.encode_context import AnthropicContext
from chatcodec._providers.anthropic.markers import API_VERSION, DEFAULT_MAX_TOKENS, KIT, PROVIDER
from chatcodec._providers.anthropic.messages import (
    decode_messages,
    decode_system,
    encode_messages,
    encode_system,
    leading_system_count,
)
from chatcodec._providers.anthropic.rules import version_shown
from chatcodec._providers.anthropic.settings import budget_wanted, decode_settings, encode_settings
from chatcodec._providers.anthropic.tool_ids import tool_id_rewrites
from chatcodec._providers.anthropic.tools import decode_tools, encode_tools
from chatcodec._providers.anthropic.wire import (
    COMMON_REQUEST,
    DEEPEST,
    Message,
    Request,
    refuse_too_deep,
    validated,
    validated_object,
)
from chatcodec._providers.families.claude.model_limits import filled_max_tokens, output_limit
from chatcodec._providers.families.claude.wire_rules import unsigned_thinking
from chatcodec.codec_kit import (
    as_sampling_number,
    decode_cache_control,
    encode_cache_control,
    history_for,
    is_neutral_setting,
    mark_integers,
    read_tier,
    respell_integers,
    restore_fields,
    split_fields,
    write_tier,
)
from chatcodec.contract import DecodeContext, EncodeContext, LossRecorder

if TYPE_CHECKING:
    from chatcodec import ChatRequest

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
_SCALARS = ("model", "top_k", "stream")
SERVICE_TIERS = {"auto": "auto", "standard_only": "default"}
"""Anthropic's tiers (anthropic 2.12 ``MessageCreateParams.service_tier``: ``standard_only``
is standard capacity only, OpenAI's ``default``), canonical's words
(:mod:`chatcodec._providers.kit.service_tier`)."""
_SAMPLING = ("temperature", "top_p")
_SAMPLED = frozenset(_SAMPLING)
_KNOBS = frozenset({"unsigned_thinking", "max_tokens", "model"})
_SENT_AS_THEY_ARE_IN_ORDER = ("temperature", "top_p", "top_k", "stream")
"""Canonical settings written under their own name, in the order written."""
_SENT_AS_THEY_ARE = frozenset(_SENT_AS_THEY_ARE_IN_ORDER)
_IDENTITY = frozenset({"metadata", "user", "service_tier"})
"""The canonical fields :func:`_encode_metadata` and the tier read: a request holding none writes neither."""
_UNSENT_IN_ORDER = (
    "frequency_penalty",
    "presence_penalty",
    "seed",
    "verbosity",
    "prompt_cache_key",
    "safety_identifier",
)
"""Canonical settings Anthropic has no field for, reported unless neutral, in the order reported."""
_UNSENT = frozenset(_UNSENT_IN_ORDER)
KNOB_SETTINGS = _SENT_AS_THEY_ARE | _IDENTITY | _UNSENT
"""The canonical settings :func:`encode_knobs` writes or reports (a request holding none is passed by)."""


JSON_FRONT = COMMON_REQUEST
"""The closed schema that parses a JSON body and validates it in one pass in Rust
(:meth:`~chatcodec._providers.contract.provider_codec.ProviderCodec.read_request_json`)."""


# --- reading -----------------------------------------------------------------------------


def decode_request(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read an Anthropic request body into canonical request data (the API's rules are
    not enforced: decoding is not the API)."""
    request = COMMON_REQUEST.validate(payload)
    common = context.closed = request is not None
    if request is None:
        request = validated_object(Request, payload, "Anthropic request")
    canonical: dict[str, Any] = {}
    bag = split_fields(request, _MAPPED)
    decode_knobs(request, canonical, bag)
    messages = decode_messages(request["messages"], context)
    if "system" in request:
        messages.insert(0, decode_system(request["system"]))
    canonical["messages"] = messages
    decode_limits(request, canonical, bag)
    decode_identity(request, canonical, bag)
    decode_tools(request, canonical, bag, context)
    decode_settings(request, canonical, bag, context)
    mark_version(request, bag, turns=not common)
    if bag:
        canonical["provider_options"] = {PROVIDER: bag}
    # the closed schema refuses a value nested past its limit anywhere but in the fields
    # kept whole in the request's bag, two levels deeper in canonical data
    refuse_too_deep(bag if common else canonical, payload, limit=DEEPEST - 2 if common else DEEPEST)
    return canonical


def decode_knobs(request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any]) -> None:
    """The fields of the same name in canonical (``model``, ``top_k``, ``stream``) and the
    sampling numbers as canonical holds them (a float, an integer marked in ``bag``): also
    the rule of a direct path's top level (``chatcodec._direct``), which calls it."""
    for key in _SCALARS:
        value = request.get(key)
        if value is not None:
            canonical[key] = value
    if _SAMPLED.isdisjoint(request):  # an agent's request usually sets none
        return
    for key in _SAMPLING:
        if request.get(key) is not None:
            canonical[key] = as_sampling_number(request[key])  # as canonical holds it
    mark_integers(request, _SAMPLING, bag)  # canonical holds a float: ``1`` would come back as ``1.0``


def mark_version(request: dict[str, Any], bag: dict[str, Any], *, turns: bool) -> None:
    """The API version ``request`` was written for, marked in ``bag`` for the body to be
    re-encoded for it (``rules.py``); ``turns=False`` for a body of the common shapes, which
    hold no block only the older version takes."""
    version = version_shown(request, turns=turns)
    if version is not None:
        bag[API_VERSION] = version


def decode_limits(request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any]) -> None:
    """``max_tokens``, ``stop_sequences`` and the request-wide cache marker."""
    max_tokens = request.get("max_tokens")
    if max_tokens is not None and max_tokens >= 1:
        canonical["max_tokens"] = max_tokens
    elif max_tokens is not None:
        bag["max_tokens"] = max_tokens  # 0 pre-warms the cache; canonical needs >= 1
    stop = request.get("stop_sequences")
    if stop:
        canonical["stop"] = stop
    elif stop is not None:
        bag["_empty_stop_sequences"] = True
    cache_control = request.get("cache_control")
    if cache_control is not None:
        marker = decode_cache_control(cache_control)
        if marker is None:
            bag["cache_control"] = cache_control
        else:
            canonical["cache_control"] = marker


def decode_identity(request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any]) -> None:
    """``metadata.user_id`` as the canonical ``user`` (a ``metadata`` holding anything else
    is canonical ``metadata`` as it came), and a ``service_tier`` Anthropic has."""
    metadata = request.get("metadata")
    if metadata is not None:
        user = metadata.get("user_id")
        if len(metadata) == 1 and isinstance(user, str):
            canonical["user"] = user
        else:
            canonical["metadata"] = metadata
    tier = read_tier(request.get("service_tier"), SERVICE_TIERS)
    if tier is not None:
        canonical["service_tier"] = tier
        bag.pop("service_tier", None)


def decode_message_list(messages: list[dict[str, Any]], context: DecodeContext) -> list[dict[str, Any]]:
    """Read a bare Anthropic ``messages`` list (a stored conversation) into canonical
    message data."""
    canonical = decode_messages(validated(list[Message], messages, "Anthropic messages"), context)
    refuse_too_deep(canonical, messages)
    return canonical


# --- writing -----------------------------------------------------------------------------


CONTEXT = AnthropicContext
"""The context :func:`encode_request` writes with, which the codec makes at once for it
(:meth:`~chatcodec._providers.contract.provider_codec.ProviderCodec.write_request`), so no
second one is made from the shared fields."""


def _take_options(bag: dict[str, Any], shared: EncodeContext) -> None:
    """Leave out of ``bag`` the options it sets (read into the context), not fields to send;
    read back this reader's :data:`~.markers.API_VERSION` marker as the ``api_version``
    option when none is given."""
    for key in _KNOBS & bag.keys():
        del bag[key]
    if API_VERSION in bag and "api_version" not in shared.options:
        shared.options = MappingProxyType({**shared.options, "api_version": bag[API_VERSION]})


def encode_request(request: Mapping[str, Any], shared: EncodeContext) -> dict[str, Any]:
    """Write canonical request data as an Anthropic request body, applying the API's rules."""
    losses = shared.losses
    read: list[Any] | None = request.get("messages")  # the list read itself, so its reading's survey counts
    messages = history_for([] if read is None else read, losses, PROVIDER, CAPABILITIES, reading=shared.reading)
    options = request.get("provider_options")
    bag = KIT.claim(losses, options, ("provider_options",)) if options else {}
    if bag:
        _take_options(bag, shared)
    shared.holds = set()  # what the target rules look for, noted as written (``AnthropicContext.holding``)
    context = shared if type(shared) is AnthropicContext else shared.extend(AnthropicContext)  # the codec's: CONTEXT
    if shared.options:  # none given: the context's default
        context.unsigned_thinking = unsigned_thinking(shared)
    context.tool_names = _ToolNames(messages)  # walked once, if a result names its tool
    wire = restore_fields(bag) if bag else {}
    encode_required(request, wire, shared)
    encode_tools(request, wire, bag, context)
    system, turns = _turns(messages, shared, context)
    if system is not None:
        wire["system"] = system
    wire["messages"] = turns
    encode_stop(request, wire, bag)
    encode_knobs(request, wire, bag, losses)
    encode_settings(request, wire, bag, context)
    cache_control = request.get("cache_control")
    if cache_control is not None:
        wire["cache_control"] = encode_cache_control(cache_control)
    if context.breakpoints:
        limit_breakpoints(context, reserved=1 if "cache_control" in wire else 0)
    from chatcodec._providers.anthropic import servers  # the servers' records: what a direct path never asks

    servers.fit_written(wire, shared)
    return wire


def encode_stop(request: Mapping[str, Any], wire: dict[str, Any], bag: dict[str, Any]) -> None:
    """``stop_sequences``: the canonical ``stop``, or an empty list that came as one (a marker of this bag)."""
    stop = request.get("stop")
    if stop or bag.get("_empty_stop_sequences"):
        wire["stop_sequences"] = list(stop or ())


def encode_knobs(request: Mapping[str, Any], wire: dict[str, Any], bag: dict[str, Any], losses: LossRecorder) -> None:
    """The sampling settings and the stream flag, the user and tier, and the settings Anthropic
    has no field for (reported); each group looked for with one look in C, as most requests
    set none of them."""
    if not _SENT_AS_THEY_ARE.isdisjoint(request):
        for key in _SENT_AS_THEY_ARE_IN_ORDER:
            value = request.get(key)
            if value is not None:
                wire[key] = value
    if bag:
        respell_integers(wire, bag)
    if not _IDENTITY.isdisjoint(request):
        _encode_metadata(request.get("metadata"), request.get("user"), wire, losses)
        tier = request.get("service_tier")
        if tier is not None:
            written = write_tier(tier, SERVICE_TIERS, losses, "Anthropic")
            if written is not None:
                wire["service_tier"] = written
    if not _UNSENT.isdisjoint(request):
        for key in _UNSENT_IN_ORDER:
            value = request.get(key)
            if value is not None and not is_neutral_setting(key, value):
                losses.add((key,), key, "Anthropic has no such setting", "setting")


def _turns(
    messages: list[Any], shared: EncodeContext, context: AnthropicContext
) -> tuple[str | list[dict[str, Any]] | None, list[dict[str, Any]]]:
    """The top-level ``system`` (None: none) and the ``messages``; a direct path's reading
    (``chatcodec._direct``) carries them written from the source's validated copy, in one
    pass that calls this folder's part functions (the request it hands has no messages)."""
    direct: Callable[[AnthropicContext], tuple[str | list[dict[str, Any]] | None, list[dict[str, Any]]]] | None = (
        getattr(shared.reading, "direct_turns", None)
    )
    if direct is not None:
        return direct(context)
    leading = leading_system_count(messages)
    return encode_system(messages[:leading], context), encode_messages(messages, leading, context)


def encode_required(request: Mapping[str, Any], wire: dict[str, Any], context: EncodeContext) -> None:
    """``model`` and ``max_tokens``: the request's, else the caller's option (from the
    context). Without ``max_tokens`` Anthropic rejects the request, so the model's own
    output limit is sent (:mod:`~chatcodec._providers.families.claude.model_limits`: what a
    client of a format where it is optional asked for; 4096 for a model not in the table),
    a ``default`` loss, never one that refuses; a missing ``model`` is left out (nothing is made up, so nothing changed
    to report: the API names the field it wants)."""
    model = request.get("model")
    if model is None:
        model = context.option("model")
    if model is not None:
        wire["model"] = model
    max_tokens = request.get("max_tokens")
    if max_tokens is None:
        max_tokens = context.option("max_tokens")
    if max_tokens is None:
        max_tokens = _filled_max_tokens(request, model if isinstance(model, str) else None, context)
    wire["max_tokens"] = max_tokens


def _filled_max_tokens(request: Mapping[str, Any], model: str | None, context: EncodeContext) -> int:
    """The ``max_tokens`` sent when the client gave none, reported as a ``default`` loss:
    the model's output limit (at most the SDKs' non-streaming limit when the request does
    not stream), 4096 for a model not in the table; either raised above a thinking budget
    (the budget plus 4096 for the answer, within the model's limit), as Claude takes
    ``budget_tokens`` only below ``max_tokens``."""
    streaming = request.get("stream") is True
    filled = filled_max_tokens(model, streaming=streaming) or DEFAULT_MAX_TOKENS
    said = ""  # no output limit is known for the model: chatcodec's default, as ever
    if filled != DEFAULT_MAX_TOKENS or output_limit(model) is not None:
        said = (
            "the model's output limit; " if filled == output_limit(model) else "the SDKs' largest without streaming; "
        )
    budget = budget_wanted(request, context)
    if budget is not None and budget >= filled:
        limit = output_limit(model)
        filled = budget + DEFAULT_MAX_TOKENS if limit is None else min(budget + DEFAULT_MAX_TOKENS, limit)
        said = "room for the thinking budget and an answer; "
    why = f"Anthropic requires it; none was given, sent {filled} ({said}set it, or the option 'max_tokens')"
    context.losses.add(("max_tokens",), "max_tokens", why, "default")
    return filled


def _encode_metadata(
    metadata: Mapping[str, Any] | None, user: str | None, wire: dict[str, Any], losses: LossRecorder
) -> None:
    """``metadata``, which takes only ``user_id`` (the SDK's ``MetadataParam``; any other
    key is a 400 "Extra inputs are not permitted"): other keys (OpenAI's free-form
    ``metadata``) are reported, not copied; the canonical ``user`` fills a missing ``user_id``:
    Anthropic's ``metadata.user_id`` is the end user's id ("an external identifier for the
    user who is associated with the request", API reference, Messages)."""
    if metadata is None:  # a client's user alone (the usual case): nothing to compare it with
        if user is not None:
            wire["metadata"] = {"user_id": user}
        return
    kept: dict[str, Any] = {}
    for key, value in metadata.items():
        if key == "user_id" and (value is None or isinstance(value, str)):
            kept[key] = value
        else:
            losses.add(("metadata", key), f"metadata {key!r}", "Anthropic metadata takes only user_id", "metadata")
    if user is not None:
        _user_over_metadata(metadata, kept.get("user_id"), user, losses)
        kept["user_id"] = user
    if kept or metadata == {}:  # an empty one as it came
        wire["metadata"] = kept


def _user_over_metadata(
    metadata: Mapping[str, Any] | None, user_id: str | None, user: str, losses: LossRecorder
) -> None:
    """The request's ``user`` is the ``user_id`` sent: a different ``metadata.user_id`` is
    not sent, and an empty ``metadata`` reads back as the user alone; both reported."""
    if user_id is not None and user_id != user:
        why = "the request's user is Anthropic's user_id; this one is not sent"
        losses.add(("metadata", "user_id"), "metadata 'user_id'", why, "metadata")
    elif metadata == {}:
        why = "Anthropic's metadata holds the request's user, so it reads back as the user alone"
        losses.add(("metadata",), "empty metadata", why, "metadata")


class _ToolNames:
    """Tool names by call id, walked on the first call and remembered: a ``functools.cache``
    of a ``partial`` made per request cost more than most requests' reading of them."""

    __slots__ = ("messages", "names")

    def __init__(self, messages: list[Mapping[str, Any]]) -> None:
        self.messages = messages
        self.names: dict[str, str] | None = None

    def __call__(self) -> dict[str, str]:
        if self.names is None:
            self.names = _names(self.messages)
        return self.names


def _names(messages: list[Mapping[str, Any]]) -> dict[str, str]:
    """Tool names by call id, to tell whether a result's name is implied by its call (the
    last call of an id wins); asked for once, by the first result that names its tool."""
    names: dict[str, str] = {}
    for message in messages:
        content = message.get("content")
        if message["role"] == "assistant" and isinstance(content, list):
            parts = cast("list[Mapping[str, Any]]", content)
            names.update((part["id"], part["name"]) for part in parts if part["type"] == "tool_use")
    return names


def limit_breakpoints(context: AnthropicContext, reserved: int) -> None:
    """Keep the last cache breakpoints written that Anthropic takes (``reserved``: those the
    top level holds), each earlier one taken off and reported."""
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


def tool_id_map(request: ChatRequest | Mapping[str, Any]) -> dict[str, str]:
    """``{original id: id sent to Anthropic}`` for every tool id the encoder rewrites, for
    a request (canonical data, or a :class:`~chatcodec.ChatRequest`).

    A proxy that forwards a request from a provider with ids Anthropic rejects
    (``functions.write:0``) can invert this map to restore ids in whatever it sends back;
    :func:`~chatcodec._providers.anthropic.tool_ids.restore_tool_use_id` does the same for
    one id without the request.
    """
    data = request if isinstance(request, Mapping) else request.model_dump()
    ids: list[str] = []
    for message in data.get("messages") or ():
        content = message.get("content")
        for part in cast("list[Mapping[str, Any]]", content) if isinstance(content, list) else ():
            if part["type"] == "tool_use":
                ids.append(part["id"])
            elif part["type"] == "tool_result":
                ids.append(part["tool_use_id"])
    return tool_id_rewrites(ids)
