"""A response is the event a model's answer became: ADK's ``Event`` is an ``LlmResponse``, a
Gemini candidate's ``content`` and ``finishReason`` beside the response's ``usageMetadata`` and
``modelVersion``, flattened. Read and written as that Gemini response by the ``gemini`` codec;
the event's author is the message's ``name`` and its other fields ride in the message's bag, as
a session's do (:mod:`.events`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec import PayloadError, ValidationError
from chatcodec._frameworks.google_adk.content import gemini, too_deep_or
from chatcodec._frameworks.google_adk.events import read_author
from chatcodec._frameworks.google_adk.markers import AGENT, KIT, NO_ROLE, PROVIDER, SNAKE
from chatcodec._frameworks.google_adk.spelling import is_snake, snake_cased, without_nulls
from chatcodec._frameworks.google_adk.wire import validated_event
from chatcodec.codec_kit import Problem, as_dict, as_list, leftovers, problems_error, restore_fields
from chatcodec.contract import DecodeContext, EncodeContext, LossRecorder

_CANDIDATE = {"content": "content", "finishReason": "finishReason", "finish_reason": "finishReason"}
"""An event's fields that are its candidate's, by their names in a Gemini candidate."""

_RESPONSE = {
    "usageMetadata": "usageMetadata",
    "usage_metadata": "usageMetadata",
    "modelVersion": "modelVersion",
    "model_version": "modelVersion",
}
"""An event's fields that are the response's, by their names in a Gemini response."""

_NO_PLACE = "an ADK event has no field for it"


def decode_response(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read a model's event as a canonical response dict."""
    del context
    event = validated_event(payload, "Google ADK event")
    content = as_dict(event.get("content"))
    candidate = {_CANDIDATE[key]: value for key, value in event.items() if key in _CANDIDATE}
    if content is not None:
        candidate["content"] = {"role": "model", **without_nulls(content)}
    body: dict[str, Any] = {"candidates": [candidate] if candidate else []}
    body.update((_RESPONSE[key], value) for key, value in event.items() if key in _RESPONSE)
    response = _read(body, event)
    bag = leftovers(event, (*_CANDIDATE, *_RESPONSE))
    if is_snake(event):
        bag[SNAKE] = True
    if content is not None and "role" not in content:
        bag[NO_ROLE] = True
    choices = as_list(response.get("choices")) or []
    message = as_dict((as_dict(choices[0]) or {}).get("message")) if choices else None
    if message is not None:
        if "author" in bag:
            read_author(message, event.get("author"), bag)
        if bag:
            message["provider_metadata"] = {**(as_dict(message.get("provider_metadata")) or {}), PROVIDER: bag}
    return response


def _read(body: dict[str, Any], event: Mapping[str, Any]) -> dict[str, Any]:
    """``body`` read by the ``gemini`` codec, a refusal named at its place in ``event``."""
    try:
        return gemini().read_response(body)
    except PayloadError as error:
        raise too_deep_or(error) from None
    except ValidationError as error:
        named = {gemini_name: key for key, gemini_name in (*_CANDIDATE.items(), *_RESPONSE.items()) if key in event}
        problems = [_in_event(tuple(detail["loc"]), named, detail) for detail in error.errors()]
        raise problems_error("Google ADK event", problems) from None


def _in_event(location: tuple[Any, ...], named: Mapping[str, str], detail: Mapping[str, Any]) -> Problem:
    if location[:2] == ("candidates", 0):
        location = location[2:]
    if location and location[0] in named:
        location = (named[location[0]], *location[1:])
    return Problem(location, detail["type"], detail["msg"], detail.get("input"))


def encode_response(response: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Write a canonical response as the event a model's answer is."""
    choices = as_list(response.get("choices")) or []
    first = as_dict(choices[0]) if choices else None
    message = (as_dict(first.get("message")) if first is not None else None) or {}
    kept = KIT.own(as_dict(message.get("provider_metadata")))
    found = LossRecorder()
    body = gemini().write_response(_without_own_bags(choices, response), found)
    for loss in found.losses:
        context.losses.add(loss.path, loss.what, loss.why, loss.kind)
    candidates = as_list(body.get("candidates")) or []
    for index in range(1, len(candidates)):
        context.losses.add(("choices", index), "choice", "an ADK event is one answer")
    candidate = (as_dict(candidates[0]) if candidates else None) or {}
    event: dict[str, Any] = {key: value for key, value in candidate.items() if key in ("content", "finishReason")}
    for key, value in body.items():
        if key in ("usageMetadata", "modelVersion"):
            event[key] = value
        elif key != "candidates":
            context.losses.add((key,), key, _NO_PLACE, "metadata")
    content = as_dict(event.get("content"))
    if content is not None and kept.get(NO_ROLE):
        content.pop("role", None)
    if kept.get(SNAKE):
        event = snake_cased(event)
    event.update(restore_fields(kept))
    name = message.get("name")
    event.setdefault("author", name if isinstance(name, str) else AGENT)
    return event


def _without_own_bags(choices: list[Any], response: Mapping[str, Any]) -> dict[str, Any]:
    """``response`` without this format's bag on its messages (the event's fields, written here)."""
    written: list[dict[str, Any]] = []
    for each in choices:
        choice = as_dict(each) or {}
        message = dict(as_dict(choice.get("message")) or {})
        message.pop("name", None)  # the event's author
        bags = dict(as_dict(message.pop("provider_metadata", None)) or {})
        bags.pop(PROVIDER, None)
        if bags:
            message["provider_metadata"] = bags
        written.append({**choice, "message": message})
    return {**response, "choices": written}
