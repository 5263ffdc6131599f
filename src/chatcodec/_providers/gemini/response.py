"""Gemini ``GenerateContentResponse`` <-> :class:`~chatcodec.ChatResponse`.

Each candidate is a choice: its parts map in order to the assistant message's parts
(thought parts record ``provider="gemini"`` and ``modelVersion``; calls get made-up ids,
:mod:`.call_ids`), ``finishReason`` the finish reason (:mod:`.finish_reason`),
``logprobsResult`` its token log probabilities (:mod:`.logprobs`), and the rest
(``safetyRatings``, ``citationMetadata``, ``groundingMetadata``, ``urlContextMetadata``,
``avgLogprobs``, ``finishMessage``...) rides in the choice's bag. ``usageMetadata`` is
normalized (:mod:`.usage`); ``responseId`` is the id, ``modelVersion`` the model, and
``promptFeedback``, ``createTime`` and the rest ride in the response's bag. Another
format's ``created`` is written as ``createTime`` (RFC 3339, to the second).

A blocked prompt comes back with ``promptFeedback.blockReason`` and no candidate: it
decodes to one empty choice whose finish reason is ``content_filter`` (raw: the block
reason), marked ``_no_candidates`` so it encodes back without a candidate. An error body
(``{"error": {...}}``) is not a response: decoding it raises
:class:`~chatcodec.ProviderAPIError` with the error's status and message.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from chatcodec._providers.gemini import wire as shapes
from chatcodec._providers.gemini.call_ids import response_prefix
from chatcodec._providers.gemini.finish_reason import decode_block_reason, decode_finish_reason, encode_finish_reason
from chatcodec._providers.gemini.grounding import METADATA, place_grounding, read_grounding
from chatcodec._providers.gemini.logprobs import RESULT, take_logprobs, write_logprobs
from chatcodec._providers.gemini.markers import KIT, NO_CANDIDATES, SNAKE
from chatcodec._providers.gemini.messages import content_fields
from chatcodec._providers.gemini.parts import GeminiContext, PartDecoding, decode_part, encode_part
from chatcodec._providers.gemini.spelling import snake_cased
from chatcodec._providers.gemini.usage import decode_usage, encode_usage
from chatcodec._providers.gemini.wire import ErrorBody, Response, holds_json, is_error_body, refuse_unheld, validated
from chatcodec.codec_kit import (
    ABSENT_MARKER,
    absent_keys,
    leftovers,
    mark_absent,
    restore_fields,
    rule_error,
    shape_fields,
)
from chatcodec.contract import DecodeContext, EncodeContext, LossRecorder, Steps

RESPONSE_MAPPED = ("candidates", "usageMetadata", "modelVersion", "responseId")
"""Response fields with a canonical home."""
CANDIDATE_MAPPED = shape_fields(shapes.Candidate)
"""Candidate fields with a canonical home."""


def raise_if_error(payload: object) -> None:
    """Raise :class:`~chatcodec.ProviderAPIError` when ``payload`` is an error body."""
    if not is_error_body(payload):
        return
    body, _ = validated(ErrorBody, payload, "Gemini error")
    error: dict[str, Any] = body["error"]
    error_type = error.get("status") or (str(error["code"]) if "code" in error else None)
    raise KIT.api_error(error.get("message", ""), error_type, payload, status_code=error.get("code"))


def decode_response(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read a Gemini response body, in either spelling, as canonical response data."""
    raise_if_error(payload)
    response, snake = validated(Response, payload, "Gemini response")
    bag = response_bag(response)
    if snake:
        bag[SNAKE] = snake
    canonical = response_fields(response)
    read_create_time(response.get("createTime"), canonical, bag)
    model = response.get("modelVersion") or None
    prefix = response_prefix(response.get("responseId"))
    candidates: list[dict[str, Any]] = response.get("candidates") or []
    repeated = repeated_index(candidates)
    if repeated is not None:
        raise rule_error(
            "Gemini response",
            ("candidates", repeated, "index"),
            "unique_index",
            REPEATED_INDEX,
            candidates[repeated].get("index"),
        )
    choices = [decode_candidate(candidate, position, model, prefix) for position, candidate in enumerate(candidates)]
    if not choices:
        choices = [blocked_choice(response)]
        bag[NO_CANDIDATES] = "empty" if "candidates" in response else "absent"
    canonical["choices"] = choices
    if "usageMetadata" in response:
        canonical["usage"] = decode_usage(response["usageMetadata"])
    KIT.attach(canonical, bag)
    if not holds_json(payload):
        refuse_unheld("response", canonical)
    return canonical


REPEATED_INDEX = "a candidate's index repeats another candidate's (each candidate is one answer)"


def repeated_index(candidates: list[dict[str, Any]]) -> int | None:
    """The position of the first candidate whose ``index`` (its position when it has none)
    an earlier candidate of the same response or chunk has: each candidate of a response is
    its own answer (``candidateCount``), so a response repeating one is refused alike by the
    reader, the strict reader and the stream reader, not read as two answers by one and as
    one answer's halves by another."""
    seen: set[object] = set()
    for position, candidate in enumerate(candidates):
        index = candidate.get("index", position)
        if index in seen:
            return position
        seen.add(index)
    return None


def response_bag(response: dict[str, Any]) -> dict[str, Any]:
    """The response-level bag: every field without a canonical home."""
    return leftovers(response, RESPONSE_MAPPED)


def response_fields(response: dict[str, Any]) -> dict[str, Any]:
    """The canonical id and model of a response (or stream chunk)."""
    fields: dict[str, Any] = {}
    if "responseId" in response:
        fields["id"] = response["responseId"]
    if "modelVersion" in response:
        fields["model"] = response["modelVersion"]
    return fields


def blocked_choice(response: dict[str, Any]) -> dict[str, Any]:
    """The one empty choice of a response with no candidate (a blocked prompt)."""
    choice: dict[str, Any] = {"index": 0, "message": {"role": "assistant", "content": []}}
    feedback: dict[str, Any] = response.get("promptFeedback") or {}
    reason = feedback.get("blockReason")
    if isinstance(reason, str):
        choice["finish_reason"] = decode_block_reason(reason)
    return choice


def content_rest(content: dict[str, Any]) -> dict[str, Any]:
    """A candidate ``content``'s fields other than its parts and the answer's own
    ``role: model``: the message's bag (streamed or not)."""
    return leftovers(content, ("role", "parts") if content.get("role") == "model" else ("parts",))


def decode_candidate(candidate: dict[str, Any], position: int, model: str | None, prefix: str) -> dict[str, Any]:
    """One choice (as a dict) for a wire candidate."""
    index = candidate.get("index", position)
    bag = leftovers(candidate, CANDIDATE_MAPPED)
    mark_absent(bag, candidate, "content", "index")
    content: dict[str, Any] = candidate.get("content") or {}
    context = PartDecoding(model=model, id_prefix=prefix, container=index)
    parts = [decode_part(part, "model", context, number) for number, part in enumerate(content.get("parts") or [])]
    if METADATA in bag:
        read_grounding(bag, parts)
    message_bag = content_rest(content)
    if "content" in candidate:
        mark_absent(message_bag, content, "role", "parts")
    choice: dict[str, Any] = {
        "index": index,
        "message": KIT.attach({"role": "assistant", "content": parts}, message_bag),
    }
    has_calls = any(part["type"] == "tool_use" for part in parts)
    finish_reason = decode_finish_reason(candidate.get("finishReason"), bag, has_tool_calls=has_calls)
    if finish_reason is not None:
        choice["finish_reason"] = finish_reason
    tokens = take_logprobs(bag) if RESULT in bag else None
    if tokens is not None:
        choice["logprobs"] = tokens
    return KIT.attach(choice, bag)


def encode_response(response: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Write canonical response data as a Gemini ``GenerateContentResponse``."""
    losses = context.losses
    bag = KIT.claim(losses, response.get("provider_metadata"), ())
    wire = restore_fields(bag)
    no_candidates = bag.get(NO_CANDIDATES)
    choices: list[Mapping[str, Any]] = response["choices"]
    if no_candidates is None:
        wire["candidates"] = [encode_candidate(choice, position, context) for position, choice in enumerate(choices)]
    else:
        _check_blocked(choices, losses)
        if no_candidates == "empty":
            wire["candidates"] = []
    if response.get("id") is not None:
        wire["responseId"] = response["id"]
    if response.get("model") is not None:
        wire["modelVersion"] = response["model"]
    created = response.get("created")
    if created is not None and "createTime" not in wire:  # the bag's own text (Vertex sends it) comes home first
        written = create_time(created, losses)
        if written is not None:
            wire["createTime"] = written
    if response.get("usage") is not None:
        wire["usageMetadata"] = encode_usage(response["usage"], context, ("usage",))
    return snake_cased(wire, bag.get(SNAKE))


def read_create_time(text: object, canonical: dict[str, Any], bag: dict[str, Any]) -> None:
    """``createTime`` (Vertex sends it) as the canonical ``created``, in whole seconds; the
    text stays in the bag only when the writer would not write it back the same (a
    fraction of a second), so the round trip is exact."""
    if not isinstance(text, str):
        return
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return
    if moment.tzinfo is None:
        return
    created = int(moment.timestamp())
    canonical["created"] = created
    if create_time(created, None) == text:
        bag.pop("createTime", None)


def create_time(created: int, losses: LossRecorder | None) -> str | None:
    """``created`` (Unix seconds) as Gemini's ``createTime`` (google-genai's
    ``GenerateContentResponse.create_time``, "Timestamp when the request is made to the
    server", an RFC 3339 text in the REST body); a time no calendar date holds is reported."""
    try:
        moment = datetime.fromtimestamp(created, UTC)
    except (OverflowError, OSError, ValueError):
        if losses is not None:
            why = f"{created} is no date Gemini's createTime can write"
            losses.add(("created",), "creation time", why, "metadata")
        return None
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _parts(message: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """A message's content as a list of parts (a string is one text part, or none)."""
    content: str | list[Mapping[str, Any]] = message.get("content", "")
    if isinstance(content, str):
        return [{"type": "text", "text": content}] if content else []
    return content


def _check_blocked(choices: list[Mapping[str, Any]], losses: LossRecorder) -> None:
    for position, choice in enumerate(choices):
        if _parts(choice["message"]) or position > 0:
            losses.add(("choices", position), "answer", "the prompt was blocked: Gemini sends no candidate")


def encode_candidate(choice: Mapping[str, Any], position: int, context: EncodeContext) -> dict[str, Any]:
    """A wire candidate for one choice (canonical data)."""
    losses = context.losses
    at: Steps = ("choices", position)
    bag = KIT.claim(losses, choice.get("provider_metadata"), at)
    absent = absent_keys(bag)
    wire = restore_fields({key: value for key, value in bag.items() if key != ABSENT_MARKER})
    message: Mapping[str, Any] = choice["message"]
    message_at: Steps = (*at, "message")
    message_bag = KIT.claim(losses, message.get("provider_metadata"), message_at)
    if message.get("name") is not None:
        losses.add((*message_at, "name"), "participant name", "Gemini turns have no name")
    if message.get("cache_control") is not None:
        losses.add(
            (*message_at, "cache_control"), "cache_control", "Gemini responses carry no cache markers", "setting"
        )
    part_context = context.extend(GeminiContext)
    parts: list[dict[str, Any]] = []
    positions: list[int | None] = []
    canonical_parts = _parts(message)
    for number, part in enumerate(canonical_parts):
        encoded = encode_part(part, part_context, (*message_at, "content", number))
        positions.append(None if encoded is None else len(parts))
        if encoded is not None:
            parts.append(encoded)
    place_grounding(wire, bag, canonical_parts, positions, losses=losses, at=at)
    if parts or message_bag or "content" not in absent:
        wire["content"] = content_fields(message_bag, "model", parts)
    index: int = choice.get("index", 0)
    if "index" not in absent or index != position:
        wire["index"] = index
    finish_reason = encode_finish_reason(choice.get("finish_reason"), bag, context, (*at, "finish_reason"))
    if finish_reason is not None:
        wire["finishReason"] = finish_reason
    tokens = choice.get("logprobs")
    if tokens is not None:
        wire[RESULT] = write_logprobs(tokens, wire.get(RESULT), losses, at)
    return wire
