"""Responses request body <-> canonical request data: the one reader and the one writer.

``instructions`` is a leading system message (marked, so it goes back to
``instructions``, not into ``input``); ``input`` as one string is one user message
(marked), as a list it is items (:mod:`.messages`); ``max_output_tokens`` is
``max_tokens``; ``reasoning``, ``text.format`` and ``text.verbosity`` are the canonical settings;
``user``, ``safety_identifier``, ``prompt_cache_key``, a ``service_tier`` Responses has,
``top_logprobs`` and the ``include`` entry ``message.output_text.logprobs`` (``logprobs``) are
the canonical ones; every other top-level field (``previous_response_id``, ``store``,
``include``, ``truncation`` ...) rides in
``provider_options["openai-responses"]`` and is written back verbatim.

The reader validates the body with the wire's front schema (:mod:`.wire`, one pass in
Rust, no pydantic) and reads it into canonical data equal to what
:class:`~chatcodec.ChatRequest` dumps (no model is built: the codec builds one where the
public API returns it). The writer takes canonical data as a model dumps it or a reader
gives it (a key holding its default may be absent).

A system message from another provider goes into ``input`` with its role (exact: the
same instructions in the same place), never into ``instructions``, which does not carry
over with ``previous_response_id``.

The API's rule on encode: a stateless request (``store: false``, or items from another
store) that replays reasoning must ask for ``include: ["reasoning.encrypted_content"]``
to keep getting it back, or the next turn's reasoning cannot be replayed. A request built
in canonical (a :class:`~chatcodec.Conversation` of Responses turns) that replays this
provider's encrypted reasoning gets that ``include`` entry added; a request read from
the wire keeps what it said.

With ``store: false`` nothing is kept server-side, so a reasoning item replayed by its
``id`` alone (no ``encrypted_content``) is a 404 "Item with id 'rs_...' not found. Items
are not persisted when `store` is set to false"
(https://platform.openai.com/docs/guides/reasoning#keeping-reasoning-items-in-context):
such an item is left out and reported.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from chatcodec._providers.families.openai.tools_front import front_copy
from chatcodec._providers.openai_responses.capabilities import CAPABILITIES
from chatcodec._providers.openai_responses.carried_reasoning import SealedCalls
from chatcodec._providers.openai_responses.markers import INPUT_STRING, INSTRUCTIONS, KIT, PROVIDER
from chatcodec._providers.openai_responses.messages import decode_messages, encode_messages
from chatcodec._providers.openai_responses.rules import note_call_ids
from chatcodec._providers.openai_responses.settings import decode_settings, encode_settings
from chatcodec._providers.openai_responses.tools import FRONT_KEY, decode_tools, encode_tools
from chatcodec._providers.openai_responses.wire import ITEMS, REQUEST, REQUEST_FRONT, adapted
from chatcodec.codec_kit import (
    as_list,
    as_sampling_number,
    deeper_than,
    history_for,
    holds_empty_content,
    is_neutral_setting,
    mark_integers,
    read_tier,
    respell_integers,
    restore_fields,
    split_fields,
    write_tier,
)
from chatcodec.contract import DecodeContext, EncodeContext, LossRecorder

ENCRYPTED_REASONING = "reasoning.encrypted_content"
"""The ``include`` entry that makes the API return reasoning's ``encrypted_content``."""

MAPPED_FIELDS = frozenset(
    {
        "model",
        "input",
        "instructions",
        "tools",
        "tool_choice",
        "parallel_tool_calls",
        "max_output_tokens",
        "temperature",
        "top_p",
        "metadata",
        "stream",
        "reasoning",
        "text",
    }
)
"""The request fields read into canonical ones; the rest rides in the bag."""

_AS_THEY_ARE = ("model", "metadata", "stream")
_SAMPLING = ("temperature", "top_p")
UNSENT_SETTINGS = ("top_k", "frequency_penalty", "presence_penalty", "seed", "cache_control")
"""Canonical request settings Responses has no field for."""
_UNSENT = frozenset({*UNSENT_SETTINGS, "stop"})
_KEYS = ("safety_identifier", "prompt_cache_key")
"""The texts of the same names in canonical (OpenAI Chat has both), read and written as they are."""
IDENTITY_SETTINGS = frozenset({"metadata", "user", *_KEYS, "service_tier", *_UNSENT})
"""The canonical settings :func:`encode_identity` writes or reports (a request holding none is passed by)."""

_NO_INCLUDE = "_no_include"
_NO_INPUT = "_no_input"

Message = Mapping[str, Any]

JSON_FRONT = REQUEST_FRONT
"""The closed schema that parses a JSON body and validates it in one pass in Rust
(:meth:`~chatcodec._providers.contract.provider_codec.ProviderCodec.read_request_json`)."""

# --- the reader --------------------------------------------------------------------------


def decode_request(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read a Responses request body (the API's rules are not enforced: decoding is not the API)."""
    request, context.tools_recalled = front_copy(
        payload, context.reading, FRONT_KEY, None, front=REQUEST_FRONT
    )  # tools this front took before left unchecked (their reading recalled)
    learnt = SealedCalls()
    if request is None:  # the adapter says why, or takes a value canonical cannot hold
        canonical = _held(_read(adapted(REQUEST, payload, "OpenAI Responses request"), context, learnt))
    else:
        canonical = _read(request, context, learnt)
        context.closed = not learnt.deep  # a bag's value sits deeper than it came (kit.keeps_a_container)
    context.cited = learnt.cited  # url citations read (a conversion's writer need not look for them)
    if context.reading is not None and not learnt.ruled:  # nothing the history rules act on, learnt in the pass
        context.reading.plain_history = canonical["messages"]
    return canonical


def _read(request: dict[str, Any], context: DecodeContext, learnt: SealedCalls) -> dict[str, Any]:
    """The canonical request data for a validated body (``learnt``: what the reading
    learns as it goes, :class:`.SealedCalls`)."""
    canonical: dict[str, Any] = {key: request[key] for key in _AS_THEY_ARE if request.get(key) is not None}
    bag = split_fields(request, MAPPED_FIELDS)
    for key in _SAMPLING:
        value = request.get(key)
        if value is not None:
            canonical[key] = as_sampling_number(value)
    mark_integers(request, _SAMPLING, bag)  # canonical holds a float: ``1`` would come back as ``1.0``
    canonical["messages"] = _decode_input(request, bag, context, learnt)
    max_tokens = request.get("max_output_tokens")
    if max_tokens is not None and max_tokens >= 1:
        canonical["max_tokens"] = max_tokens
    elif max_tokens is not None:
        bag["max_output_tokens"] = max_tokens
    decode_tools(request, canonical, bag, context)
    for tool in canonical.get("tools", ()):  # a tool's bag sits deeper than its fields came
        learnt.learn_bags(tool.get("provider_metadata"))
    for tool in canonical.get("provider_tools", ()):  # a built-in tool, kept whole a level deeper
        if not learnt.deep and deeper_than(tool["data"], _SHALLOW):
            learnt.deep = True
    decode_settings(request, canonical, bag, context)
    _read_identity(request, canonical, bag)
    _read_logprobs(request, canonical, bag)
    if bag:
        canonical["provider_options"] = {PROVIDER: bag}
        learnt.learn(bag)
    return canonical


_SHALLOW = 64
"""A built-in tool nested no deeper than this is far from pydantic-core's depth limit
(about 255 levels) however deep canonical keeps it: only a deeper one asks for the
whole-canonical check (``provider_codec.held``), so the two paths refuse alike."""


SERVICE_TIERS = {tier: tier for tier in ("auto", "default", "flex", "scale", "priority", "fast", "ultrafast")}
_IDENTITY_KEYS = ("user", *_KEYS)
"""Responses' tiers (openai 3.54 ``ResponseCreateParams.service_tier``), canonical's words
(:mod:`chatcodec._providers.kit.service_tier`)."""


def _read_identity(request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any]) -> None:
    """``user`` (the end user's id), ``safety_identifier``, ``prompt_cache_key`` and a
    ``service_tier`` this format has, out of the bag."""
    for key in _IDENTITY_KEYS:
        value = request.get(key)
        if value.__class__ is str:
            canonical[key] = value
            bag.pop(key, None)
    tier = read_tier(request.get("service_tier"), SERVICE_TIERS)
    if tier is not None:
        canonical["service_tier"] = tier
        bag.pop("service_tier", None)


OUTPUT_LOGPROBS = "message.output_text.logprobs"
"""The ``include`` entry that returns the answer's log probabilities (canonical ``logprobs``;
API reference, ``include``), beside ``top_logprobs`` ("an integer between 0 and 20")."""


def _read_logprobs(request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any]) -> None:
    """``top_logprobs`` out of the bag; an ``include`` asking for log probabilities is
    ``logprobs`` (a list with other entries stays in the bag as it came, written back whole)."""
    top = request.get("top_logprobs")
    if type(top) is int and top >= 0:
        canonical["top_logprobs"] = top
        bag.pop("top_logprobs", None)
    include = request.get("include")
    if isinstance(include, list) and OUTPUT_LOGPROBS in include:
        canonical["logprobs"] = True
        if include == [OUTPUT_LOGPROBS]:  # says nothing more: written back from ``logprobs``
            bag.pop("include", None)


def _write_logprobs(request: Mapping[str, Any], wire: dict[str, Any]) -> None:
    """``top_logprobs``, and ``logprobs: true`` as the ``include`` entry (added when the
    list the request kept lacks it)."""
    if request.get("top_logprobs") is not None:
        wire["top_logprobs"] = request["top_logprobs"]
    if request.get("logprobs") is True:
        include = as_list(wire.get("include")) or []
        if OUTPUT_LOGPROBS not in include:
            wire["include"] = [*include, OUTPUT_LOGPROBS]


def _decode_input(
    request: dict[str, Any], bag: dict[str, Any], context: DecodeContext, read: SealedCalls
) -> list[dict[str, Any]]:
    """``instructions`` and a string ``input`` as marked messages, items as messages."""
    messages: list[dict[str, Any]] = []
    instructions = request.get("instructions")
    if instructions is not None:
        messages.append(
            {"role": "system", "content": instructions, "provider_metadata": {PROVIDER: {INSTRUCTIONS: True}}}
        )
    wire_input = request.get("input")
    if type(wire_input) is str:
        messages.append({"role": "user", "content": wire_input, "provider_metadata": {PROVIDER: {INPUT_STRING: True}}})
    elif wire_input is not None:
        messages += decode_messages(wire_input, context, read)
        if "include" not in request and read.encrypted:  # OpenAI's encrypted reasoning, learnt in the pass
            bag[_NO_INCLUDE] = True
    elif "input" not in request:
        bag[_NO_INPUT] = True
    return messages


def decode_message_list(messages: list[dict[str, Any]], context: DecodeContext) -> list[dict[str, Any]]:
    """Read a bare Responses ``input`` item list (a stored conversation)."""
    items = ITEMS.front(messages)
    if items is None:
        from chatcodec import MESSAGES_ADAPTER
        from chatcodec.codec_kit import validate_with

        read = decode_messages(ITEMS.adapter(messages, "OpenAI Responses input items"), context)
        validate_with(MESSAGES_ADAPTER, read, "Messages")  # as _held
        return read
    return decode_messages(items, context)


def _held(canonical: dict[str, Any]) -> dict[str, Any]:
    """Canonical data read from a body the front refused and pydantic's adapter took: it
    may hold a value canonical cannot (nested past pydantic-core's depth limit, not JSON
    from a Python caller), refused here with canonical's error (the codec turns a depth
    error into one at the payload's deepest place), as every decoder refused it before."""
    from chatcodec import ChatRequest
    from chatcodec.codec_kit import validate_canonical

    validate_canonical(ChatRequest, canonical)
    return canonical


# --- the writer --------------------------------------------------------------------------


def encode_request(request: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Write canonical request data as a Responses request body, applying the API's rules."""
    losses = context.losses
    messages: list[Message] = request.get("messages") or []
    reading = context.reading
    if reading is not None and reading.plain(messages) and reading.unsealed(messages):  # the reader looked
        kept_whole = encrypted = custom = False  # (no content [] either: nothing for the history rules)
    else:
        kept_whole, encrypted, custom = survey(messages)
        if kept_whole or holds_empty_content(messages):  # what the shared history rules act on, for this format
            messages = history_for(messages, losses, PROVIDER, CAPABILITIES, reading=reading)
    bag, wire = _own_fields(request.get("provider_options"), losses)
    holds: set[str] = set()  # what the target rules look for, noted where it is written
    context.holds = holds
    if "input" in wire:  # items kept in the bag (a body with no input read), sent unless messages replace them
        note_call_ids(as_list(wire["input"]) or [], holds)
    model = request.get("model")
    if model is None:
        model = context.option("model")
    if model is not None:
        wire["model"] = model
    _encode_input(messages, wire, bag, context, custom_calls=custom)
    encode_knobs(request, wire)
    respell_integers(wire, bag)
    encode_identity(request, wire, losses)
    encode_tools(request, wire, bag, context)
    encode_settings(request, wire, bag, context)
    if encrypted and "include" not in wire and not bag.get(_NO_INCLUDE):
        wire["include"] = [ENCRYPTED_REASONING]
    _write_logprobs(request, wire)
    return wire


def encode_knobs(request: Mapping[str, Any], wire: dict[str, Any]) -> None:
    """``max_output_tokens``, ``temperature``, ``top_p`` and ``stream``, each as canonical holds
    it (a direct path's top level calls it too)."""
    if request.get("max_tokens") is not None:
        wire["max_output_tokens"] = request["max_tokens"]
    for key in ("temperature", "top_p", "stream"):
        value = request.get(key)
        if value is not None:
            wire[key] = value


def _own_fields(options: Any, losses: LossRecorder) -> tuple[dict[str, Any], dict[str, Any]]:
    """This provider's bag of the request (other providers' reported) and the wire fields it holds."""
    if not options:
        return {}, {}
    bag = KIT.claim(losses, options, ("provider_options",))
    wire = restore_fields(bag)
    wire.pop("model", None)  # an option (read into the context), not a field to send back
    return bag, wire


def encode_identity(request: Mapping[str, Any], wire: dict[str, Any], losses: LossRecorder) -> None:
    """``metadata``, ``user``, ``safety_identifier``, ``prompt_cache_key`` and the tier, and the
    settings Responses has no field for (reported), each as canonical holds it (a direct path's
    top level calls it too)."""
    if request.get("metadata") is not None:
        wire["metadata"] = text_metadata(request["metadata"], losses)
    if request.get("user") is not None:  # in this frame: a call less, run cold
        wire["user"] = request["user"]
    for key in _KEYS:
        if request.get(key) is not None:
            wire[key] = request[key]
    tier = request.get("service_tier")
    if tier is not None:
        written = write_tier(tier, SERVICE_TIERS, losses, "Responses")
        if written is not None:
            wire["service_tier"] = written
    if not _UNSENT.isdisjoint(request.keys()):
        _report_unsent(request, losses)


def _report_unsent(request: Mapping[str, Any], losses: LossRecorder) -> None:
    """A setting Responses has no field for is reported, unless it says nothing
    (:func:`~chatcodec._providers.contract.target_rules.is_neutral_setting`); so are stop sequences."""
    for key in UNSENT_SETTINGS:
        value = request.get(key)
        if value is not None and not is_neutral_setting(key, value):
            losses.add((key,), key, "Responses has no such request setting", "setting")
    if request.get("stop"):
        losses.add(("stop",), "stop sequences", "Responses has no stop sequences", "setting")


def text_metadata(metadata: Mapping[str, Any], losses: LossRecorder) -> dict[str, Any]:
    """Responses ``metadata`` values are strings (``Dict[str, str]`` in the SDK): others
    are left out and reported."""
    kept: dict[str, Any] = {}
    for key, value in metadata.items():
        if isinstance(value, str):
            kept[key] = value
        else:
            losses.add(
                ("metadata", key),
                f"metadata value of type {type(value).__name__}",
                "Responses metadata is text",
                "metadata",
            )
    return kept


def _encode_input(
    messages: Sequence[Message],
    wire: dict[str, Any],
    bag: Mapping[str, Any],
    context: EncodeContext,
    *,
    custom_calls: bool = True,
) -> None:
    """``instructions`` (a marked leading system message) and ``input`` (``custom_calls``:
    whether a turn may hold a custom call, :func:`survey`); a direct path's reading
    (``chatcodec._direct``) carries the items, written from the source's validated copy in
    one pass that calls this folder's part functions (the request it hands has no messages)."""
    direct: Callable[[EncodeContext], list[dict[str, Any]]] | None = getattr(context.reading, "direct_items", None)
    if direct is not None:
        wire["input"] = direct(context)
        return
    start = 0
    if messages and _is_marked(messages[0], "system", INSTRUCTIONS):
        wire["instructions"] = messages[0]["content"]
        start = 1
    if len(messages) == start + 1 and _is_marked(messages[start], "user", INPUT_STRING):
        wire["input"] = messages[start]["content"]
    elif len(messages) > start or not bag.get(_NO_INPUT):
        wire["input"] = encode_messages(messages, start, context, custom_calls=custom_calls)
        if wire.get("store") is False:
            wire["input"] = _without_unpersisted_reasoning(messages, wire["input"], context.losses)


def _is_marked(message: Message, role: str, marker: str) -> bool:
    """A string message of ``role`` carrying ``marker``, with no name or cache marker."""
    return (
        message["role"] == role
        and isinstance(message.get("content"), str)
        and KIT.marker(message.get("provider_metadata"), marker) is True
        and message.get("name") is None
        and message.get("cache_control") is None
    )


def _without_unpersisted_reasoning(
    messages: Sequence[Message], items: list[dict[str, Any]], losses: LossRecorder
) -> list[dict[str, Any]]:
    """The items without reasoning that only an id names (``store: false`` keeps none)."""
    unpersisted = {
        item["id"]
        for item in items
        if item.get("type") == "reasoning" and isinstance(item.get("id"), str) and not item.get("encrypted_content")
    }
    if not unpersisted:
        return items
    why = "with store: false the API keeps no item to find by id, and it has no encrypted_content"
    for index, message in enumerate(messages):
        parts = as_list(message.get("content")) if message["role"] == "assistant" else None
        for position, part in enumerate(parts or ()):
            if part["type"] == "thinking" and KIT.own(part.get("provider_metadata")).get("id") in unpersisted:
                losses.add(("messages", index, "content", position), "reasoning item replayed by id", why)
    return [item for item in items if not (item.get("type") == "reasoning" and item.get("id") in unpersisted)]


def survey(messages: Sequence[Message]) -> tuple[bool, bool, bool]:
    """What the assistant turns hold that the writing looks for, in one pass: a part kept
    whole (``opaque``: another format's call, which :func:`~chatcodec._providers.history.turns.history_for`
    sends with its results or drops with them: with an empty system message, what its
    rules act on for this format's capabilities), this provider's encrypted reasoning
    (which asks for ``include``), and a custom call (whose results are custom outputs:
    without one, no turn's parts are looked at again for it). One plain loop over the
    parts: a ``map`` look per turn (an ``itemgetter``, then a ``methodcaller`` for
    ``encrypted``) cost more."""
    kept_whole = encrypted = custom = False
    for message in messages:
        if message["role"] != "assistant":
            continue
        parts: Any = message.get("content")
        if parts.__class__ is not list:
            continue
        for part in parts:
            kind = part["type"]
            if kind == "tool_use":
                if not custom and part.get("kind") == "custom":
                    custom = True
            elif kind == "opaque":
                kept_whole = True
            elif kind == "thinking" and part.get("encrypted") and part.get("provider") == PROVIDER:
                encrypted = True
    return kept_whole, encrypted, custom
