"""The ``Interaction`` resource <-> canonical responses.

An Interaction is one answer: its ``steps`` (the model's, since the steps schema is the
default: 2026-05-20) are the assistant message's parts (:mod:`.messages`), its ``status``
the finish reason (:mod:`.finish_reason`), its ``usage`` the counts (:mod:`.usage`). The
request's settings it echoes (``input``, ``tools``, ``generation_config``, ...), ``created``
and ``updated``, ``errors`` and every other field ride in the response bag, and so do the
``user_input`` steps it echoes (the caller's turn, not the model's: ``_echoed_turns``). A body of
``{"error": {...}}`` (Google's error shape) is the API's error, raised as a
:class:`~chatcodec.ProviderAPIError`, never read as an answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from chatcodec import ProviderAPIError
from chatcodec._providers.gemini_interactions.finish_reason import decode_finish_reason, encode_finish_reason
from chatcodec._providers.gemini_interactions.markers import DISPLAY, ECHOED_TURNS, KIT, SERVER_FIELDS, STATUS
from chatcodec._providers.gemini_interactions.messages import decode_model_step, encode_model_parts
from chatcodec._providers.gemini_interactions.usage import decode_usage, encode_usage
from chatcodec._providers.gemini_interactions.wire import ErrorBody, Interaction, is_error_body, validated
from chatcodec.codec_kit import as_list, leftovers, wire_fields
from chatcodec.contract import DecodeContext, EncodeContext

MAPPED = ("id", "model", "status", "steps", "usage")
"""Response fields with a canonical home."""

NO_PART_DATA = "an empty text is no content of an Interaction: its data has no place"
"""Why an empty text's bag is reported."""

NO_CHOICE_DATA = "an Interaction is one answer: it has no place for a choice's or a message's own data"
"""Why a choice's or message's bag is reported (this decoder writes none: the Interaction's
other fields are the response's)."""


def _empty_text(part: Mapping[str, Any]) -> bool:
    return part["type"] in ("text", "refusal") and part["text"] == ""


def raise_if_error(payload: object) -> None:
    """Raise :class:`~chatcodec.ProviderAPIError` when ``payload`` is an error body."""
    if is_error_body(payload):
        error = validated(ErrorBody, payload, f"{DISPLAY} error")["error"]
        kind = error.get("status")
        raise ProviderAPIError(error["message"], kind if isinstance(kind, str) else None, payload, provider=KIT.name)


def decode_response(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read an Interaction as a canonical response (one choice)."""
    raise_if_error(payload)
    response = validated(Interaction, payload, f"{DISPLAY} response")
    del context
    steps = response.get("steps", [])
    echoed = [[index, step] for index, step in enumerate(steps) if step["type"] == "user_input"]
    parts = [part for step in steps if step["type"] != "user_input" for part in decode_model_step(step)]
    choice: dict[str, Any] = {"index": 0, "message": {"role": "assistant", "content": parts}}
    bag = leftovers(response, MAPPED)
    if echoed:  # the caller's turn, not the answer's: in the bag, so a replayed answer holds no second user turn
        bag[ECHOED_TURNS] = echoed
    ends_on_call = bool(steps) and steps[-1]["type"] == "function_call"
    reason = decode_finish_reason(response["status"], bag, ends_on_call=ends_on_call)
    if reason is not None:
        choice["finish_reason"] = reason
    # an empty id stands for none, as on a stream's first event (whose id the SDK requires)
    canonical: dict[str, Any] = {key: response[key] for key in ("id", "model") if response.get(key)}
    canonical["choices"] = [choice]
    if "usage" in response:
        canonical["usage"] = decode_usage(response["usage"])
    return KIT.attach(canonical, bag)


def encode_response(response: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Write a canonical response as an Interaction: its first choice (another is a loss)."""
    losses = context.losses
    wire = wire_fields(KIT.claim(losses, response.get("provider_metadata"), ()))
    written: dict[str, Any] = {key: response[key] for key in ("id", "model") if response.get(key)}
    for key in ("id", "model"):
        if response.get(key) == "":  # read back as none (decode_response): said, not sent
            losses.add((key,), f"an empty {key}", f"an {DISPLAY} Interaction's empty {key} stands for none")
    choices = response["choices"]
    for index in range(1, len(choices)):
        losses.add(("choices", index), f"answer {index}", f"an {DISPLAY} Interaction holds one answer")
    first: Mapping[str, Any] = choices[0] if choices else {"message": {"role": "assistant", "content": []}}
    at = ("choices", 0)
    KIT.report_unplaced(losses, first.get("provider_metadata"), at, NO_CHOICE_DATA)
    message: Mapping[str, Any] = first["message"]
    KIT.report_unplaced(losses, message.get("provider_metadata"), (*at, "message"), NO_CHOICE_DATA)
    content = message["content"]
    parts: list[Mapping[str, Any]] = [{"type": "text", "text": content}] if isinstance(content, str) else content
    status = {STATUS: KIT.marker(response.get("provider_metadata"), STATUS)}
    written["status"] = encode_finish_reason(first.get("finish_reason"), status, context, (*at, "finish_reason"))
    said: list[Mapping[str, Any]] = []
    for index, part in enumerate(parts):
        if _empty_text(part):  # says nothing, as a stream of it sends nothing: only its data is reported
            KIT.report_unplaced(losses, part.get("provider_metadata"), (*at, "message", "content", index), NO_PART_DATA)
        else:
            said.append(part)
    written["steps"] = encode_model_parts(said, context, (*at, "message", "content"))
    for index, step in as_list(KIT.marker(response.get("provider_metadata"), ECHOED_TURNS)) or ():
        written["steps"].insert(index, step)
    if response.get("usage") is not None:
        written["usage"] = encode_usage(response["usage"], context, ("usage",))
    return {**written, **wire, **served_fields(context)}


def served_fields(context: EncodeContext) -> Mapping[str, Any]:
    """The ``server_fields`` option (a server answering the request itself sets them over
    the converted answer: :mod:`.server`); empty when not set."""
    fields = context.option(SERVER_FIELDS)
    return cast("Mapping[str, Any]", fields) if isinstance(fields, Mapping) else {}
