"""The ``input`` steps <-> canonical messages.

A ``user_input`` step is a user message; the model's steps in a row (``model_output``,
``thought``, ``function_call``, a built-in tool's call and result) are one assistant
message, one part each (a ``model_output`` a part per content); ``function_result`` steps
in a row are one tool message, a result each, paired with their call by ``call_id``
(https://ai.google.dev/gemini-api/docs/interactions, "Function calling"). A thought's
``signature`` is the thinking part's; its ``summary`` of one text is the part's text (any
other summary is kept whole in the part's bag). A thought of another provider is no
thought of this API: it is not sent, reported, as the Gemini folder does. ``input`` as a
string, one content or a content list is one user turn (:data:`~.markers.INPUT`).

A result's ``result`` given as a JSON object is sent back as the object, and so is a result of
another format whose text is a JSON object (the API takes ``result`` as an object, and the
model reads it as the structure it is, as the Vercel AI SDK's and Google ADK's converters send
a JSON result); a string result of this API stays a string. A ``user_input`` step inside an
answer (the server's echo of the turn it answered) is kept whole in the answer, and left out,
reported, when that answer is replayed in a request: it would be the user's turn twice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec._providers.gemini_interactions.markers import (
    DISPLAY,
    KIT,
    NEW_STEP,
    NO_CONTENT,
    OBJECT_RESULT,
    PROVIDER,
    TEXT_RESULT,
)
from chatcodec._providers.gemini_interactions.parts import decode_content, encode_part, is_step, opaque
from chatcodec.codec_kit import (
    arguments_object,
    as_dict,
    as_list,
    compact_json,
    leftovers,
    unblank_tool_name,
    wire_fields,
)
from chatcodec.contract import DecodeContext, EncodeContext, Steps

_MODEL_STEPS = frozenset({"model_output", "thought", "function_call"})
"""The model's steps read field by field (with the kept-whole ones, an assistant turn)."""

_CONTENT_STEP = ("type", "content")
_THOUGHT = ("type", "signature", "summary")
_CALL = ("type", "id", "name", "arguments")
_RESULT = ("type", "call_id", "result", "is_error", "name")


def decode_messages(steps: Sequence[Mapping[str, Any]], context: DecodeContext) -> list[dict[str, Any]]:
    """A list of steps as canonical messages."""
    del context
    messages: list[dict[str, Any]] = []
    previous = ""
    for index, step in enumerate(steps):
        kind = step["type"]
        if kind == "user_input":
            content = [decode_content(item) for item in step.get("content", [])]
            messages.append(KIT.attach({"role": "user", "content": content}, _turn_bag(step)))
        elif _empty_turn(steps, index, previous):
            messages.append(KIT.attach({"role": "assistant", "content": []}, _turn_bag(step)))
        elif kind == "function_result":
            result = decode_result(step)
            if messages and previous == kind:
                messages[-1]["content"].append(result)
            else:
                messages.append({"role": "tool", "content": [result]})
        else:
            if not (messages and messages[-1]["role"] == "assistant" and previous != "user_input"):
                messages.append({"role": "assistant", "content": []})
            parts = messages[-1]["content"]
            new = decode_model_step(step)
            if kind == "model_output" and previous == "model_output" and new:
                new[0] = KIT.attach(new[0], {**KIT.own(new[0].get("provider_metadata")), NEW_STEP: True})
            parts.extend(new)
        previous = kind
    for message in messages:
        message["content"] = _laid_out(message["content"])
    return messages


def _turn_bag(step: Mapping[str, Any]) -> dict[str, Any]:
    """What a ``user_input`` or ``model_output`` step holds beside its content, and whether it
    came without one."""
    bag = leftovers(step, _CONTENT_STEP)
    if "content" not in step:
        bag[NO_CONTENT] = True
    return bag


def _empty_turn(steps: Sequence[Mapping[str, Any]], index: int, previous: str) -> bool:
    """Whether ``steps[index]`` is a ``model_output`` step of no content that is a model turn
    alone (no model step before or after it): an assistant message with nothing in it."""
    step = steps[index]
    if step["type"] != "model_output" or step.get("content") or set(step) - set(_CONTENT_STEP):
        return False
    following = steps[index + 1]["type"] if index + 1 < len(steps) else "user_input"
    return previous in ("", "user_input", "function_result") and following in ("user_input", "function_result")


def _laid_out(content: list[dict[str, Any]]) -> str | list[dict[str, Any]]:
    """One plain text is the message's text, as canonical spells a turn of text alone (the
    writer sends it back as the one text content it came as)."""
    if len(content) == 1 and content[0].keys() == {"type", "text"} and content[0]["type"] == "text":
        return str(content[0]["text"])
    return content


def decode_model_step(step: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The canonical parts of one of the model's steps (a response's too)."""
    kind = step["type"]
    if kind == "model_output":
        if set(step) - set(_CONTENT_STEP) or not step.get("content"):
            return [opaque(step)]  # an error, or no content: the step whole
        return [decode_content(item, answer=True) for item in step["content"]]
    if kind == "thought":
        return [decode_thought(step)]
    if kind == "function_call":
        call = {
            "type": "tool_use",
            "id": step["id"],
            "name": step["name"],
            "arguments": compact_json(step["arguments"]),
        }
        return [KIT.attach(call, leftovers(step, _CALL))]
    return [opaque(step)]  # a built-in tool's call or result, a user turn in an answer


def decode_thought(step: Mapping[str, Any]) -> dict[str, Any]:
    """A ``thought`` step as a thinking part of this provider."""
    bag = leftovers(step, _THOUGHT)
    summary = step.get("summary")
    text = ""
    if summary is not None:
        if len(summary) == 1 and summary[0].keys() == {"type", "text"} and summary[0]["type"] == "text":
            text = summary[0]["text"]
        else:
            text = "".join(item.get("text", "") for item in summary if item.get("type") == "text")
            bag["summary"] = summary
    part: dict[str, Any] = {"type": "thinking", "text": text, "provider": PROVIDER}
    if "signature" in step:
        part["signature"] = step["signature"]
    return KIT.attach(part, bag)


def decode_result(step: Mapping[str, Any]) -> dict[str, Any]:
    """A ``function_result`` step as a canonical tool result."""
    result: object = step["result"]
    bag = leftovers(step, _RESULT)
    items = as_list(result)
    content: Any = result
    if as_dict(result) is not None:
        content = compact_json(result)
        bag[OBJECT_RESULT] = True
    elif items is not None:
        content = [decode_content(item) for item in items]
    elif isinstance(result, str) and isinstance(arguments_object(result)[0], dict):
        bag[TEXT_RESULT] = True  # a string that is a JSON object's text: sent back as the string
    part: dict[str, Any] = {"type": "tool_result", "tool_use_id": step["call_id"], "content": content}
    if step.get("is_error"):
        part["is_error"] = True
    elif "is_error" in step:
        bag["is_error"] = step["is_error"]
    if "name" in step:
        part["name"] = step["name"]
    return KIT.attach(part, bag)


def encode_messages(messages: Sequence[Mapping[str, Any]], start: int, context: EncodeContext) -> list[dict[str, Any]]:
    """``messages[start:]`` as steps."""
    steps: list[dict[str, Any]] = []
    for index, message in enumerate(messages[start:], start):
        at: Steps = ("messages", index)
        role = message["role"]
        report_message_fields(message, context, at)
        if role == "assistant" and message["content"] == []:
            steps.append(_empty_step("model_output", message, context, at))
        elif role == "assistant":
            KIT.report_foreign(context.losses, message.get("provider_metadata"), at)
            steps.extend(encode_model_parts(_parts(message["content"]), context, (*at, "content"), answer=False))
        elif role == "tool":
            KIT.report_foreign(context.losses, message.get("provider_metadata"), at)
            steps.extend(encode_result(part, context, (*at, "content", n)) for n, part in enumerate(message["content"]))
        else:
            if role != "user":
                context.losses.add(at, f"{role} message", f"{DISPLAY} takes one system_instruction; sent as user input")
            steps.append(encode_user(message, context, at))
    return steps


def report_message_fields(message: Mapping[str, Any], context: EncodeContext, at: Steps) -> None:
    """A message's ``name`` and ``cache_control``: a step has neither."""
    if message.get("name") is not None:
        context.losses.add((*at, "name"), "participant name", f"{DISPLAY} steps have no name")
    if message.get("cache_control") is not None:
        context.losses.add((*at, "cache_control"), "cache_control", f"{DISPLAY} has no cache breakpoints", "setting")


def _parts(content: str | Sequence[Mapping[str, Any]]) -> Sequence[Mapping[str, Any]]:
    return [{"type": "text", "text": content}] if isinstance(content, str) else content


def _empty_step(kind: str, message: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    """A turn with nothing in it as a step of no content (without ``content`` when it came so)."""
    bag = KIT.claim(context.losses, message.get("provider_metadata"), at)
    return {"type": kind, **({} if bag.get(NO_CONTENT) else {"content": []}), **wire_fields(bag)}


def encode_user(message: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    """A user (or misplaced system) message as a ``user_input`` step."""
    if message["content"] == []:
        return _empty_step("user_input", message, context, at)
    step = wire_fields(KIT.claim(context.losses, message.get("provider_metadata"), at))
    content = [encode_part(part, context, (*at, "content", n)) for n, part in enumerate(_parts(message["content"]))]
    return {"type": "user_input", "content": [item for item in content if item is not None], **step}


def encode_model_parts(
    parts: Sequence[Mapping[str, Any]], context: EncodeContext, at: Steps, *, answer: bool = True
) -> list[dict[str, Any]]:
    """An assistant message's parts as the model's steps: a response's ``steps`` (``answer``),
    or a request's history, where a ``user_input`` step an answer echoed is left out."""
    steps: list[dict[str, Any]] = []
    output: list[dict[str, Any]] | None = None
    for index, part in enumerate(parts):
        where = (*at, index)
        kind = part["type"]
        if (
            not answer
            and kind == "opaque"
            and part["provider"] == PROVIDER
            and part["data"].get("type") == "user_input"
        ):
            why = "an answer's echo of the turn it answered; replayed, it would be the user's turn twice"
            context.losses.add(where, "user_input step", why)
        elif kind == "thinking":
            output = None
            thought = encode_thought(part, context, where)
            if thought is not None:
                steps.append(thought)
        elif kind == "tool_use":
            output = None
            steps.append(encode_call(part, context, where))
        elif kind == "opaque" and part["provider"] == PROVIDER and is_step(part["data"]):
            output = None
            steps.append(dict(part["data"]))
        else:
            new_step = KIT.marker(part.get("provider_metadata"), NEW_STEP)
            content = encode_part(part, context, where)
            if content is None:  # not carried, reported: no step of nothing
                continue
            if output is None or new_step:
                output = []
                steps.append({"type": "model_output", "content": output})
            output.append(content)
    return steps


def encode_thought(part: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any] | None:
    """A thinking part as a ``thought`` step (None: another provider's, reported)."""
    if part.get("provider") != PROVIDER:
        source = part.get("provider") or "an unknown provider"
        context.losses.add(at, "thinking", f"reasoning from {source} is not a {DISPLAY} thought; not sent")
        return None
    if part.get("cache_control") is not None:
        context.losses.add((*at, "cache_control"), "cache_control", f"{DISPLAY} has no cache breakpoints", "setting")
    step: dict[str, Any] = {"type": "thought"}
    if part.get("signature") is not None:
        step["signature"] = part["signature"]
    bag = wire_fields(KIT.claim(context.losses, part.get("provider_metadata"), at))
    if "summary" not in bag and part["text"]:
        step["summary"] = [{"type": "text", "text": part["text"]}]
    if part.get("encrypted") is not None or part.get("redacted"):
        context.losses.add(at, "encrypted thinking", f"{DISPLAY} thoughts carry a signature and a summary only")
    return {**step, **bag}


def encode_call(part: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    """A tool call as a ``function_call`` step (arguments as the JSON object the API takes)."""
    bag = wire_fields(KIT.claim(context.losses, part.get("provider_metadata"), at))
    if part.get("cache_control") is not None:
        context.losses.add((*at, "cache_control"), "cache_control", f"{DISPLAY} has no cache breakpoints", "setting")
    arguments, exact = arguments_object(part["arguments"] or "{}")
    if not isinstance(arguments, dict):
        why = f"{DISPLAY} takes a call's arguments as a JSON object; sent as {{}}"
        context.losses.add((*at, "arguments"), "tool arguments", why)
        arguments = {}
    elif not exact:
        context.losses.add((*at, "arguments"), "tool arguments", f"{DISPLAY} takes them as a JSON object, re-spelled")
    if part.get("kind", "function") != "function":
        context.losses.add((*at, "kind"), "custom tool call", f"{DISPLAY} calls functions; sent as one")
    name = unblank_tool_name(part["name"], context.losses, at, DISPLAY)
    return {"type": "function_call", "id": part["id"], "name": name, "arguments": arguments, **bag}


def encode_result(part: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    """A tool result as a ``function_result`` step, paired with its call by ``call_id``."""
    metadata = part.get("provider_metadata")
    json_object = KIT.marker(metadata, OBJECT_RESULT) or not KIT.marker(metadata, TEXT_RESULT)
    bag = wire_fields(KIT.claim(context.losses, metadata, at))
    step: dict[str, Any] = {"type": "function_result", "call_id": part["tool_use_id"]}
    if part.get("cache_control") is not None:
        context.losses.add((*at, "cache_control"), "cache_control", f"{DISPLAY} has no cache breakpoints", "setting")
    content = part["content"]
    if isinstance(content, str):
        parsed, exact = arguments_object(content) if json_object else (None, False)
        step["result"] = parsed if isinstance(parsed, dict) else content
        if isinstance(parsed, dict) and not exact:
            why = f"{DISPLAY} takes a JSON object result as the object: a repeated key or an inexact number changed"
            context.losses.add((*at, "content"), "tool result text", why)
    else:
        items = [encode_part(item, context, (*at, "content", n)) for n, item in enumerate(content)]
        step["result"] = [item for item in items if item is not None]
    if part.get("is_error"):
        step["is_error"] = True
    if part.get("name") is not None:
        step["name"] = unblank_tool_name(part["name"], context.losses, at, DISPLAY)
    return {**step, **bag}
