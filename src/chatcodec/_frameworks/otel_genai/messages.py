"""The conventions' messages (``{"role", "parts", "name"?}``) <-> canonical messages.

A message's ``tool_call_response`` parts are the canonical tool message's results, whatever
role carried them (the conventions pair them with ``tool``; pydantic-ai's default
instrumentation sends them as ``user``, with any retry prompt beside them): they are read as a
tool message, the message's other parts as a message of its role after it, both marked so the
writer puts them back in one. A message with one plain text part reads as its text; a role the
canonical vocabulary lacks rides in the message's bag (read as ``user``; ``model``, Gemini's,
as ``assistant``). Parts a role cannot hold in canonical data (a call in a user turn) are kept
whole as opaque parts; a built-in tool's call and response are the model's own, never a
client's result (:mod:`.server_calls`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec._frameworks.otel_genai.markers import KIT
from chatcodec._frameworks.otel_genai.parts import decode_part, encode_part, finish, opaque
from chatcodec._frameworks.otel_genai.results import decode_result, encode_result
from chatcodec._frameworks.otel_genai.server_calls import call_names, is_server_part
from chatcodec.codec_kit import wire_fields
from chatcodec.contract import EncodeContext, Steps

_ROLES = frozenset({"system", "user", "assistant", "tool", "developer"})
_HOLDS = {
    "system": frozenset({"text"}),
    "developer": frozenset({"text"}),
    "user": frozenset({"text", "image", "audio", "video", "document"}),
    "assistant": frozenset({"text", "thinking", "tool_use", "image", "audio"}),
}
"""What each canonical role's content holds besides opaque parts (``_model/messages.py``)."""

_MODEL_ROLES = {"assistant": "assistant", "model": "assistant"}
"""The roles of the model's turn: ``model`` is Gemini's, which the Vertex AI and Google GenAI
instrumentations write as they find it (opentelemetry-python-contrib's
``opentelemetry-instrumentation-vertexai`` and ``-google-genai`` tests); kept in the message's
bag, so it is written back as it came."""

_WRITTEN_ROLES = {"system": "system", "developer": "system", "user": "user", "assistant": "assistant", "tool": "tool"}
"""The role each canonical role is written as (a developer message as system, reported by the
shared history rules as every format without the role reports it)."""


def decode_messages(wire: Sequence[Mapping[str, Any]], **markers: object) -> list[dict[str, Any]]:
    """Conventions messages (checked by :mod:`.wire`) as canonical message dicts, each marked
    with ``markers``."""
    messages: list[dict[str, Any]] = []
    for message in wire:
        messages.extend(decode_message(message, **markers))
    return messages


def decode_message(message: Mapping[str, Any], **markers: object) -> list[dict[str, Any]]:
    """One message as the canonical messages it stands for (a tool message first when it
    holds results, then the rest of its parts)."""
    role: str = message["role"]
    parts: list[dict[str, Any]] = message["parts"]
    results = [part for part in parts if _client_result(part)] if role not in _MODEL_ROLES else []
    read: list[dict[str, Any]] = []
    if results:
        tool = {"role": "tool", "content": [decode_result(part) for part in results]}
        read.append(finish(tool, {}, (), role=role if role != "tool" else None, **markers))
        if len(results) == len(parts):
            _keep_fields(read[-1], message)
            return read
        parts = [part for part in parts if not _client_result(part)]
    canonical_role = _MODEL_ROLES.get(role) or (role if role in _ROLES and role != "tool" else "user")
    written: dict[str, Any] = {"role": canonical_role, "content": role_content(parts, canonical_role)}
    if isinstance(message.get("name"), str):
        written["name"] = message["name"]
    spelt = {"no_parts": not parts or None, "continues": bool(results) or None}
    read.append(finish(written, message, ("role", "parts", "name"), **spelt, **markers))
    if canonical_role != role and not results:  # a role canonical lacks: the message's data
        read[-1].setdefault("provider_metadata", {}).setdefault(KIT.name, {})["role"] = role
    return read


def _client_result(part: Mapping[str, Any]) -> bool:
    """Whether a part is a client tool's result (a built-in tool's is the model's own)."""
    return part["type"] == "tool_call_response" and not is_server_part(part)


def _keep_fields(canonical: dict[str, Any], message: Mapping[str, Any]) -> None:
    """A results-only message's own fields (a name, unknown keys) in its tool message's bag."""
    kept = finish({}, message, ("role", "parts"))
    if "provider_metadata" in kept:
        own = canonical.setdefault("provider_metadata", {}).setdefault(KIT.name, {})
        own.update(kept["provider_metadata"][KIT.name])


def role_content(wire: list[dict[str, Any]], role: str) -> str | list[dict[str, Any]]:
    """Parts as a ``role`` message's canonical content: one plain text part as its text, no
    parts as empty text; a part the role cannot hold kept whole."""
    holds = _HOLDS[role]
    names = call_names(wire)
    parts = [
        decoded if decoded["type"] in holds or decoded["type"] == "opaque" else opaque(part)
        for part in wire
        for decoded in [decode_part(part, names)]
    ]
    if not parts:
        return ""
    if len(parts) == 1 and parts[0]["type"] == "text" and len(parts[0]) == 2:
        text: str = parts[0]["text"]
        return text
    return parts


def encode_messages(messages: Sequence[Mapping[str, Any]], context: EncodeContext, at: Steps) -> list[dict[str, Any]]:
    """Canonical messages as conventions messages (a tool message and the rest of the message
    it was read from as one), named in losses from ``at`` (the first message's path)."""
    written: list[dict[str, Any]] = []
    *prefix, first = at
    after_results = False
    for offset, message in enumerate(messages):
        wire = encode_message(message, context, (*prefix, int(first) + offset))
        if after_results and KIT.marker(message.get("provider_metadata"), "_continues"):
            written[-1]["parts"].extend(wire["parts"])
            written[-1].update((key, value) for key, value in wire.items() if key not in ("role", "parts"))
            after_results = False
            continue
        after_results = message["role"] == "tool"
        written.append(wire)
    return written


def encode_message(message: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    """One canonical message as a conventions message."""
    bag = KIT.claim(context.losses, message.get("provider_metadata"), at)
    role = message["role"]
    content = message.get("content", "")
    if role not in _WRITTEN_ROLES:
        why = f"the GenAI conventions' roles are system, user, assistant and tool: a {role} message is sent as user"
        context.losses.add((*at, "role"), f"{role} role", why)
    wire: dict[str, Any] = {"role": bag.pop("_role", None) or bag.pop("role", None) or _WRITTEN_ROLES.get(role, "user")}
    if isinstance(content, str):
        parts = [] if bag.get("_no_parts") and not content else [{"type": "text", "content": content}]
    elif role == "tool":
        parts = [encode_result(result, context, (*at, "content", index)) for index, result in enumerate(content)]
    else:
        written = (encode_part(part, context, (*at, "content", index)) for index, part in enumerate(content))
        parts = [part for part in written if part is not None]
        report_list(content, context, at)
    wire["parts"] = parts
    if message.get("name") is not None:
        wire["name"] = message["name"]
    if message.get("cache_control") is not None:
        context.losses.add(
            (*at, "cache_control"), "cache_control", "the GenAI conventions have no cache marker", "setting"
        )
    wire.update(wire_fields(bag))
    return wire


def report_list(content: Sequence[Mapping[str, Any]], context: EncodeContext, at: Steps) -> None:
    """A list a reader gives back as text (no parts, or one plain text part): a spelling loss."""
    plain = len(content) == 1 and content[0]["type"] == "text" and len(content[0]) == 2
    if not content or plain:
        why = "a GenAI message of one text part (or none) reads back as text"
        context.losses.add((*at, "content"), "content list", why, "spelling")
