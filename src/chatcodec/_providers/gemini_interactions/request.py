"""``POST /v1beta/interactions`` bodies <-> canonical requests.

``system_instruction`` is the leading system message; ``input`` the conversation
(:mod:`.messages`); ``tools`` and the generation config's ``tool_choice`` the tools
(:mod:`.tools`); ``generation_config`` and the output format the settings
(:mod:`.settings`); ``stream`` and ``service_tier`` their canonical fields. Every other
field rides in ``provider_options["gemini-interactions"]`` and is written back as it came:
``store``, ``background``, ``labels``, ``safety_settings``, ``response_modalities``,
``webhook_config`` ... and ``previous_interaction_id``, the server-held history this request
continues, which no other format can send: converting such a request elsewhere reports it
(the bag of another provider, :meth:`~chatcodec.contract.ProviderKit.claim`), since the
history it stands for is not in the request.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec._providers.gemini_interactions.capabilities import CAPABILITIES
from chatcodec._providers.gemini_interactions.markers import DISPLAY, INPUT, KIT, PROVIDER, STORE_OPTION
from chatcodec._providers.gemini_interactions.messages import decode_messages, encode_messages, report_message_fields
from chatcodec._providers.gemini_interactions.parts import decode_content
from chatcodec._providers.gemini_interactions.settings import decode_settings, encode_settings
from chatcodec._providers.gemini_interactions.tools import decode_tools, encode_tools
from chatcodec._providers.gemini_interactions.wire import CONTENT_TAGS, STEP_TAGS, Request, Step, validated
from chatcodec.codec_kit import history_for, leftovers, read_tier, report_user, restore_fields, shape_fields, write_tier
from chatcodec.contract import DecodeContext, EncodeContext

_MAPPED = ("model", "system_instruction", "input", "tools", "stream", "service_tier")
"""Top-level fields read here (the settings' own are read from the bag by :mod:`.settings`)."""

SERVICE_TIERS = {"flex": "flex", "standard": "default", "priority": "priority"}
"""The tiers (google-genai 3.6.1 ``ServiceTier``) with a canonical word; ``deferred`` has none."""


def decode_request(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read an Interactions request body as canonical request data."""
    request = validated(Request, payload, f"{DISPLAY} request")
    bag = leftovers(request, _MAPPED)
    canonical: dict[str, Any] = {}
    if "model" in request:
        canonical["model"] = request["model"]
    messages: list[dict[str, Any]] = []
    if "system_instruction" in request:
        messages.append({"role": "system", "content": request["system_instruction"]})
    if "input" in request:
        form, user = _input(request["input"], context)
        if form is not None:
            bag[INPUT] = form
        messages.extend(user)
    canonical["messages"] = messages
    if "stream" in request:
        canonical["stream"] = request["stream"]
    tier = read_tier(request.get("service_tier"), SERVICE_TIERS)
    if tier is not None:
        canonical["service_tier"] = tier
    elif "service_tier" in request:
        bag["service_tier"] = request["service_tier"]
    decode_tools(request, canonical, bag, context)
    decode_settings(request, canonical, bag, context)
    if bag:
        canonical["provider_options"] = {PROVIDER: bag}
    return canonical


def _input(
    value: str | dict[str, Any] | list[dict[str, Any]], context: DecodeContext
) -> tuple[str | None, list[dict[str, Any]]]:
    """``input`` as messages, and how it was spelled when not as steps."""
    if isinstance(value, str):
        return "string", [{"role": "user", "content": [{"type": "text", "text": value}]}]
    if not isinstance(value, list):
        return "content", [{"role": "user", "content": [decode_content(value)]}]
    if not value:
        return "steps", []
    kinds = {item.get("type") for item in value}
    if kinds & CONTENT_TAGS and not kinds & STEP_TAGS:
        # a content list, one of whose kinds this codec does not know (kept whole, reported
        # by any other writer): still the user's turn, never read as the model's own output
        return "contents", [{"role": "user", "content": [decode_content(item) for item in value]}]
    return None, decode_messages(value, context)


def decode_message_list(messages: list[dict[str, Any]], context: DecodeContext) -> list[dict[str, Any]]:
    """Read a bare list of steps (a stored conversation) as canonical messages."""
    steps = [validated(Step, step, f"{DISPLAY} step", (index,)) for index, step in enumerate(messages)]
    return decode_messages(steps, context)


def encode_request(request: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Write canonical request data as an Interactions request body."""
    losses = context.losses
    bag = KIT.claim(losses, request.get("provider_options"), ("provider_options",))
    bag.pop("model", None)  # an option (read into the context), not a field to send back
    wire = restore_fields(bag)
    model = request.get("model") if request.get("model") is not None else context.option("model")
    if model is not None:
        wire["model"] = model
    messages = history_for(list(request.get("messages") or []), losses, PROVIDER, CAPABILITIES, reading=context.reading)
    leading = 0
    while leading < len(messages) and messages[leading]["role"] in ("system", "developer"):
        leading += 1
    system = system_text(messages[:leading], context) if leading else None
    if system is not None:
        wire["system_instruction"] = system
    steps = encode_messages(messages, leading, context)
    if steps or leading < len(messages) or bag.get(INPUT) == "steps":
        wire["input"] = spelled_input(steps, bag.get(INPUT))
    encode_tools(request, wire, bag, context)
    encode_settings(request, wire, bag, context)
    if request.get("stream") is not None:
        wire["stream"] = request["stream"]
    store = context.option(STORE_OPTION)
    if store is not None and "store" not in wire:
        wire["store"] = store
    if request.get("service_tier") is not None:
        tier = write_tier(request["service_tier"], SERVICE_TIERS, losses, DISPLAY)
        if tier is not None:
            wire["service_tier"] = tier
    for key in ("metadata", "cache_control"):
        if request.get(key) is not None:
            losses.add((key,), key, f"{DISPLAY} requests have no {key} field", "metadata")
    report_user(request.get("user"), losses, DISPLAY)
    return {key: wire[key] for key in (*shape_fields(Request), *wire) if key in wire}


def system_text(messages: Sequence[Mapping[str, Any]], context: EncodeContext) -> str | None:
    """The leading system messages as the one ``system_instruction`` string; None when no
    text is left of them (their only parts dropped, each reported): an empty instruction
    says something no request said, so the field is not written."""
    losses = context.losses
    texts: list[str] = []
    for index, message in enumerate(messages):
        report_message_fields(message, context, ("messages", index))
        content = message["content"]
        if isinstance(content, str):  # (its bag reported as a list's is, after it)
            texts.append(content)
            KIT.report_foreign(losses, message.get("provider_metadata"), ("messages", index))
            continue
        for number, part in enumerate(content):
            at = ("messages", index, "content", number)
            if part["type"] != "text":
                losses.add(at, f"{part['type']} part", "system_instruction is text")
                continue
            texts.append(part["text"])
            KIT.report_foreign(losses, part.get("provider_metadata"), at)
            if part.get("cache_control") is not None:
                losses.add((*at, "cache_control"), "cache_control", f"{DISPLAY} has no cache breakpoints", "setting")
        KIT.report_foreign(losses, message.get("provider_metadata"), ("messages", index))
    if len(texts) > 1:
        losses.add(
            ("messages",), "system prompt parts", f"{DISPLAY} takes one system_instruction; joined by blank lines"
        )
    return "\n\n".join(texts) if texts else None


def spelled_input(steps: list[dict[str, Any]], form: object) -> Any:
    """``input`` as steps, or spelled as the request read had it (one user turn only)."""
    if form is None or len(steps) != 1 or steps[0].keys() != {"type", "content"} or steps[0]["type"] != "user_input":
        return steps
    content = steps[0]["content"]
    if form == "string" and len(content) == 1 and content[0].keys() == {"type", "text"}:
        return content[0]["text"]
    if form == "content" and len(content) == 1:
        return content[0]
    if form == "contents" and content:
        return content
    return steps
