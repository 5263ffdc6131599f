"""Codex CLI's rollout files (``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``) read as the
conversation the model was shown, as a Responses API request.

Each line is a ``RolloutLine`` (``openai/codex``, ``codex-rs/protocol/src/protocol.rs``):
``timestamp`` beside a ``RolloutItem`` tagged ``type`` with its ``payload``:

* ``response_item``: a Responses API item (``codex-rs/protocol/src/models.rs``, ``ResponseItem``:
  ``message``, ``reasoning`` with ``encrypted_content``, ``function_call`` and its
  ``function_call_output``, ``custom_tool_call``, ``local_shell_call``, ``web_search_call``...),
  what Codex sent and was sent: the items become the request's ``input``, read by the Responses
  codec as any Responses request is (nothing restated here). A ``ghost_snapshot`` item is
  Codex's own undo record, never sent: a ``metadata`` loss. An output given as
  ``{content, success}`` (Codex's ``FunctionCallOutputPayload`` before it was written as its
  content) is read as its content, ``success`` a loss;
* ``session_meta``: the session's record; ``base_instructions.text`` is the instructions the
  model was given (the request's ``instructions``); a subagent's ``source.subagent`` names the
  thread that spawned it (a ``metadata`` loss that says so: the link); the rest bookkeeping;
* ``compacted``: Codex replaced the history there. With its ``replacement_history`` (the items
  Codex goes on from: ``history.replace`` in ``codex-rs/core``), the conversation goes on from
  those items, as the model's later prompts did, the items before a ``content`` loss; without it
  (older rollouts: Codex rebuilt the history from the user's messages and the summary,
  ``message``), a ``content`` loss saying the model's later prompts start from that summary; an
  ``event_msg`` ``thread_rolled_back`` (the user took turns back) a ``content`` loss likewise;
* ``turn_context`` (each turn's model, effort, policies) and ``event_msg`` (the UI's events,
  which repeat the items) are bookkeeping: a loss per field and per event kind, at the first
  place (:class:`~.session_lines.Bookkeeping`). One event can be the only record of what the
  model was shown: a ``user_message`` with no user message item since the one before it (a
  rollout some writers keep without the user's items: ``tests/fixtures/harness_sessions/SOURCES.md``)
  is the user's prompt, read from the event (:mod:`.codex_prompts`).

A rollout written before ``RolloutLine`` (2025's first releases: a first line of session
fields, then the items themselves, one a line) reads too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from chatcodec._losses import Loss
from chatcodec._narrow import as_dict
from chatcodec._row_dialects.codex_prompts import Prompts
from chatcodec._row_dialects.codex_threads import parent_thread
from chatcodec._row_dialects.session_lines import Bookkeeping, harness_of, session_error, session_events

HARNESS: Final = "Codex"
_KINDS: Final = frozenset({"session_meta", "response_item", "compacted", "turn_context", "event_msg"})
_SETTINGS: Final = frozenset({"model", "effort", "summary", "approval_policy", "sandbox_policy"})
"""A turn context's fields that are request settings (``setting`` losses), not bookkeeping."""


def read_codex(value: object) -> tuple[dict[str, Any], list[Loss]]:
    """A Codex rollout (its lines as a list of events, or their JSON text) as a Responses API
    request body (``instructions``, ``input``), and what the conversation has no place for."""
    events = session_events(value, HARNESS)
    body: dict[str, Any] = {}
    items: list[Any] = []
    losses: list[Loss] = []
    bookkeeping = Bookkeeping(HARNESS)
    prompts = Prompts(losses, bookkeeping)
    for index, event in enumerate(events):
        path = f"$[{index}]"
        kind, payload, at = _line(event, index, path)
        if at != path:  # a RolloutLine: its timestamp is bookkeeping (a legacy line is its payload)
            bookkeeping.note_fields(event, ("type", "payload"), path)
        if kind == "response_item":
            item = _item(payload, at, losses, bookkeeping)
            if item is not None:
                items += [*prompts.before(item), item]
        elif kind == "session_meta":
            _session_meta(payload, at, body, losses, bookkeeping)
        elif kind == "compacted" and isinstance(payload.get("replacement_history"), list):
            losses.append(_replaced(items, at))
            prompts.pending = None  # the replacement holds what the model went on from
            replacement: list[Any] = payload["replacement_history"]
            items = _replacement(replacement, f"{at}.replacement_history", losses, bookkeeping)
        elif kind == "turn_context":
            _turn_context(payload, at, bookkeeping)
        else:
            items += _unsent(kind, event, payload, at, _Unsent(prompts, losses, bookkeeping))
    items += prompts.before(None)
    if not items:
        raise session_error("a Codex rollout with no response item", "$")
    return {**body, "input": items}, [*losses, *bookkeeping.losses()]


@dataclass(frozen=True, slots=True)
class _Unsent:
    """Where a line that is no item goes: a prompt read from its event, a loss, bookkeeping."""

    prompts: Prompts
    losses: list[Loss]
    bookkeeping: Bookkeeping


def _unsent(kind: str, event: dict[str, Any], payload: dict[str, Any], at: str, into: _Unsent) -> list[Any]:
    """A line of no item: the prompt a ``user_message`` event is the only record of (as its
    item), else the loss it makes (a compaction, a rollback, an unknown line) or bookkeeping."""
    if kind == "event_msg" and payload.get("type") == "user_message":
        return into.prompts.event(payload, at)
    mark = _mark(kind, event, payload, at)
    if mark is None:
        into.bookkeeping.note(f"event_msg {payload.get('type')}", at)
    else:
        into.losses.append(mark)
    return []


def _turn_context(payload: dict[str, Any], at: str, bookkeeping: Bookkeeping) -> None:
    """A turn context's fields: its request settings ``setting`` losses, the rest bookkeeping."""
    for key, field in payload.items():
        if field not in (None, "", [], {}):
            setting = key in _SETTINGS
            bookkeeping.note(f"turn_context.{key}", f"{at}.{key}", "setting" if setting else "metadata")


def _replaced(items: list[Any], at: str) -> Loss:
    """The loss a compaction with its ``replacement_history`` makes: the items before it leave
    the conversation, as they left the model's later prompts."""
    why = (
        f"Codex replaced the history here by the compaction's replacement_history ({at}.replacement_history): "
        f"the model's later prompts hold it, not the {len(items)} item(s) before"
    )
    return Loss(at, "compaction", why, "content")


def _replacement(history: list[Any], at: str, losses: list[Loss], bookkeeping: Bookkeeping) -> list[Any]:
    """A compaction's ``replacement_history``, the items the conversation goes on from (Codex's
    ``history.replace(replacement_history)`` when it resumes a rollout)."""
    items: list[Any] = []
    for index, entry in enumerate(history):
        item = as_dict(entry)
        if item is None:
            raise session_error("a replacement_history entry is a response item (an object)", f"{at}[{index}]")
        kept = _item(item, f"{at}[{index}]", losses, bookkeeping)
        if kept is not None:
            items.append(kept)
    return items


def _mark(kind: str, event: dict[str, Any], payload: dict[str, Any], at: str) -> Loss | None:
    """The loss a line that changed what the model was shown makes (a compaction, a rollback),
    or a line of a kind this reader does not know; ``None`` for the UI's other events."""
    if kind == "compacted":
        why = (
            "Codex compacted the context here: the model's later prompts start from its summary "
            f"({at}.message), not from the items before it"
        )
        return Loss(at, "compaction", why, "content")
    if kind == "unknown":
        why = "a kind of rollout line this reader does not know: not read (it may hold what the model was shown)"
        return Loss(at, f"{event['type']} line", why, "content")
    if payload.get("type") == "thread_rolled_back":
        why = "Codex rolled the thread back here: the model's later prompts leave out the turns it took back"
        return Loss(at, "rollback", why, "content")
    return None


def _line(event: dict[str, Any], index: int, path: str) -> tuple[str, dict[str, Any], str]:
    """A line's kind, its payload and the payload's path; a legacy line (before ``RolloutLine``)
    is its payload itself."""
    kind = event.get("type")
    if isinstance(kind, str) and kind not in _KINDS and "payload" in event:
        return "unknown", {}, path  # a RolloutLine of a kind added after this reader
    if kind in _KINDS and "payload" in event:
        payload = as_dict(event["payload"])
        if payload is None:
            raise session_error(f"a {kind} line's payload is an object", f"{path}.payload")
        return str(kind), payload, f"{path}.payload"
    if index == 0 and "type" not in event and "id" in event:
        return "session_meta", event, path
    if isinstance(kind, str) and kind not in _KINDS:
        if harness_of(event, first=False) == "claude-code":  # a legacy item has no Claude Code fields
            raise session_error("a Claude Code session line, not a Codex rollout's (--from claude-code reads it)", path)
        return "response_item", event, path
    raise session_error("expected a rollout line {timestamp, type, payload} or a response item", path)


def _item(payload: dict[str, Any], at: str, losses: list[Loss], bookkeeping: Bookkeeping) -> dict[str, Any] | None:
    """A response item as the request's input item; Codex's own records left out, a loss each."""
    kind = payload.get("type")
    if kind == "ghost_snapshot":
        bookkeeping.note("ghost_snapshot item", at)
        return None
    output = as_dict(payload.get("output"))
    if kind in ("function_call_output", "custom_tool_call_output") and output is not None and "content" in output:
        if output.get("success") is not None:
            why = "the Responses API's output holds the text the model read, not Codex's success flag"
            losses.append(Loss(f"{at}.output.success", "tool success flag", why, "metadata"))
        return {**payload, "output": output["content"]}
    return payload


def _session_meta(
    payload: dict[str, Any], at: str, body: dict[str, Any], losses: list[Loss], bookkeeping: Bookkeeping
) -> None:
    instructions = as_dict(payload.get("base_instructions"))
    if instructions is not None and isinstance(instructions.get("text"), str):
        body["instructions"] = instructions["text"]
    spawned = as_dict((as_dict(payload.get("source")) or {}).get("subagent"))
    parent = parent_thread(payload)
    link = ("source",) if spawned is not None else ("parent_thread_id",) if parent is not None else ()
    if link:
        where = f"{at}.source.subagent" if spawned is not None else f"{at}.parent_thread_id"
        why = f"a subagent's session: the thread {parent or 'that spawned it'} holds the call its work answers"
        losses.append(Loss(where, "parent session", why, "metadata"))
    kept = ("base_instructions",) if "instructions" in body else ()
    bookkeeping.note_fields(payload, (*kept, *link), at, "session_meta.")
