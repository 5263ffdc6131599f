"""The vocabulary the built-in codecs' law facts (``built_in/``) state their documented rewrites
in: a rewrite a wire makes without a report is a row, ``(pattern, update)`` over a canonical
request's dump (every object holding the pattern gets the update), or one of the few named
steps over its messages written here once, so each fact is a line with its reason and no
format repeats another's walk."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import chatcodec
from chatcodec.codec_kit import is_dict, is_list
from chatcodec.testing._laws.normal_forms import compact_call

JsonObject = dict[str, Any]
Update = JsonObject | Callable[[JsonObject], JsonObject]
Row = tuple[JsonObject, Update]
"""``(pattern, update)``: an object holding ``pattern`` (:func:`holds`) gets ``update`` (the
keys to set, or a function of the object giving them)."""
Step = Callable[[JsonObject], JsonObject]
"""A rewrite of a request's dump."""


def holds(value: object, pattern: object) -> bool:
    """Whether ``value`` holds ``pattern``: an object with every key of the pattern holding
    its value (a missing key holds ``None``), or a value equal to it."""
    if is_dict(pattern):
        return is_dict(value) and all(holds(value.get(key), item) for key, item in pattern.items())
    return value == pattern


def mapped(value: Any, rewrite: Callable[[JsonObject], JsonObject]) -> Any:
    """``value`` with ``rewrite`` applied to every object in it, innermost first."""
    if is_list(value):
        return [mapped(item, rewrite) for item in value]
    if not is_dict(value):
        return value
    return rewrite({key: mapped(item, rewrite) for key, item in value.items()})


def at_top(*rows: Row) -> Step:
    """The rows applied to one object, in order: the request itself (its settings), or each
    object :func:`everywhere` walks."""

    def rewrite(value: JsonObject) -> JsonObject:
        for pattern, update in rows:
            if holds(value, pattern):
                value = {**value, **(update(value) if callable(update) else update)}
        return value

    return rewrite


def everywhere(*rows: Row) -> Step:
    """The rows applied to every object of the request (parts, results, nested content)."""
    return lambda dumped: mapped(dumped, at_top(*rows))


def rewritten(request: chatcodec.ChatRequest, *steps: Step) -> chatcodec.ChatRequest:
    """``request`` after ``steps``, in order, over its dump."""
    dumped: JsonObject = request.model_dump(mode="json")
    for step in steps:
        dumped = step(dumped)
    return chatcodec.ChatRequest.model_validate(dumped)


COMPACT_CALLS: Row = ({"type": "tool_use"}, compact_call)
"""Tool-call arguments sent as the parsed object: compact JSON back (empty text is ``{}``)."""

AUTO_DETAIL: Row = ({"type": "image", "detail": "auto"}, {"detail": None})
"""An image's ``detail="auto"`` is the default: not sent."""


_OPAQUE_DATA = ("provider_metadata", "provider_options", "data", "metadata", "parameters", "json_schema")
"""Keys whose values are data, not canonical objects: :func:`without_data_of` keeps them whole."""


def without_data_of(value: Any, provider: str, *, opaque_only: bool = False) -> Any:
    """A request dump without ``provider``'s bags, its parts that name it (its opaque parts
    alone when ``opaque_only``) given to another provider: only that codec's reader writes
    them, and generated ones are not its data."""
    if is_list(value):
        return [without_data_of(item, provider, opaque_only=opaque_only) for item in value]
    if not is_dict(value):
        return value
    cleaned = {
        key: item if key in _OPAQUE_DATA else without_data_of(item, provider, opaque_only=opaque_only)
        for key, item in value.items()
    }
    if value.get("provider") == provider and (not opaque_only or value.get("type") == "opaque"):
        cleaned["provider"] = "acme"
    for key in ("provider_metadata", "provider_options"):
        if is_dict(cleaned.get(key)):
            cleaned[key] = {name: bag for name, bag in cleaned[key].items() if name != provider} or None
    return cleaned


def results_named(dumped: JsonObject) -> JsonObject:
    """A tool result without a name takes its call's (a wire that names results by function)."""
    names = {
        part["id"]: part["name"]
        for message in dumped["messages"]
        if message["role"] == "assistant" and is_list(message["content"])
        for part in message["content"]
        if part.get("type") == "tool_use"
    }
    named: Row = ({"type": "tool_result", "name": None}, lambda result: {"name": names.get(result["tool_use_id"])})
    return everywhere(named)(dumped)


Joins = Callable[[list[JsonObject], JsonObject], bool]
"""Whether a message goes into the last of those before it (already joined)."""


def joined(joins: Joins, messages: list[JsonObject]) -> list[JsonObject]:
    """``messages`` with each one ``joins`` says goes into the one before it: its parts appended,
    and its ``cache_control``, ``name`` and bag kept where that one has none (a wire that
    drops one reports it: the joined turn still says it)."""
    kept: list[JsonObject] = []
    for message in messages:
        if not (kept and joins(kept, message)):
            kept.append(dict(message))
            continue
        previous = kept[-1]
        previous["content"] = [*previous["content"], *message["content"]]
        for key in ("cache_control", "name", "provider_metadata"):
            if previous.get(key) is None:
                previous[key] = message.get(key)
    return kept


def tool_runs(before: list[JsonObject], message: JsonObject) -> bool:
    """Consecutive tool messages are one group on the wire: they read back as one message."""
    return bool(message["role"] == before[-1]["role"] == "tool")


def leading_systems(before: list[JsonObject], message: JsonObject) -> bool:
    """Leading system messages are one prompt: they read back as one system message."""
    return message["role"] == "system" and all(each["role"] == "system" for each in before)


def in_messages(step: Callable[[list[JsonObject]], list[JsonObject]]) -> Step:
    """``step`` over the request's messages."""
    return lambda dumped: {**dumped, "messages": step(dumped["messages"])}


def without_neutral_penalties(update: JsonObject, request: chatcodec.ChatRequest) -> None:
    """A frequency or presence penalty of 0 changes nothing, so a target without the
    setting drops it without a report (a value equal to the default is no loss)."""
    for key in ("frequency_penalty", "presence_penalty"):
        if getattr(request, key) == 0:
            update[key] = None


def without_unasked_logprobs(
    update: JsonObject, request: chatcodec.ChatRequest, keys: tuple[str, ...] = ("logprobs", "top_logprobs")
) -> None:
    """``logprobs: false`` and ``top_logprobs: 0`` ask for nothing, so a target without the
    setting (of ``keys``) drops it without a report (``_providers/kit/logprob_settings.py``)."""
    for key, nothing in (("logprobs", False), ("top_logprobs", 0)):
        if key in keys and getattr(request, key) is not None and getattr(request, key) == nothing:
            update[key] = None
