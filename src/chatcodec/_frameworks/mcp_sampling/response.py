"""The one reader and the one writer of ``CreateMessageResult``, over canonical data.

A result is one message (``role``, ``content``), its ``model`` and its ``stopReason``; it
has no id, no clock and no token counts, so a response converted here loses those,
reported (``created`` excepted: the server's clock is nothing a user sent). A JSON-RPC
error object (a client refusing to sample), bare or in a JSON-RPC response, is raised as a
:class:`~chatcodec.ProviderAPIError`; a result inside a JSON-RPC response is written back
inside it (:mod:`.json_rpc`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.mcp_sampling import json_rpc
from chatcodec._frameworks.mcp_sampling.finish_reason import decode_finish_reason, encode_finish_reason
from chatcodec._frameworks.mcp_sampling.markers import DISPLAY, KIT, PROVIDER
from chatcodec._frameworks.mcp_sampling.messages import decode_message, encode_message, misplaced
from chatcodec._frameworks.mcp_sampling.wire import ErrorBody, Response, is_error_body
from chatcodec.codec_kit import leftovers, problems_error, validate_shape, wire_fields
from chatcodec.contract import DecodeContext, EncodeContext

MAPPED = ("role", "content", "model", "stopReason")


def raise_if_error(payload: object) -> None:
    """Raise :class:`~chatcodec.ProviderAPIError` when ``payload`` is a JSON-RPC error object."""
    if is_error_body(payload):
        error = validate_shape(ErrorBody, payload, "MCP sampling error")
        raise KIT.api_error(error["message"], str(error["code"]), payload)  # its type read in its own namespace


def decode_response(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read a result, or the JSON-RPC response holding it, as a canonical response dict (one choice)."""
    key, body = json_rpc.result_body(payload)
    if key == "error":
        raise_if_error(body)
    canonical = json_rpc.read_inside(key, lambda: _decode_result(body, context), "MCP sampling result")
    members = json_rpc.envelope(payload, key)
    if members:
        metadata = canonical.setdefault("provider_metadata", {PROVIDER: {}})
        metadata[PROVIDER][json_rpc.ENVELOPE] = members
    return canonical


def _decode_result(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    raise_if_error(payload)
    response = validate_shape(Response, payload, "MCP sampling result")
    problems = misplaced("assistant", response["content"])  # a result is read as the model's turn
    if problems:
        raise problems_error("MCP sampling result", problems)
    message = decode_message({"role": "assistant", "content": response["content"]}, context)
    choice: dict[str, Any] = {"index": 0, "message": message}
    reason = decode_finish_reason(response.get("stopReason"), {})
    if reason is not None:
        choice["finish_reason"] = reason
    bag = leftovers(response, MAPPED)
    if response["role"] != "assistant":
        bag["role"] = response["role"]  # a result spoken as the user: written back as it came
    return KIT.attach({"model": response["model"], "choices": [choice]}, bag)


def encode_response(response: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Write a canonical response dict as a result: its first choice (another is a loss)."""
    losses = context.losses
    own = KIT.claim(losses, response.get("provider_metadata"), ())
    members = own.pop(json_rpc.ENVELOPE, None)
    wire: dict[str, Any] = {"role": "assistant", **wire_fields(own)}
    choices = response["choices"]
    for index in range(1, len(choices)):
        losses.add(("choices", index), f"answer {index}", f"{DISPLAY} results hold one answer")
    message: Mapping[str, Any] = choices[0]["message"] if choices else {"role": "assistant", "content": []}
    written = encode_message(message, context, ("choices", 0, "message"))
    wire["content"] = written["content"] if written is not None else []
    model = response.get("model")
    if model is None:
        losses.add(("model",), "model", f"{DISPLAY} results name their model; none was known, sent ''", "required")
    wire["model"] = model if model is not None else ""
    word = encode_finish_reason(
        choices[0].get("finish_reason") if choices else None, {}, context, ("choices", 0, "finish_reason")
    )
    if word is not None:
        wire["stopReason"] = word
    if response.get("id") is not None:
        losses.add(("id",), "response id", f"{DISPLAY} results have no id", "metadata")
    usage: Mapping[str, Any] = response.get("usage") or {}
    if any(count for count in usage.values() if isinstance(count, int)):
        losses.add(("usage",), "token counts", f"{DISPLAY} results have no usage", "metadata")
    return json_rpc.wrapped(members, "result", wire)
