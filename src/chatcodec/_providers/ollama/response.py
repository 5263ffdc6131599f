"""Ollama chat responses (``stream: false``) <-> canonical response dicts.

A response is one answer: ``message`` is the choice's assistant message (:mod:`.messages`,
calls without an id get made-up ones, :mod:`.call_ids`), ``done_reason`` its finish reason
(:mod:`.finish_reason`), the counts and timings its usage (:mod:`.usage`), ``model`` the
model and ``created_at`` the creation time (:mod:`.timestamps`), ``logprobs`` the choice's
canonical tokens (:mod:`~chatcodec._providers.kit.token_logprobs`; entries spelled otherwise
stay in the choice's bag); ``remote_model``, ``remote_host`` (a cloud model's upstream) and every
other field in the response's. ``done`` is ``true`` in every finished body and is written
so; a body that said ``false`` (a single stream line read as a body) keeps it. Ollama gives
no response id. An error body (``{"error": "..."}``) is not a response: decoding it raises
:class:`~chatcodec.ProviderAPIError` with its message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.ollama.call_ids import response_call_id
from chatcodec._providers.ollama.finish_reason import decode_finish_reason, encode_finish_reason
from chatcodec._providers.ollama.markers import KIT, PROVIDER
from chatcodec._providers.ollama.messages import decode_assistant, encode_assistant
from chatcodec._providers.ollama.timestamps import created_of, format_created
from chatcodec._providers.ollama.usage import FIELDS as USAGE_FIELDS
from chatcodec._providers.ollama.usage import decode_usage, encode_usage, has_usage
from chatcodec._providers.ollama.wire import ErrorBody, Response, is_error_body, validated
from chatcodec.codec_kit import (
    absent_keys,
    leftovers,
    mark_absent,
    put_logprobs,
    read_token_logprobs,
    restore_fields,
    write_token_logprobs,
)
from chatcodec.contract import DecodeContext, EncodeContext, Steps

RESPONSE_MAPPED = ("model", "created_at", "message", "done", "done_reason", "logprobs", *USAGE_FIELDS)
"""Response fields with a canonical home (or the choice's bag)."""

CHOICE_FIELDS = ("logprobs",)
"""Response fields that belong to the one choice: its bag."""

_EMPTY_MESSAGE: Mapping[str, Any] = {"role": "assistant", "content": ""}


def raise_if_error(payload: object) -> None:
    """Raise :class:`~chatcodec.ProviderAPIError` when ``payload`` is an error body."""
    if is_error_body(payload):
        body = validated(ErrorBody, payload, "Ollama error")
        raise KIT.api_error(body["error"], None, payload)


def decode_response(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read an Ollama chat response body as a canonical response dict."""
    raise_if_error(payload)
    response = validated(Response, payload, "Ollama response")
    canonical, bag = response_head(response)
    mark_absent(bag, response, "message", "done")
    if response.get("done") is not True and "done" in response:
        bag["done"] = response["done"]
    message = response.get("message")
    if message is None and "message" in response:
        bag["message"] = None
    stamp = stamp_of(response)
    decoded = decode_assistant(message or _EMPTY_MESSAGE, lambda position: response_call_id(stamp, position))
    choice_bag = {key: response[key] for key in CHOICE_FIELDS if key in response}
    has_calls = not isinstance(decoded["content"], str) and any(
        part["type"] == "tool_use" for part in decoded["content"]
    )
    done = response.get("done") is True
    finish = decode_finish_reason(response.get("done_reason"), choice_bag, has_tool_calls=has_calls, done=done)
    choice: dict[str, Any] = {"index": 0, "message": decoded}
    if finish is not None:
        choice["finish_reason"] = finish
    tokens = read_token_logprobs(choice_bag.get("logprobs"), every_key=False)
    if tokens is not None:
        choice["logprobs"] = tokens
        del choice_bag["logprobs"]
    if "done_reason" in response and response["done_reason"] is None:
        choice_bag["done_reason"] = None
    canonical["choices"] = [KIT.attach(choice, choice_bag)]
    if has_usage(response):
        canonical["usage"] = decode_usage(response)
    return KIT.attach(canonical, bag)


def stamp_of(response: Mapping[str, Any]) -> str | None:
    """The ``created_at`` text of a response or stream line, if it has one."""
    stamp = response.get("created_at")
    return stamp if isinstance(stamp, str) else None


def response_head(response: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The canonical ``model`` and ``created`` of a response (or a stream's first line), and
    the response's bag: its unmapped fields, and ``created_at`` unless ``created`` says it."""
    canonical: dict[str, Any] = {}
    bag = leftovers(response, RESPONSE_MAPPED)
    if "model" in response:
        canonical["model"] = response["model"]
    stamp = response.get("created_at")
    if isinstance(stamp, str):
        created = created_of(stamp)
        if created is not None:
            canonical["created"] = created
        if created is None or format_created(created) != stamp:
            bag["created_at"] = stamp
    return canonical, bag


def encode_response(response: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Write a canonical response dict as an Ollama chat response body."""
    losses = context.losses
    bag = KIT.claim(losses, response.get("provider_metadata"), ())
    wire = encode_head(response, bag, context)
    choices: list[Mapping[str, Any]] = response["choices"]
    for position in range(1, len(choices)):
        losses.add(("choices", position), "answer", "an Ollama response holds one answer")
    choice = choices[0]
    absent = absent_keys(bag)
    message = encode_assistant(choice["message"], context, ("choices", 0, "message"))
    if message != _EMPTY_MESSAGE or not ("message" in absent or ("message" in bag and bag["message"] is None)):
        wire["message"] = message
    elif "message" in bag:
        wire["message"] = None
    wire.update(encode_end(choice, context, ("choices", 0)))
    if "done" not in wire and "done" not in absent:
        wire["done"] = True
        if choice.get("finish_reason") is None:  # reads back as done for a reason not given (``other``)
            why = "an Ollama response is done; the answer's end is unknown (cut off), sent done without done_reason"
            losses.add(("choices", 0, "finish_reason"), "missing finish reason", why, "metadata")
    usage = response.get("usage")
    if usage is not None:
        wire.update(encode_usage(usage, context, ("usage",)))
    return wire


def encode_head(response: Mapping[str, Any], bag: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
    """``model``, ``created_at`` and the response bag's fields (a stream writes them on every line)."""
    losses = context.losses
    wire = restore_fields({key: value for key, value in bag.items() if key not in ("message", "created_at")})
    if response.get("model") is not None:
        wire["model"] = response["model"]
    stamp = bag.get("created_at")
    created = response.get("created")
    if created is None:
        if stamp is not None:
            wire["created_at"] = stamp
    elif isinstance(stamp, str) and created_of(stamp) == created:
        wire["created_at"] = stamp
    else:
        formatted = format_created(created)
        if formatted is None:
            losses.add(("created",), "creation time", "past what Ollama's created_at (RFC 3339) holds", "metadata")
        else:
            wire["created_at"] = formatted
    if response.get("id") is not None:
        losses.add(("id",), "response id", "Ollama responses have no id", "metadata")
    return wire


def encode_end(choice: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    """The fields a choice adds beside its message: ``logprobs``, its bag and ``done_reason``."""
    losses = context.losses
    bag = KIT.claim(losses, choice.get("provider_metadata"), at)
    if choice.get("index", 0) != 0:
        losses.add((*at, "index"), "choice index", "an Ollama response's one answer has no index", "metadata")
    wire = restore_fields(bag)
    tokens = choice.get("logprobs")
    if tokens is not None:
        wire = put_logprobs(wire, write_token_logprobs(tokens, every_key=False), PROVIDER, losses, at)
    reason = encode_finish_reason(choice.get("finish_reason"), bag, context, (*at, "finish_reason"))
    if reason is not None:
        wire["done_reason"] = reason
    return wire
