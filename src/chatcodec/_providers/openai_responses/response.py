"""``response`` bodies (``Response``), both ways.

The ``output`` items in order are the one choice's assistant message (:mod:`.items`),
its ``output_text`` parts' ``logprobs`` the choice's tokens (:mod:`.logprobs`);
``status`` and ``incomplete_details.reason`` are its finish reason; ``usage`` is usage;
``created_at`` is ``created``. Everything else (``error``, the echoed request settings
such as ``instructions``, ``tools``, ``reasoning``, ``text``, ``store``, ``billing``
...) rides in the response's bag and is written back verbatim.

The SDK's ``Response`` requires ``id``, ``created_at``, ``model``, ``object``,
``output``, ``parallel_tool_calls``, ``tool_choice`` and ``tools``. A canonical response
from elsewhere may lack them: an ``id`` and ``model`` are then written as ``""`` and
``created_at`` as the current time (as openai-chat stamps ``created``), each reported (read
back, they are values the answer never had: :mod:`chatcodec._providers.kit.invented`), and
the rest as the API's defaults (``"response"``, ``true``, ``"auto"``, ``[]``: what a request
that set nothing echoes); a recorded body that left one out gets none back. Responses has
one answer per response: choices after the first are reported and left out.

A server answering the request itself (``chatcodec serve``'s Responses front) gives the
``server_fields`` option: the response is then the Open Responses ``ResponseResource``
(https://www.openresponses.org/reference), with the server's own id and the request's
settings echoed (:func:`as_served`); the output items are named from that id.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, cast

from chatcodec._providers.families.openai.edge import raise_openai_error
from chatcodec._providers.openai_responses.carried_reasoning import SealedCalls, Sealing, sealing_of
from chatcodec._providers.openai_responses.finish_reason import (
    decode_finish_reason,
    encode_finish_reason,
    incomplete_reason,
)
from chatcodec._providers.openai_responses.item_reading import decode_item
from chatcodec._providers.openai_responses.items import encode_assistant
from chatcodec._providers.openai_responses.logprobs import place_answer_logprobs, take_answer_logprobs
from chatcodec._providers.openai_responses.markers import KIT, SERVER_FIELDS
from chatcodec._providers.openai_responses.usage import decode_usage, encode_usage
from chatcodec._providers.openai_responses.wire import RESPONSE, adapted
from chatcodec.codec_kit import (
    INVENTED_TIME,
    absent_keys,
    as_dict,
    mark_absent,
    report_invented,
    restore_fields,
    split_fields,
)
from chatcodec.contract import DecodeContext, EncodeContext, LossRecorder

OBJECT = "response"
ANSWER_NAMES: tuple[tuple[str, str], ...] = (("id", "id"), ("created_at", "created"), ("model", "model"))
"""The fields ``Response`` requires that name the answer (wire, canonical): when canonical
has none, ``""`` or the current time is written, reported."""

PLACEHOLDERS: tuple[tuple[str, object], ...] = (
    ("object", OBJECT),
    ("parallel_tool_calls", True),
    ("tool_choice", "auto"),
    ("tools", []),
)
"""The other fields ``Response`` requires, with what is written when the answer has none:
the constant ``object``, and the request settings it echoes as a request that set none
echoes them (the API's defaults: nothing the answer held is made up, so no loss)."""

_TOOL_CALLS = ("function_call", "custom_tool_call")


def raise_error_body(payload: dict[str, Any]) -> None:
    """An error body (``{"error": {...}}`` with no ``output``, what a 4xx/5xx carries)
    raises :class:`~chatcodec.ProviderAPIError` with the provider's message and type."""
    if "error" in payload and "output" not in payload:
        raise_openai_error(payload, KIT.name)


def decode_response(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read a response body into canonical response data; everything without a canonical
    field is kept."""
    raise_error_body(payload)
    wire = RESPONSE.front(payload)
    if wire is not None:
        return decode_response_dict(wire)
    # the adapter says why, or takes a value canonical cannot hold (as request._held)
    from chatcodec import ChatResponse
    from chatcodec.codec_kit import validate_canonical

    canonical = decode_response_dict(adapted(RESPONSE, payload, "OpenAI Responses response"))
    validate_canonical(ChatResponse, canonical)
    return canonical


def decode_response_dict(wire: dict[str, Any]) -> dict[str, Any]:
    """The canonical response (as a dict) for a validated body; the stream decoder uses it
    for the response a terminal event carries."""
    mapped = ["output", "status", "usage"]
    data: dict[str, Any] = {}
    for wire_key, key in (("id", "id"), ("model", "model"), ("created_at", "created")):
        if isinstance(wire.get(wire_key), str | int) and not isinstance(wire.get(wire_key), bool):
            data[key] = wire[wire_key]
            mapped.append(wire_key)
    if wire.get("object") == OBJECT:
        mapped.append("object")
    output = wire["output"]
    calls = SealedCalls()
    parts = [part for position, item in enumerate(output) for part in decode_item(item, ("output", position), calls)]
    choice: dict[str, Any] = {"index": 0, "message": {"role": "assistant", "content": parts}}
    tokens = take_answer_logprobs(parts)
    if tokens is not None:
        choice["logprobs"] = tokens
    bag = split_fields(wire, mapped)
    details = as_dict(wire.get("incomplete_details")) or {}
    tool_calls = any(item.get("type") in _TOOL_CALLS for item in output)
    finish_reason = decode_finish_reason(
        wire.get("status"), bag, incomplete_reason=details.get("reason"), has_tool_calls=tool_calls
    )
    if finish_reason is not None:
        choice["finish_reason"] = finish_reason
        if finish_reason["raw"] == details.get("reason") and set(details) == {"reason"}:
            bag.pop("incomplete_details")
    data["choices"] = [choice]
    if isinstance(wire.get("usage"), dict):
        data["usage"] = decode_usage(wire["usage"])
    mark_absent(bag, wire, *(key for key, _ in ANSWER_NAMES), *(key for key, _ in PLACEHOLDERS), "status")
    return KIT.attach(data, bag)


def encode_response(response: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Write canonical response data as a body; what Responses cannot carry is recorded in
    ``context.losses``."""
    losses = context.losses
    KIT.report_foreign(losses, response.get("provider_metadata"), ())
    bag = KIT.own(response.get("provider_metadata"))
    left_out = absent_keys(bag)
    wire = restore_fields(bag)
    served = server_fields(context)
    for wire_key, key in ANSWER_NAMES:
        if response.get(key) is not None:
            wire[wire_key] = response[key]
        elif wire_key not in wire and wire_key not in left_out:
            # Another format may have no creation time (Anthropic, Gemini): stamped now, as
            # openai-chat's ``created`` is, so a client never reads 1970.
            wire[wire_key] = int(time.time()) if key == "created" else ""
            if served is None or wire_key not in served:  # a server answering gives its own
                report_invented(
                    losses, (key,), wire_key, "a Responses Response", INVENTED_TIME if key == "created" else ""
                )
    for key, placeholder in PLACEHOLDERS:
        if key not in left_out:
            wire.setdefault(key, placeholder)
    choices = response["choices"]
    for index in range(1, len(choices)):
        losses.add(("choices", index), "extra choice", "a Responses response holds one answer")
    choice = choices[0]
    why = "a Responses answer is its output items: the decoder keeps no choice bag"
    KIT.report_unplaced(losses, choice.get("provider_metadata"), ("choices", 0), why)
    response_id = served.get("id") if served is not None else None
    sealing = sealing_of(context.options)
    output = encode_output(choice["message"], losses, response_id or response.get("id"), sealing=sealing)
    wire["output"] = place_answer_logprobs(output, choice.get("logprobs"), losses, ("choices", 0))
    finish_reason = choice.get("finish_reason")
    status = encode_finish_reason(finish_reason, bag, context, ("choices", 0, "finish_reason"))
    reason = incomplete_reason(finish_reason, bag)
    if "status" not in left_out or finish_reason is not None:
        wire["status"] = status
    if reason is not None:
        wire["incomplete_details"] = {**(as_dict(wire.get("incomplete_details")) or {}), "reason": reason}
    if response.get("usage") is not None:
        wire["usage"] = encode_usage(response["usage"], context, ("usage",))
    return wire if served is None else as_served(wire, served)


ANSWER_FIELDS = ("error", "incomplete_details", "usage")
"""What a ``ResponseResource`` requires of the answer itself, null when it has none."""


def server_fields(context: EncodeContext) -> Mapping[str, Any] | None:
    """The ``server_fields`` option: the fields of a server answering the request itself."""
    fields = context.option(SERVER_FIELDS)
    return cast("Mapping[str, Any]", fields) if isinstance(fields, Mapping) else None


def as_served(wire: dict[str, Any], fields: Mapping[str, Any]) -> dict[str, Any]:
    """``wire`` as the server answering the request returns it: the Open Responses
    ``ResponseResource``, whose every field is required (some may be null). The server's
    fields (its ``resp_`` id, the request's settings echoed) go over the converted
    answer; ``completed_at`` is now when the answer completed, null otherwise; the
    answer's own ``error``, ``incomplete_details`` and ``usage`` are null when absent."""
    wire.update(fields)
    wire["completed_at"] = int(time.time()) if wire.get("status") == "completed" else None
    for key in ANSWER_FIELDS:
        wire.setdefault(key, None)
    return wire


def encode_output(
    message: Mapping[str, Any],
    losses: LossRecorder,
    response_id: str | None = None,
    *,
    sealing: Sealing | None = None,
) -> list[dict[str, Any]]:
    """The ``output`` items for the answer (``sealing``: the ``encrypted_reasoning`` option)."""
    at = ("choices", 0, "message")
    return encode_assistant(message, losses, at, for_request=False, response_id=response_id, sealing=sealing)
