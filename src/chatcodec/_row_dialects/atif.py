"""Harbor's agent trajectories (ATIF) read as ``trajectory`` rows: their messages and per-turn tokens.

The Agent Trajectory Interchange Format (Harbor's RFC 0001, ``docs/rfcs/0001-trajectory-format.md``
in laude-institute/harbor; its models in ``src/harbor/models/trajectories/``) logs an agent run
as ``steps``: a ``system``, ``user`` or ``agent`` step with its ``message``; an agent step's
``reasoning_content``, ``tool_calls`` (``tool_call_id``, ``function_name``, ``arguments`` as an
object) and ``observation.results`` (``source_call_id``, ``content``); and since v1.3/v1.4 its
``metrics.prompt_token_ids``, ``completion_token_ids`` and ``logprobs``, the record a
trajectory row's ``turns`` hold. So a trajectory is read as a row: the steps as messages in
Hugging Face's chat shapes, each agent step with token ids as a turn. What a row has no place
for (the run's ids and agent, timestamps, counts and costs, subagent references) is a loss at
its path, and the row is written back as a trajectory row, never as ATIF (a ``spelling`` loss).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from chatcodec._losses import Loss, LossKind
from chatcodec._narrow import as_dict, as_list
from chatcodec._row_dialects.layout import TrainingRowError

_RULE: Final = "atif_trajectory"
_STEP_KEYS: Final = frozenset({"source", "message", "reasoning_content", "tool_calls", "observation", "metrics"})
_TOKEN_METRICS: Final = frozenset({"prompt_token_ids", "completion_token_ids", "logprobs"})


def is_atif(row: Mapping[str, Any]) -> bool:
    """Whether ``row`` is an ATIF trajectory (``schema_version`` ``ATIF-...`` and ``steps``)."""
    version = row.get("schema_version")
    return isinstance(version, str) and version.startswith("ATIF-") and "messages" not in row


def from_atif(row: Mapping[str, Any]) -> tuple[dict[str, Any], list[Loss]]:
    """An ATIF trajectory as a trajectory row (``messages``, ``turns``), and what the row has
    no place for."""
    steps = as_list(row.get("steps"))
    if steps is None:
        raise TrainingRowError("an ATIF trajectory holds its steps as a list", "$.steps", _RULE)
    losses = [Loss("$.steps", "ATIF steps", "an ATIF trajectory is read as a trajectory row", "spelling")]
    losses += [
        Loss(f"$.{key}", key, "trajectory rows have no place for it", "metadata")
        for key in row
        if key not in ("steps", "schema_version") and row[key] not in (None, {}, "")
    ]
    messages: list[dict[str, Any]] = []
    turns: list[dict[str, Any]] = []
    for number, value in enumerate(steps):
        step = as_dict(value)
        path = f"$.steps[{number}]"
        if step is None:
            raise TrainingRowError("expected a step object", path, _RULE)
        source = step.get("source")
        if source not in ("system", "user", "agent"):
            raise TrainingRowError(f"expected source system, user or agent, not {source!r}", f"{path}.source", _RULE)
        losses += _step_losses(step, path, number)
        if source == "agent":
            messages.append(_answer(step, path))
            turn = _turn(step, len(messages) - 1, path, losses)
            if turn is not None:
                turns.append(turn)
        else:
            messages.append({"role": source, "content": _text(step.get("message"), f"{path}.message")})
        messages += _results(step, path, losses)
    return {"messages": messages, "turns": turns}, losses


def _text(value: object, path: str) -> str:
    if not isinstance(value, str):
        raise TrainingRowError("expected a string", path, _RULE)
    return value


def _answer(step: Mapping[str, Any], path: str) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": _text(step.get("message", ""), f"{path}.message")}
    if isinstance(step.get("reasoning_content"), str):
        message["reasoning_content"] = step["reasoning_content"]
    calls = as_list(step.get("tool_calls"))
    if calls:
        message["tool_calls"] = [_call(call, f"{path}.tool_calls[{index}]") for index, call in enumerate(calls)]
    return message


def _call(value: object, path: str) -> dict[str, Any]:
    call = as_dict(value)
    if call is None or not isinstance(call.get("function_name"), str) or not isinstance(call.get("tool_call_id"), str):
        raise TrainingRowError("expected a tool call {tool_call_id, function_name, arguments}", path, _RULE)
    arguments = as_dict(call.get("arguments"))
    if arguments is None:
        raise TrainingRowError("expected the arguments as an object", f"{path}.arguments", _RULE)
    function = {"name": call["function_name"], "arguments": arguments}
    return {"id": call["tool_call_id"], "type": "function", "function": function}


def _results(step: Mapping[str, Any], path: str, losses: list[Loss]) -> list[dict[str, Any]]:
    """An observation's results as tool messages; a result no call asked for (a system step's,
    an action without a call) or a subagent's reference is a loss."""
    observation = as_dict(step.get("observation"))
    if observation is None:
        return []
    results: list[dict[str, Any]] = []
    for index, value in enumerate(as_list(observation.get("results")) or []):
        result = as_dict(value) or {}
        place = f"{path}.observation.results[{index}]"
        if result.get("subagent_trajectory_ref") is not None:
            losses.append(Loss(f"{place}.subagent_trajectory_ref", "subagent trajectory", "a row holds one", "content"))
        call_id = result.get("source_call_id")
        if not isinstance(call_id, str) or step.get("source") != "agent":
            if result.get("content"):
                why = "a trajectory row's tool messages answer a call; this result answers none"
                losses.append(Loss(place, "observation", why, "content"))
            continue
        results.append({"role": "tool", "tool_call_id": call_id, "content": result.get("content") or ""})
    return results


def _turn(step: Mapping[str, Any], message_index: int, path: str, losses: list[Loss]) -> dict[str, Any] | None:
    """The agent step's token record as a turn; a step with completion ids but no prompt ids
    (ATIF before v1.4) has no turn, a loss."""
    metrics = as_dict(step.get("metrics")) or {}
    completion = metrics.get("completion_token_ids")
    if completion is None:
        return None
    if metrics.get("prompt_token_ids") is None:
        why = "a turn needs the prompt ids too (ATIF v1.4's prompt_token_ids)"
        losses.append(Loss(f"{path}.metrics.completion_token_ids", "completion token ids", why, "content"))
        return None
    return {
        "message_index": message_index,
        "prompt_ids": metrics["prompt_token_ids"],
        "completion_ids": completion,
        "logprobs": metrics.get("logprobs"),
    }


def _step_losses(step: Mapping[str, Any], path: str, number: int) -> list[Loss]:
    """A loss for each field of a step a row has no place for; ``step_id`` only where it is
    not the step's place counted from 1 (which the row's order keeps)."""
    losses = [
        Loss(f"{path}.{key}", key, "trajectory rows have no place for it", _kind(key))
        for key in step
        if key not in _STEP_KEYS and step[key] not in (None, {}, "") and (key, step[key]) != ("step_id", number + 1)
    ]
    metrics = as_dict(step.get("metrics")) or {}
    losses += [
        Loss(f"{path}.metrics.{key}", key, "trajectory rows keep the token ids and logprobs only", "metadata")
        for key in metrics
        if key not in _TOKEN_METRICS and metrics[key] not in (None, {})
    ]
    return losses


def _kind(key: str) -> LossKind:
    return "setting" if key in ("model_name", "reasoning_effort") else "metadata"
