"""OpenHands' evaluation output rows (``output.jsonl``, one ``EvalOutput`` a line) read as the
conversation the agent's model was shown, in OpenAI Chat's shapes (litellm's, which OpenHands
calls).

A row (``evaluation/utils/shared.py`` in All-Hands-AI/OpenHands: ``instance_id``,
``instruction``, ``test_result``, ``metadata``, ``history``, ``metrics``, ``error``) holds the
run as ``history``, its events as ``event_to_dict`` writes them
(``openhands/events/serialization/event.py``): an action (``action``, ``args``) or an
observation (``observation``, ``content``, ``extras``), each with ``source`` and, where a model
call made it, ``tool_call_metadata`` (``openhands/events/tool.py``: ``function_name``,
``tool_call_id``, the litellm ``model_response``, ``total_calls_in_response``). Two readings:

* ``raw_completions`` (``{messages, tools}``: the last model call's prompt and its answer, which
  OpenHands' evaluation scripts gather from ``llm_completions/<instance_id>/*.json`` into
  ``output.with_completions.jsonl.gz``) is the exact conversation, read as it is; ``history``
  is then the events that prompt was built from, a ``metadata`` loss;
* else the history is read: the system action's prompt and tools, the user's messages, each
  model response once (the assistant message of the first action it made, its calls all
  there), each observation that answers a call as that call's tool message, an agent message
  action as an answer, an error observation that answers no call (a call OpenHands could not
  run: a wrong parameter) as the user message OpenHands' prompt makes of it, its text and
  OpenHands' note after it (a ``spelling`` loss). OpenHands' prompt decorates an observation (a command's exit code, its
  working directory) where the event holds the output: a ``content`` loss says so once. An
  action no model call made, or an observation that answers none, is a ``content`` loss; a
  state change a ``metadata`` loss per kind.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from chatcodec._losses import Loss
from chatcodec._narrow import as_dict, as_list
from chatcodec._row_dialects.layout import TrainingRowError
from chatcodec._row_dialects.session_lines import Bookkeeping

_RULE: Final = "openhands_output"
_STATE: Final = frozenset({"agent_state_changed", "null", "change_agent_state", "condensation"})
"""Events of the agent's state, never in a prompt."""
_ANSWER_KEYS: Final = ("role", "content", "tool_calls", "reasoning_content")
"""A model response's message fields a chat message keeps (litellm adds ``function_call``,
``provider_specific_fields``...)."""
_ERROR_NOTE: Final = "[Error occurred in processing last action]"
"""The line OpenHands' prompt adds after an error observation's text (``ConversationMemory``,
``openhands/memory/conversation_memory.py``): the model reads the error as a user message."""
_NULLABLE: Final = ("tool_calls", "function_call")
"""The fields litellm writes as ``null`` on an answer that has none."""


def read_openhands(row: Mapping[str, Any], notes: list[Loss]) -> dict[str, Any]:
    """The OpenAI Chat body of an OpenHands output row (``raw_completions``, else its
    ``history``); what it has no place for goes into ``notes``."""
    raw = as_dict(row.get("raw_completions"))
    if raw is not None and as_list(raw.get("messages")) is not None:
        if row.get("history"):
            why = "the events the completions' prompt was built from: raw_completions holds that prompt"
            notes.append(Loss("$.history", "OpenHands events", why, "metadata"))
        tools = {"tools": raw["tools"]} if raw.get("tools") else {}
        return {
            "messages": [_without_nulls(message, index, notes) for index, message in enumerate(raw["messages"])],
            **tools,
        }
    history = as_list(row.get("history"))
    if history is None:
        raise TrainingRowError("an OpenHands output row holds its history (a list of events)", "$.history", _RULE)
    return _from_history(history, notes)


def _no_ids() -> set[object]:
    """An empty set of response ids, typed (a generic alias as the factory costs a field each time)."""
    return set()


@dataclass(slots=True)
class _Reading:
    """A history read so far: the messages, the model responses already in, the tools."""

    notes: list[Loss]
    messages: list[dict[str, Any]] = field(default_factory=lambda: [])
    responses: set[object] = field(default_factory=_no_ids)
    tools: object = None


def _without_nulls(message: object, index: int, notes: list[Loss]) -> object:
    """A message of ``raw_completions`` without litellm's ``null`` fields (``tool_calls: null``,
    ``function_call: null`` on the answer appended from the response), each a ``spelling`` loss."""
    fields = as_dict(message)
    if fields is None or not any(fields.get(key, 0) is None for key in _NULLABLE):
        return message
    for key in _NULLABLE:
        if key in fields and fields[key] is None:
            why = "litellm's null for a field the answer does not have: left out"
            notes.append(Loss(f"$.raw_completions.messages[{index}].{key}", key, why, "spelling"))
    return {key: value for key, value in fields.items() if not (key in _NULLABLE and value is None)}


def _from_history(history: list[Any], notes: list[Loss]) -> dict[str, Any]:
    reading = _Reading(notes)
    bookkeeping = Bookkeeping("OpenHands")
    observed = False
    for index, value in enumerate(history):
        path = f"$.history[{index}]"
        event = as_dict(value)
        if event is None:
            why = "expected an event object (a history of (action, observation) pairs is OpenHands' before 0.10)"
            raise TrainingRowError(why, path, _RULE)
        metadata = as_dict(event.get("tool_call_metadata"))
        kind = event.get("action", event.get("observation"))
        if kind in _STATE:
            bookkeeping.note(f"{'action' if 'action' in event else 'observation'} {kind}", path)
        elif "action" in event:
            _action(reading, event, metadata, path)
        elif "observation" in event and metadata is not None:
            call = {"role": "tool", "tool_call_id": metadata.get("tool_call_id"), "name": metadata.get("function_name")}
            reading.messages.append({**call, "content": event.get("content") or ""})
            observed = True
        elif kind == "error" and "observation" in event:  # a call OpenHands could not run: shown as the user's
            reading.messages.append({"role": "user", "content": f"{event.get('content') or ''}\n{_ERROR_NOTE}"})
            why = f"an error that answers no call, shown to the model as a user message ending {_ERROR_NOTE!r}"
            notes.append(Loss(path, "error observation", why, "spelling"))
        elif "observation" in event:
            why = "an observation that answers no call: OpenHands' prompt may show it; raw_completions holds the prompt"
            notes.append(Loss(path, f"{kind} observation", why, "content"))
        else:
            raise TrainingRowError("expected an action or an observation", path, _RULE)
    if observed:
        why = (
            "each tool message is its observation's content; OpenHands' prompt adds its own lines (a command's exit "
            "code, the working directory): raw_completions holds the prompt as sent"
        )
        notes.append(Loss("$.history", "observation text", why, "content"))
    notes += bookkeeping.losses()
    if not reading.messages:
        raise TrainingRowError("an OpenHands history with no message", "$.history", _RULE)
    return {"messages": reading.messages, **({"tools": reading.tools} if reading.tools else {})}


def _action(reading: _Reading, event: Mapping[str, Any], metadata: Mapping[str, Any] | None, path: str) -> None:
    """An action's message, if it adds one (the system action's tools kept)."""
    args = as_dict(event.get("args")) or {}
    action = event.get("action")
    if action == "system":
        reading.messages.append({"role": "system", "content": args.get("content") or ""})
        reading.tools = args.get("tools") or reading.tools
        return
    if metadata is not None and event.get("source") == "agent":
        response = as_dict(metadata.get("model_response")) or {}
        if response.get("id") in reading.responses:
            return  # the response's message is in already, with every call it made
        reading.responses.add(response.get("id"))
        choice = as_dict((as_list(response.get("choices")) or [None])[0]) or {}
        answer = as_dict(choice.get("message"))
        if answer is None:
            where = f"{path}.tool_call_metadata.model_response"
            raise TrainingRowError("expected the model response's choices[0].message", where, _RULE)
        kept = {key: answer[key] for key in _ANSWER_KEYS if answer.get(key) is not None}
        reading.messages.append({**kept, "role": "assistant"})
        return
    if action == "message":
        role = "user" if event.get("source") == "user" else "assistant"
        reading.messages.append({"role": role, "content": args.get("content") or ""})
        if args.get("image_urls"):
            reading.notes.append(Loss(f"{path}.args.image_urls", "image urls", "read as text only", "content"))
        return
    why = "an action no model call made (its text, not a tool call): not read as a message"
    reading.notes.append(Loss(path, f"{action} action", why, "content"))
