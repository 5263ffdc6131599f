"""A conversation written as Harbor's agent trajectory (ATIF), the format
:mod:`.atif` reads back.

ATIF (Harbor's RFC 0001, ``docs/rfcs/0001-trajectory-format.md`` in laude-institute/harbor; its
models in ``src/harbor/models/trajectories/``) logs a run as ``steps`` numbered from 1: a
``system`` or ``user`` step holds its ``message``; an ``agent`` step its ``message``,
``reasoning_content``, ``tool_calls`` (``tool_call_id``, ``function_name``, ``arguments`` as an
object) and, in its ``observation.results``, the results of those calls (``source_call_id``,
``content``); a turn's token record goes in the step's ``metrics`` (``prompt_token_ids``,
``completion_token_ids``, ``logprobs``, v1.4). The input is a Hugging Face chat row (what
``--to hf-chat`` writes: arguments as objects) and the turns a trajectory row holds, so reading
the output with ``--from trajectory`` gives that row back.

What ATIF has no place for is a loss: a part that is not text (ATIF's messages are strings), a
row's ``tools``, a tool result that follows no agent step. A ``developer`` message (a Responses
API conversation's, Codex's permissions and instructions) is a ``system`` step, the step that
holds instructions, its role a ``spelling`` loss. What ATIF requires and a row does not
hold (``session_id``, the ``agent`` that ran) is written as chatcodec's and reported as a
``default`` loss, as a writer reports a required field it filled.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

from chatcodec._losses import Loss
from chatcodec._narrow import as_dict, as_list
from chatcodec._row_dialects.layout import TrainingRowError

SCHEMA_VERSION: Final = "ATIF-v1.5"
_RULE: Final = "atif_writer"


def to_atif(row: Mapping[str, Any], turns: Sequence[Mapping[str, Any]], losses: list[Loss]) -> dict[str, Any]:
    """``row`` (``messages``, ``tools``, in Hugging Face's chat shapes) with its ``turns`` as an
    ATIF trajectory; what ATIF has no place for goes into ``losses``."""
    messages = as_list(row.get("messages")) or []
    by_message = {turn["message_index"]: turn for turn in turns}
    steps: list[dict[str, Any]] = []
    for index, value in enumerate(messages):
        message = as_dict(value) or {}
        path = f"$.messages[{index}]"
        role = message.get("role")
        losses += _unplaced(message, path)
        if role == "tool":
            _result(steps, message, path, losses)
            continue
        if role == "developer":  # instructions at the developer's level: the step that holds instructions
            why = "ATIF's steps are system, user or agent: a developer message is written as a system step"
            losses.append(Loss(f"{path}.role", "developer role", why, "spelling"))
            role = "system"
        if role not in ("system", "user", "assistant"):
            raise TrainingRowError(f"ATIF steps are system, user or agent: no place for role {role!r}", path, _RULE)
        step: dict[str, Any] = {"step_id": len(steps) + 1, "source": "agent" if role == "assistant" else role}
        step["message"] = _text(message.get("content"), f"{path}.content", losses)
        if role == "assistant":
            _answer(step, message, path, losses)
            if index in by_message:
                step["metrics"] = _metrics(by_message[index])
        steps.append(step)
    if row.get("tools"):
        losses.append(Loss("$.tools", "tools", "an ATIF trajectory keeps no tool definitions", "content"))
    digest = hashlib.sha256(json.dumps(row, sort_keys=True, default=str).encode()).hexdigest()[:16]
    losses.append(Loss("$.session_id", "session_id", "ATIF requires one; the row has none: sent its digest", "default"))
    losses.append(
        Loss("$.agent", "agent", "ATIF requires the agent that ran; the row names none: sent chatcodec", "default")
    )
    return {
        "schema_version": SCHEMA_VERSION,
        "session_id": f"chatcodec-{digest}",
        "agent": {"name": "chatcodec", "version": _version()},
        "steps": steps,
    }


_PLACED: Final = frozenset({"role", "content", "reasoning_content", "tool_calls", "tool_call_id"})
"""The message fields a step holds."""


def _unplaced(message: Mapping[str, Any], path: str) -> list[Loss]:
    """A loss for each field of a message a step has no place for; a tool result's ``name`` is
    the ``function_name`` of the call it answers, which the step keeps."""
    losses: list[Loss] = []
    for key, value in message.items():
        if key in _PLACED or value is None:
            continue
        if key == "name" and message.get("role") == "tool":
            why = "an ATIF result names its call (source_call_id), whose function_name this is"
            losses.append(Loss(f"{path}.name", "result name", why, "spelling"))
        else:
            losses.append(Loss(f"{path}.{key}", key, "an ATIF step has no place for it", "metadata"))
    return losses


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("chatcodec")
    except PackageNotFoundError:  # a source tree not installed
        return "0"


def _text(content: object, path: str, losses: list[Loss]) -> str:
    """A message's content as ATIF's string: text parts joined, any other part a loss."""
    if content is None or isinstance(content, str):
        return content or ""
    texts: list[str] = []
    for index, value in enumerate(as_list(content) or []):
        part = as_dict(value) or {}
        if part.get("type") == "text" and isinstance(part.get("text"), str):
            texts.append(part["text"])
        else:
            why = "an ATIF step's message is a string: only text parts have a place"
            losses.append(Loss(f"{path}[{index}]", f"{part.get('type')} part", why, "content"))
    if len(texts) > 1:
        why = "an ATIF step's message is one string: the parts are joined by a blank line"
        losses.append(Loss(path, "text parts", why, "spelling"))
    return "\n\n".join(texts)


def _answer(step: dict[str, Any], message: Mapping[str, Any], path: str, losses: list[Loss]) -> None:
    if isinstance(message.get("reasoning_content"), str):
        step["reasoning_content"] = message["reasoning_content"]
    calls = as_list(message.get("tool_calls")) or []
    if calls:
        step["tool_calls"] = [_call(call, f"{path}.tool_calls[{index}]", losses) for index, call in enumerate(calls)]


def _call(value: object, path: str, losses: list[Loss]) -> dict[str, Any]:
    call = as_dict(value) or {}
    custom = as_dict(call.get("custom"))  # a custom tool's call: its input is free text
    if custom is not None:
        function, arguments = custom, _arguments(custom.get("input"), f"{path}.custom.input", losses)
    else:
        function = as_dict(call.get("function")) or {}
        arguments = _arguments(function.get("arguments"), f"{path}.function.arguments", losses)
    if not isinstance(function.get("name"), str) or arguments is None:
        raise TrainingRowError(
            "expected a call {id, function: {name, arguments}} or {id, custom: {name, input}}", path, _RULE
        )
    call_id = call.get("id")
    if not isinstance(call_id, str):
        call_id = f"call_{path.rsplit('[', 1)[-1].rstrip(']')}"
        losses.append(Loss(f"{path}.id", "call id", "ATIF requires one; the call had none: made up", "default"))
    return {"tool_call_id": call_id, "function_name": function["name"], "arguments": arguments}


def _arguments(given: object, path: str, losses: list[Loss]) -> dict[str, Any] | None:
    """A call's arguments as ATIF's object: an object as it is, JSON text of one parsed; any other
    text (a custom tool's free input, Codex's ``apply_patch``) kept under ``input``, a loss."""
    if not isinstance(given, str):
        return as_dict(given)
    try:
        parsed = as_dict(json.loads(given))
    except ValueError:
        parsed = None
    if parsed is None:
        why = "ATIF's arguments are an object: the call's text (no JSON object) is kept under input"
        losses.append(Loss(path, "arguments text", why, "spelling"))
        return {"input": given}
    return parsed


def _result(steps: list[dict[str, Any]], message: Mapping[str, Any], path: str, losses: list[Loss]) -> None:
    """A tool message as a result of the agent step just before it."""
    if not steps or steps[-1]["source"] != "agent":
        why = "an ATIF observation answers an agent step's call; this result follows none"
        losses.append(Loss(path, "tool result", why, "content"))
        return
    content = _text(message.get("content"), f"{path}.content", losses)
    observation = steps[-1].setdefault("observation", {"results": []})
    observation["results"].append({"source_call_id": message.get("tool_call_id"), "content": content})


def _metrics(turn: Mapping[str, Any]) -> dict[str, Any]:
    metrics = {"prompt_token_ids": list(turn["prompt_ids"]), "completion_token_ids": list(turn["completion_ids"])}
    if turn.get("logprobs") is not None:
        metrics["logprobs"] = list(turn["logprobs"])
    return metrics
