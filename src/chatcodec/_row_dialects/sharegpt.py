"""ShareGPT rows (LLaMA-Factory, axolotl's ``chat_template``) <-> OpenAI Chat bodies.

A row is ``{conversations: [{from, value}], system, tools, images}`` under the keys and
role names of its :class:`~chatcodec._row_dialects.layout.ConversationLayout`: calls are a
``function_call`` turn holding ``{"name", "arguments"}`` as JSON text, results an
``observation`` turn answering the calls in order, tools JSON text
(https://github.com/hiyouga/LLaMA-Factory/blob/main/data/README.md). A multimodal row's
``images`` column holds one path or URL for each ``<image>`` placeholder in its turns, in
order: each becomes an image part in place. A turn's other keys (axolotl's ``train``,
``train_detail``) are the message's own and ride on it both ways; OpenAI's per-message
``weight`` goes to the layout's training key (axolotl's ``message_field_training``) and is
a loss where the layout has none (LLaMA-Factory trains every answer).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from chatcodec._losses import Loss
from chatcodec._narrow import as_dict, as_list
from chatcodec._row_dialects.layout import ConversationLayout, TrainingRowError

SYNTHETIC_ID: Final = "sharegpt_call_"
"""The prefix of the call ids made up for a ShareGPT row, which has none."""
IMAGE_PLACEHOLDER: Final = "<image>"
"""LLaMA-Factory's image placeholder in a turn's text."""
WEIGHT: Final = "weight"
"""OpenAI fine-tuning's per-message training flag (0 or 1, on assistant messages):
https://platform.openai.com/docs/guides/supervised-fine-tuning."""
_MESSAGE_KEYS: Final = frozenset({"role", "content", "tool_calls", "tool_call_id"})
"""The message keys a ShareGPT turn places (role, text, calls; a result answers by order)."""


def read_sharegpt(
    row: Mapping[str, Any], layout: ConversationLayout, notes: list[Loss] | None = None
) -> dict[str, Any]:
    """The OpenAI Chat body of a ShareGPT row; a turn's own keys (WildChat's ``language``
    and ``toxic``, NeMo's ``label``) ride on its message, each a note in ``notes``."""
    entries = row.get(layout.messages)
    listed = as_list(entries)
    if listed is None:
        raise TrainingRowError("expected a list of messages", f"$.{layout.messages}")
    images = _images(row, layout)
    messages: list[dict[str, Any]] = []
    system = row.get(layout.system) if layout.system else None
    if isinstance(system, str) and system:
        messages.append({"role": "system", "content": system})
    pending: list[str] = []
    for index, entry in enumerate(listed):
        reading = _Reading(images, pending, messages, [] if notes is None else notes)
        messages.append(_read_turn(entry, layout, f"$.{layout.messages}[{index}]", reading))
    if images:
        raise TrainingRowError(f"{len(images)} image(s) more than the <image> placeholders", f"$.{layout.images}")
    body: dict[str, Any] = {"messages": messages}
    tools = row.get(layout.tools) if layout.tools else None
    if isinstance(tools, str) and tools:
        body["tools"] = [{"type": "function", "function": tool} for tool in json_list(tools, f"$.{layout.tools}")]
    return body


@dataclass(frozen=True, slots=True)
class _Reading:
    """What reading a row's turns carries from one turn to the next."""

    images: list[str]
    """The row's images not yet placed, in order (each ``<image>`` takes the next)."""
    pending: list[str]
    """The ids of the calls no ``observation`` has answered yet, in order."""
    messages: list[dict[str, Any]]
    """The messages read so far (a call's made-up id counts them)."""
    notes: list[Loss]
    """What reading put where the row did not have it (a turn's own key on its message)."""


def _read_turn(entry: object, layout: ConversationLayout, path: str, reading: _Reading) -> dict[str, Any]:
    """One turn of the row as an OpenAI Chat message."""
    fields = as_dict(entry)
    if fields is None:
        raise TrainingRowError("expected a message object", path)
    tag, value = fields.get(layout.role), fields.get(layout.content)
    role = layout.roles.get(tag) if isinstance(tag, str) else None
    if role is None:
        known = ", ".join(layout.roles)
        raise TrainingRowError(f"{tag!r} is no role this layout names ({known})", f"{path}.{layout.role}")
    if not isinstance(value, str):
        raise TrainingRowError("expected text", f"{path}.{layout.content}")
    own = _turn_keys(fields, layout, path, assistant=role in ("assistant", "tool_call"))
    for key in own:
        if key != WEIGHT:
            why = (
                f"a turn's own key, kept on the message as {key!r}: no chat API has such a field (a server refuses it)"
            )
            reading.notes.append(Loss(f"{path}.{key}", "turn key", why, "metadata"))
    if role == "tool_call":
        calls = _calls(value, f"{path}.{layout.content}", len(reading.messages))
        reading.pending.extend(call["id"] for call in calls)
        return {"role": "assistant", "content": None, "tool_calls": calls, **own}
    if role == "tool":
        if not reading.pending:
            raise TrainingRowError("an observation answers no function call", path, "training_orphan_result")
        return {"role": "tool", "tool_call_id": reading.pending.pop(0), "content": value, **own}
    return {"role": role, "content": _with_images(value, reading.images, f"{path}.{layout.content}"), **own}


def _turn_keys(fields: Mapping[str, Any], layout: ConversationLayout, path: str, *, assistant: bool) -> dict[str, Any]:
    """A turn's keys beyond role and content: the message's own (its training flag as
    OpenAI's ``weight`` on an answer, when the layout names one)."""
    own: dict[str, Any] = {}
    for key, value in fields.items():
        if key in (layout.role, layout.content):
            continue
        if key == layout.training and assistant and isinstance(value, bool):
            own[WEIGHT] = int(value)
        elif key in _MESSAGE_KEYS:
            raise TrainingRowError(f"a turn's {key!r} would be read as the message's own", f"{path}.{key}")
        else:
            own[key] = value
    return own


def _images(row: Mapping[str, Any], layout: ConversationLayout) -> list[str]:
    value = row.get(layout.images) if layout.images else None
    if value is None:
        return []
    listed = as_list(value)
    if listed is None or not all(isinstance(image, str) for image in listed):
        raise TrainingRowError("expected a list of image paths or URLs", f"$.{layout.images}")
    return [str(image) for image in listed]


def _with_images(text: str, images: list[str], path: str) -> str | list[dict[str, Any]]:
    """A turn's text with each ``<image>`` as the next image of the row, in place."""
    if IMAGE_PLACEHOLDER not in text:
        return text
    parts: list[dict[str, Any]] = []
    for number, piece in enumerate(text.split(IMAGE_PLACEHOLDER)):
        if number:
            if not images:
                raise TrainingRowError("an <image> placeholder has no image in the images column", path)
            parts.append({"type": "image_url", "image_url": {"url": images.pop(0)}})
        if piece:
            parts.append({"type": "text", "text": piece})
    return parts


def with_row_images(body: dict[str, Any], row: Mapping[str, Any], layout: ConversationLayout) -> dict[str, Any]:
    """``body`` with each ``<image>`` in a text content as the row's next image, in place."""
    images = _images(row, layout)
    if not images:
        return body
    messages = [
        {**message, "content": _with_images(message["content"], images, f"$.messages[{index}].content")}
        if isinstance(message.get("content"), str)
        else message
        for index, message in enumerate(body["messages"])
    ]
    if images:
        raise TrainingRowError(f"{len(images)} image(s) more than the <image> placeholders", f"$.{layout.images}")
    return {**body, "messages": messages}


def json_list(text: str, path: str) -> list[Any]:
    """JSON text holding a list (or one value, as a list of it)."""
    try:
        value: object = json.loads(text)
    except ValueError:
        raise TrainingRowError("expected JSON text", path) from None
    listed = as_list(value)
    return listed if listed is not None else [value]


def _calls(text: str, path: str, index: int) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []
    for number, call in enumerate(json_list(text, path)):
        fields = as_dict(call)
        if fields is None or not isinstance(fields.get("name"), str):
            raise TrainingRowError("expected a call {name, arguments}", path)
        arguments = fields.get("arguments", {})
        calls.append(
            {
                "id": f"{SYNTHETIC_ID}{index}_{number}",
                "type": "function",
                "function": {"name": fields["name"], "arguments": json.dumps(arguments, ensure_ascii=False)},
            }
        )
    return calls


def write_sharegpt(
    body: Mapping[str, Any], messages: list[Any], layout: ConversationLayout, losses: list[Loss]
) -> dict[str, Any]:
    """A ShareGPT row from an OpenAI Chat body; what it has no place for is a loss."""
    entries: list[dict[str, Any]] = []
    images: list[str] = []
    system = _system_column(messages, layout)
    for index, message in enumerate(messages):
        if index or system is None:
            entries.extend(_write_turns(as_dict(message) or {}, f"$.messages[{index}]", layout, images, losses))
    row: dict[str, Any] = {layout.messages: entries}
    if system is not None and layout.system:
        row[layout.system] = system
    tools = as_list(body.get("tools"))
    if tools and layout.tools:
        functions = [(as_dict(tool) or {}).get("function") for tool in tools]
        row[layout.tools] = json.dumps(functions, ensure_ascii=False)
    elif tools:
        losses.append(Loss("$.tools", "tools", "this layout names no tools column", "content"))
    if images and layout.images:
        row[layout.images] = images
    return row


def _system_column(messages: list[Any], layout: ConversationLayout) -> str | None:
    """The text of the system column: a leading system message's, when the layout has the
    column (a system message with keys of its own stays a turn)."""
    fields = (as_dict(messages[0]) or {}) if messages else {}
    content = fields.get("content")
    if (
        fields.get("role") in ("system", "developer")
        and layout.system
        and isinstance(content, str)
        and len(fields) == 2
    ):
        return content
    return None


def _write_turns(
    fields: Mapping[str, Any], path: str, layout: ConversationLayout, images: list[str], losses: list[Loss]
) -> list[dict[str, Any]]:
    """One message as ShareGPT turns: its text, then its calls as a ``function_call`` turn
    (the message's own keys on the first of them)."""
    entries: list[dict[str, Any]] = []
    text = turn_text(fields.get("content"), images, layout, f"{path}.content")
    own = _own_keys(fields, layout, path, losses)
    calls = as_list(fields.get("tool_calls")) or []
    if text or not calls:
        entries.append({layout.role: layout.tag_of(str(fields.get("role"))), layout.content: text, **own})
        own = {}
    if calls:
        entries.append(
            {layout.role: layout.tag_of("tool_call"), layout.content: _calls_text(calls, path, losses), **own}
        )
    return entries


def turn_text(content: object, images: list[str], layout: ConversationLayout, path: str) -> str:
    """A message's content as a turn's text: image parts as ``<image>`` placeholders (their
    URLs to the images column), text parts joined."""
    if content is None or isinstance(content, str):
        return content or ""
    pieces: list[str] = []
    for number, part in enumerate(as_list(content) or []):
        fields = as_dict(part) or {}
        image = as_dict(fields.get("image_url"))
        if fields.get("type") == "text" and isinstance(fields.get("text"), str):
            pieces.append(str(fields["text"]))
        elif (
            fields.get("type") == "image_url"
            and image is not None
            and layout.images
            and set(fields)
            <= {
                "type",
                "image_url",
            }
        ):
            pieces.append(IMAGE_PLACEHOLDER)
            images.append(str(image.get("url")))
        else:
            raise TrainingRowError(
                f"{layout.messages} rows hold text and images only, not a {fields.get('type')!r} part",
                f"{path}[{number}]",
            )
    return "".join(pieces)


def _own_keys(fields: Mapping[str, Any], layout: ConversationLayout, path: str, losses: list[Loss]) -> dict[str, Any]:
    """A message's keys beyond what a turn places, for its turn: ``weight`` as the layout's
    training key (a loss without one), ``name`` a loss, the rest as they are."""
    own: dict[str, Any] = {}
    for key, value in fields.items():
        if key in _MESSAGE_KEYS:
            continue
        if key == WEIGHT and layout.training:
            own[layout.training] = bool(value)
        elif key == WEIGHT:
            why = "this layout trains every answer: no per-message weight (axolotl's message_field_training is one)"
            losses.append(Loss(f"{path}.{key}", "training weight", why, "setting"))
        elif key == "name":
            losses.append(Loss(f"{path}.{key}", "message name", "ShareGPT turns have no name", "metadata"))
        else:
            own[key] = value
    return own


def _calls_text(calls: list[Any], path: str, losses: list[Loss]) -> str:
    written: list[dict[str, Any]] = []
    for number, call in enumerate(calls):
        fields = as_dict(call) or {}
        function = as_dict(fields.get("function")) or {}
        call_id = fields.get("id")
        if isinstance(call_id, str) and not call_id.startswith(SYNTHETIC_ID):
            why = "ShareGPT calls have no id: results answer calls in order"
            losses.append(Loss(f"{path}.tool_calls[{number}].id", "tool call id", why, "metadata"))
        arguments: object = function.get("arguments") or "{}"
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments)
            except ValueError:
                raise TrainingRowError("arguments are not JSON", f"{path}.tool_calls[{number}]") from None
        written.append({"name": function.get("name"), "arguments": arguments})
    return json.dumps(written[0] if len(written) == 1 else written, ensure_ascii=False)
