"""Normal forms shared by the laws: what "the same" means, stated once.

Each function maps a value to what two spellings of one thing have in common; a law
compares normal forms only where a provider cannot reproduce a spelling, and says so.
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

import chatcodec
from chatcodec._providers.kit.provider_kit import READ_BY_EVERY_WRITER, meaningful_markers
from chatcodec.codec_kit import is_dict, is_list

JsonObject = dict[str, Any]

ModelT = TypeVar("ModelT", chatcodec.ChatRequest, chatcodec.ChatResponse)


def identical(response: chatcodec.ChatResponse) -> object:
    """No normalization: the canonical value itself."""
    return response


def with_compact_arguments(response: chatcodec.ChatResponse) -> chatcodec.ChatResponse:
    """``response`` with valid JSON tool arguments rewritten as compact JSON.

    A stream gives the argument text as the model wrote it, a provider that sends
    parsed objects only the object: the same arguments, spelled differently.
    """
    choices: list[chatcodec.ResponseChoice] = []
    for choice in response.choices:
        parts: list[Any] = []
        for part in choice.message.parts:
            if isinstance(part, chatcodec.ToolUsePart) and part.arguments_are_valid_json:
                compact = json.dumps(part.parsed_arguments(), ensure_ascii=False, separators=(",", ":"))
                parts.append(part.model_copy(update={"arguments": compact}))
            else:
                parts.append(part)
        message = choice.message.model_copy(update={"content": parts})
        choices.append(choice.model_copy(update={"message": message}))
    return response.model_copy(update={"choices": choices})


KNOWN_PROVIDERS = frozenset(name for name in chatcodec.available_formats() if name != "canonical")
"""Every codec's name, framework formats too: each one's bags and opaque parts are written
only by its own decoder, so a generated value holds none and a read-back one's are spelling."""


def _scrubbed(value: Any) -> Any:
    if is_list(value):
        return [_scrubbed(item) for item in value]
    if not is_dict(value):
        return value
    opaque_data = ("provider_metadata", "provider_options", "data", "metadata", "parameters", "json_schema", "body")
    scrubbed = {key: item if key in opaque_data else _scrubbed(item) for key, item in value.items()}
    if value.get("type") == "opaque" and value.get("provider") in KNOWN_PROVIDERS:
        scrubbed["provider"] = "acme"
    for key in ("provider_metadata", "provider_options"):
        bags = scrubbed.get(key)
        if is_dict(bags):
            kept = {name: bag for name, bag in bags.items() if name not in KNOWN_PROVIDERS}
            scrubbed[key] = kept or None
    return scrubbed


def without_provider_data(model: ModelT) -> ModelT:
    """A generated value without metadata bags or opaque parts of a registered provider.

    Those are written only by that provider's decoder: random ones are not its data (a
    random ``{"id": null}`` in one provider's usage bag is sent as written and makes an
    invalid body), so the laws over generated values leave them out.
    """
    return type(model).model_validate(_scrubbed(model.model_dump(mode="json")))


def _is_pure_spelling(provider: str, key: str, keep: frozenset[str] = frozenset()) -> bool:
    """A marker ``provider`` did not declare meaningful, and no contract marker every writer
    reads (``_outside_range``: a value sent as it came, not clamped)."""
    return (
        key.startswith("_")
        and not key.startswith("__")
        and key not in meaningful_markers(provider)
        and key not in READ_BY_EVERY_WRITER
        and key not in keep
    )


def _unmarked(value: Any, keep: frozenset[str] = frozenset()) -> Any:
    if is_list(value):
        return [_unmarked(item, keep) for item in value]
    if not is_dict(value):
        return value
    cleaned = {key: _unmarked(item, keep) for key, item in value.items()}
    for key in ("provider_metadata", "provider_options"):
        bags = value.get(key)
        if is_dict(bags) and all(is_dict(bag) for bag in bags.values()):  # not a bag named so
            kept = {
                name: {k: v for k, v in bag.items() if not _is_pure_spelling(name, k, keep)}
                for name, bag in bags.items()
            }
            cleaned[key] = {name: bag for name, bag in kept.items() if bag} or None
    return cleaned


def without_spelling_markers(model: ModelT, keep: frozenset[str] = frozenset()) -> ModelT:
    """``model`` without the pure-spelling markers of provider bags, and without bags left empty.

    Those keys are spelling markers (null versus absent, which field a value came from):
    they say how the provider wrote a value, not what it means, and by design another
    provider drops them without a report (docs/contributing.md, "Adding a provider").
    The markers a provider declares meaningful (a cache breakpoint's key, which a gateway
    may read in one spelling only) stay: another
    provider that drops one must report it.
    """
    return type(model).model_validate(_unmarked(model.model_dump(mode="json"), keep))


def effort_reading(reasoning: dict[str, Any] | None) -> dict[str, Any] | None:
    """What canonical reasoning reads back as from a format that says an effort only (the
    chat formats without a thinking switch), for what is written without a report (``_providers/kit/reasoning.py``):
    thinking disabled (or a budget of 0) is effort ``none``; an effort with thinking switched on or adaptive is
    reasoning switched on at that effort."""
    if reasoning is None:
        return None
    kept = {key: value for key, value in reasoning.items() if value is not None}
    effort = kept.get("effort")
    budget = kept.get("budget_tokens")
    off = kept.get("enabled") is False and budget is None
    no_budget = budget == 0 and kept.get("enabled") is None and not kept.get("adaptive")  # a budget of 0 is off
    if (off or no_budget) and effort in (None, "none"):
        kept.pop("enabled", None)
        kept.pop("budget_tokens", None)
        kept["effort"] = "none"
    elif (
        effort not in (None, "none")
        and kept.get("budget_tokens") is None
        and (kept.get("adaptive") or kept.get("enabled"))
    ):
        kept.pop("adaptive", None)
        kept["enabled"] = True
    return kept


def without_empty_instructions(request: chatcodec.ChatRequest) -> chatcodec.ChatRequest:
    """``request`` without its empty system and developer messages (``content: []`` and
    nothing else said): a format whose instructions are messages sends none for them (the
    shared history rules, ``Capabilities.empty_system``), unreported, as an empty prompt is
    no prompt."""
    kept = [
        message
        for message in request.messages
        if not (
            isinstance(message, chatcodec.SystemMessage)
            and message.content == []
            and message.name is None
            and message.cache_control is None
            and not message.provider_metadata
        )
    ]
    return request if len(kept) == len(request.messages) else request.model_copy(update={"messages": kept})


def compact_call(part: Any) -> Any:
    """A canonical part with a tool call's arguments as compact JSON, as a wire that takes them
    as an object writes them back (empty text is ``{}``; text that is no object stays)."""
    if part.get("type") != "tool_use":
        return part
    text = part.get("arguments", "")
    try:
        parsed: object = json.loads(text) if text.strip() else {}
    except ValueError:
        return part
    if is_dict(parsed):
        return {**part, "arguments": json.dumps(parsed, ensure_ascii=False, separators=(",", ":"))}
    return part
