"""Hugging Face chat-template tool calls: calls without ids, results named, not paired.

Transformers' chat templates take an assistant turn's calls as ``{"type": "function",
"function": {"name", "arguments"}}`` with ``arguments`` a JSON object and no id, and a
result as ``{"role": "tool", "name", "content"}``
(https://huggingface.co/docs/transformers/chat_extras#tools, "Tool use"); TRL's
tool-calling datasets keep the same shapes (https://huggingface.co/docs/trl/dataset_formats).
OpenAI's shapes pair each result with its call by id, so reading such a conversation makes
the ids up from each call's place (``hf_call_<message>_<call>``: the same row gives the
same ids) and reports each one; a result answers the waiting call of its ``name``, else
the first waiting call. Writing Hugging Face rows leaves those made-up ids out again.
Arguments given as an object are read as its JSON text (what OpenAI's shapes hold, so an
OpenAI Chat body written from them is one OpenAI takes) and written back as the object.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

from chatcodec._losses import Loss
from chatcodec._narrow import as_dict, as_list, is_dict

SYNTHETIC_ID: Final = "hf_call_"
"""The prefix of the call ids made up for calls that came without one."""
_SYNTHETIC = re.compile(r"hf_call_\d+_\d+")


def object_arguments(messages: list[Any]) -> bool:
    """Whether a call of ``messages`` gives its arguments as an object (Hugging Face's spelling)."""
    return call_forms(messages)[0]


def call_forms(messages: list[Any]) -> tuple[bool, bool]:
    """Whether a call of ``messages`` gives its arguments as an object (:func:`object_arguments`),
    and whether a call has no id or a result no ``tool_call_id`` (:func:`needs_call_ids`): both
    in one walk, with loops, no generator frame a message or call."""
    objects = missing = False
    for message in messages:
        fields = as_dict(message)
        if fields is None:
            continue
        result = fields.get("role") == "tool"
        if result and "tool_call_id" not in fields:
            missing = True
        for call in as_list(fields.get("tool_calls")) or ():
            if not is_dict(call):
                continue
            if not result and "id" not in call:
                missing = True
            function = as_dict(call.get("function"))
            if function is not None and is_dict(function.get("arguments")):
                objects = True
    return objects, missing


def is_made_up(call_id: object) -> bool:
    """Whether ``call_id`` is one :func:`with_call_ids` made up."""
    return isinstance(call_id, str) and call_id.startswith(SYNTHETIC_ID) and _SYNTHETIC.fullmatch(call_id) is not None


def with_call_ids(messages: list[Any], path: str, notes: list[Loss]) -> list[Any]:
    """``messages`` with an id on every call and a ``tool_call_id`` on every result; each id
    made up is a ``metadata`` note in ``notes``."""
    objects, missing = call_forms(messages)
    if objects:
        messages = [_with_text_arguments(message) for message in messages]
    if not missing:  # the arguments' text changes no id
        return messages
    waiting: list[tuple[str, object]] = []
    read: list[Any] = []
    for index, message in enumerate(messages):
        fields = as_dict(message)
        if fields is None:
            read.append(message)
            continue
        calls = as_list(fields.get("tool_calls"))
        if fields.get("role") == "assistant" and calls:
            fields = {
                **fields,
                "tool_calls": [_with_id(call, index, number, path, notes) for number, call in enumerate(calls)],
            }
            waiting += [(str((as_dict(call) or {}).get("id")), _name(call)) for call in fields["tool_calls"]]
        elif fields.get("role") == "tool" and "tool_call_id" not in fields and waiting:
            named = [place for place, (_, name) in enumerate(waiting) if name == fields.get("name")]
            call_id, _ = waiting.pop(named[0] if named else 0)
            fields = {**fields, "tool_call_id": call_id}
        read.append(fields)
    return read


def _with_text_arguments(message: object) -> object:
    fields = as_dict(message)
    calls = None if fields is None else as_list(fields.get("tool_calls"))
    if fields is None or not calls:
        return message
    read: list[Any] = []
    for call in calls:
        function = as_dict((as_dict(call) or {}).get("function"))
        arguments = None if function is None else function.get("arguments")
        if function is None or not isinstance(arguments, dict):
            read.append(call)
            continue
        text = json.dumps(arguments, ensure_ascii=False)
        read.append({**(as_dict(call) or {}), "function": {**function, "arguments": text}})
    return {**fields, "tool_calls": read}


def needs_call_ids(messages: list[Any]) -> bool:
    """Whether a call of ``messages`` has no id, or a result no ``tool_call_id``."""
    return call_forms(messages)[1]


def _name(call: object) -> object:
    return (as_dict((as_dict(call) or {}).get("function")) or {}).get("name")


def _with_id(call: object, index: int, number: int, path: str, notes: list[Loss]) -> object:
    fields = as_dict(call)
    if fields is None or "id" in fields:
        return call
    why = "Hugging Face chat-template calls have none: made up from the call's place"
    notes.append(Loss(f"{path}[{index}].tool_calls[{number}].id", "tool call id", why, "metadata"))
    return {"id": f"{SYNTHETIC_ID}{index}_{number}", **fields}


def without_made_up_ids(messages: list[Any], losses: list[Loss], *, objects: bool) -> list[Any]:
    """Messages as a chat template takes them: the made-up ids left out and, with
    ``objects``, JSON-text arguments written as their object (a ``spelling`` loss when the
    text is not the object's own JSON text, which reading gives back)."""
    written: list[Any] = []
    for index, message in enumerate(messages):
        fields = as_dict(message)
        if fields is None:
            written.append(message)
            continue
        if is_made_up(fields.get("tool_call_id")):
            fields = {key: value for key, value in fields.items() if key != "tool_call_id"}
        calls = as_list(fields.get("tool_calls"))
        if calls:
            at = f"$.messages[{index}].tool_calls"
            fields = {
                **fields,
                "tool_calls": [
                    _template_call(call, f"{at}[{number}]", losses, objects) for number, call in enumerate(calls)
                ],
            }
        written.append(fields)
    return written


def _template_call(call: object, path: str, losses: list[Loss], objects: bool) -> object:
    fields = as_dict(call)
    if fields is None:
        return call
    if is_made_up(fields.get("id")):
        fields = {key: value for key, value in fields.items() if key != "id"}
    function = as_dict(fields.get("function"))
    text = None if function is None else function.get("arguments")
    if not objects or function is None or not isinstance(text, str):
        return fields
    try:
        parsed: object = json.loads(text)
    except ValueError:
        return fields  # not JSON: the model's text, kept as it is
    if as_dict(parsed) is None:
        return fields
    if json.dumps(parsed, ensure_ascii=False) != text:
        why = "chat templates take arguments as an object: its JSON text comes back spaced as json.dumps spaces it"
        losses.append(Loss(f"{path}.function.arguments", "arguments text", why, "spelling"))
    return {**fields, "function": {**function, "arguments": parsed}}
