"""Claude Code's session files (``~/.claude/projects/<project>/<session>.jsonl``) read as the
conversation the model was shown, in the Messages API's shapes.

Claude Code writes one JSON event a line (no published schema; the shape is read from the
community's parsers: ``daaain/claude-code-log``, ``ryoppippi/ccusage``, and the format notes
named in ``tests/fixtures/harness_sessions/SOURCES.md``). A ``user`` or ``assistant`` line holds
``message``, an Anthropic message (``content`` a string or blocks: text, thinking with its
signature, tool_use, tool_result with ``is_error``, images); lines link by ``uuid`` and
``parentUuid``. What the model saw is read as Claude Code sends it:

* one answer streamed as several lines (a block a line, the same ``message.id``) is one
  assistant message again, its tool results (one user line each) one user message after it;
* the conversation is the session's active branch: the chain from its last message back to
  its root. A rewind or a retry leaves the earlier branch in the file; each of its messages is
  a ``content`` loss, never silently mixed in. An answer's parallel calls each have their result
  line as the child of the call's own line, so the answer's other lines and results hang off
  that chain: they are read with it, as the model wrote them and Claude Code sent them;
* a compaction (a ``system`` line of subtype ``compact_boundary``, a new root whose
  ``logicalParentUuid`` names the last message before it) is followed across, so the
  conversation keeps the messages before it and the summary (``isCompactSummary``) the model
  read after it; the boundary is a ``content`` loss saying the model's later prompts start from
  that summary;
* a subagent's lines (``isSidechain``, Claude Code's Task tool) are its own conversation: a
  ``content`` loss at its first line names the agent and the call it answered (the Task
  result's ``toolUseResult.agentId``); the agent's own file (``agent-<id>.jsonl``, every line a
  sidechain) reads alone as its conversation;
* an answer Claude Code wrote itself (``message.model`` ``<synthetic>``: an API error, "No
  response requested.") was never sampled: a ``content`` loss, left out;
* the bookkeeping (``uuid``, ``timestamp``, ``cwd``, ``usage``, ``toolUseResult``...) is a
  ``metadata`` loss per field (:class:`~.session_lines.Bookkeeping`), a line of no message
  (``summary``, ``file-history-snapshot``, a harness notice) one per kind of line.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from chatcodec._losses import Loss
from chatcodec._narrow import as_dict, as_list
from chatcodec._row_dialects.session_lines import Bookkeeping, session_error, session_events

HARNESS: Final = "Claude Code"
_MESSAGE_LINES: Final = frozenset({"user", "assistant"})
_LINE_KEYS: Final = ("type", "message", "isSidechain", "isCompactSummary")
"""A message line's fields the reading uses; every other is bookkeeping."""
_MESSAGE_KEYS: Final = ("role", "content")
_NOTICES: Final = frozenset(
    {"system", "progress", "summary", "file-history-snapshot", "queue-operation", "custom-title"}
)
"""Kinds of line Claude Code writes for itself (its notices, titles, undo snapshots, queued input),
never sent as a message."""
SYNTHETIC: Final = "<synthetic>"
"""The ``message.model`` Claude Code gives an answer it wrote itself."""


@dataclass(slots=True)
class _Reading:
    events: list[dict[str, Any]]
    losses: list[Loss] = field(default_factory=lambda: [])
    bookkeeping: Bookkeeping = field(default_factory=lambda: Bookkeeping(HARNESS))
    messages: list[dict[str, Any]] = field(default_factory=lambda: [])
    answer_ids: list[object] = field(default_factory=lambda: [])
    """Each message's ``message.id`` (an assistant's), to merge an answer's lines."""
    results_last: bool = False
    """Whether the last message is a user turn of tool results only (an answer's lines may go on
    after it), kept as lines come so no line reads the turn again."""


def read_claude_code(value: object) -> tuple[dict[str, Any], list[Loss]]:
    """A Claude Code session (its lines as a list of events, or their JSON text) as a Messages
    API request body (``messages``), and what the conversation has no place for."""
    reading = _Reading(session_events(value, HARNESS))
    events = reading.events
    by_uuid = {event["uuid"]: index for index, event in enumerate(events) if isinstance(event.get("uuid"), str)}
    main = [index for index, event in enumerate(events) if event.get("isSidechain") is not True]
    if not any(events[index].get("type") in _MESSAGE_LINES for index in main):
        main = list(range(len(events)))  # a subagent's own file: every line a sidechain
    chain = _active_chain(events, main, by_uuid, reading.losses)
    chain = sorted([*chain, *_parallel_results(events, main, chain)])  # a child comes after its parent
    on_chain = set(chain)
    for index in chain:
        _read_line(reading, index)
    for index in main:
        if index not in on_chain:
            _off_chain(reading, index)
    reading.losses += _subagents(events)
    if not reading.messages:
        raise session_error("a Claude Code session with no user or assistant message", "$")
    return {"messages": reading.messages}, [*reading.losses, *reading.bookkeeping.losses()]


def _active_chain(
    events: list[dict[str, Any]], lines: list[int], by_uuid: Mapping[str, int], losses: list[Loss]
) -> list[int]:
    """The lines from the root to the last message, following ``parentUuid`` (and a compact
    boundary's ``logicalParentUuid``), in order."""
    if not any(isinstance(events[index].get("parentUuid"), str) for index in lines):
        why = "no line names its parent (a file written without the chain): read in the file's order"
        losses.append(Loss("$", "parentUuid", why, "spelling"))
        return lines
    leaf = next((index for index in reversed(lines) if events[index].get("type") in _MESSAGE_LINES), None)
    chain: list[int] = []
    seen: set[int] = set()
    index = leaf
    while index is not None and index not in seen:
        seen.add(index)
        chain.append(index)
        event = events[index]
        parent = event.get("parentUuid")
        if parent is None and event.get("subtype") == "compact_boundary":
            parent = event.get("logicalParentUuid")
        if parent is not None and parent not in by_uuid:
            why = "its parent is not in this file (a resumed or forked session): the messages before it are elsewhere"
            losses.append(Loss(f"$[{index}].parentUuid", "earlier messages", why, "content"))
        index = by_uuid.get(parent) if isinstance(parent, str) else None
    return chain[::-1]


def _parallel_results(events: list[dict[str, Any]], lines: list[int], chain: list[int]) -> list[int]:
    """The lines of the chain's answers that the chain does not hold: Claude Code writes an
    answer a block a line, each line the child of the one before, and each parallel call's
    result as the child of its own call's line, so the chain from the last message passes
    through one call and its result; the answer's other lines (its ``message.id``) and the
    other results hang off it, yet the model wrote them in one answer and was sent them
    together. A result line joins when it holds only results of calls the answer made and the
    chain did not see answered (a rewind's branch starts at a prompt, never at a result)."""
    on_chain = set(chain)
    answers = {_answer_id(events[index]) for index in chain} - {None}
    found = [index for index in lines if index not in on_chain and _answer_id(events[index]) in answers]
    uuids = {events[index].get("uuid") for index in [*chain, *found]}
    called: set[object] = set()
    answered: set[object] = set()
    for index in [*chain, *found]:
        for block in _line_blocks(events[index]):
            if block.get("type") == "tool_use":
                called.add(block.get("id"))
            elif block.get("type") == "tool_result":
                answered.add(block.get("tool_use_id"))
    for index in lines:
        event = events[index]
        if index in on_chain or event.get("type") != "user" or event.get("parentUuid") not in uuids:
            continue
        blocks = _line_blocks(event)
        ids = [block.get("tool_use_id") for block in blocks if block.get("type") == "tool_result"]
        if ids and len(ids) == len(blocks) and all(call in called and call not in answered for call in ids):
            found.append(index)
            answered.update(ids)
    return found


def _answer_id(event: dict[str, Any]) -> object:
    """An assistant line's ``message.id`` (the answer it is a block of), else None."""
    return (as_dict(event.get("message")) or {}).get("id") if event.get("type") == "assistant" else None


def _line_blocks(event: dict[str, Any]) -> list[dict[str, Any]]:
    """A line's message content blocks (none for a string or a line of no message)."""
    blocks = as_list((as_dict(event.get("message")) or {}).get("content")) or []
    return [fields for fields in map(as_dict, blocks) if fields is not None]


def _read_line(reading: _Reading, index: int) -> None:
    event = reading.events[index]
    path = f"$[{index}]"
    kind = event.get("type")
    if kind not in _MESSAGE_LINES:
        _notice(reading, event, path)
        return
    message = as_dict(event.get("message"))
    if message is None or message.get("role") != kind:
        raise session_error(f"a {kind} line holds its message as {{role: {kind!r}, content}}", f"{path}.message")
    reading.bookkeeping.note_fields(event, _LINE_KEYS, path)
    reading.bookkeeping.note_fields(message, _MESSAGE_KEYS, f"{path}.message", "message.")
    if message.get("model") == SYNTHETIC:
        why = "Claude Code wrote this answer itself (an API error, an interruption): the model never sampled it"
        reading.losses.append(Loss(f"{path}.message", "harness-written answer", why, "content"))
        return
    content = message.get("content")
    blocks = _blocks(content, f"{path}.message.content")
    if kind == "assistant":
        _answer(reading, blocks, message.get("id"))
        return
    results = all((as_dict(block) or {}).get("type") == "tool_result" for block in blocks)
    if reading.messages and reading.messages[-1]["role"] == "user":
        last = reading.messages[-1]  # one user turn: Claude Code sends consecutive user lines together
        if isinstance(last["content"], str):
            last["content"] = _blocks(last["content"], path)
        last["content"] += blocks
        reading.results_last = reading.results_last and results
    else:  # a string stays a string, as Claude Code wrote it
        reading.messages.append({"role": "user", "content": content if isinstance(content, str) else blocks})
        reading.answer_ids.append(None)
        reading.results_last = results and bool(blocks)


def _answer(reading: _Reading, blocks: list[Any], answer_id: object) -> None:
    """An assistant line's blocks: the answer it continues (the same ``message.id``, with only
    its tool results after it) takes them, else a new assistant message. Results of its calls
    stay last when a later line of the answer goes before them (Claude Code runs a call while
    the answer still streams, writing its result between the answer's lines)."""
    messages = reading.messages
    last = len(messages) - 1
    if reading.results_last:
        last -= 1
    if answer_id is not None and last >= 0 and reading.answer_ids[last] == answer_id:
        messages[last]["content"] += blocks
        return
    messages.append({"role": "assistant", "content": blocks})
    reading.answer_ids.append(answer_id)
    reading.results_last = False


def _blocks(content: object, path: str) -> list[Any]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    blocks = as_list(content)
    if blocks is None:
        raise session_error("a message's content is a string or a list of blocks", path)
    return list(blocks)


def _notice(reading: _Reading, event: dict[str, Any], path: str) -> None:
    """A line of the chain that holds no message: a compaction's boundary, a harness notice."""
    if event.get("subtype") == "compact_boundary":
        trigger = (as_dict(event.get("compactMetadata")) or {}).get("trigger") or "compact"
        why = (
            f"Claude Code compacted the context here ({trigger}): the model's later prompts start from the "
            "summary that follows, not from the messages before it"
        )
        reading.losses.append(Loss(path, "compaction", why, "content"))
        return
    kind = event.get("type")
    if kind not in _NOTICES:
        why = "a kind of line this reader does not know: not read (it may hold what the model was shown)"
        reading.losses.append(Loss(path, f"{kind} line", why, "content"))
        return
    subtype = event.get("subtype")
    reading.bookkeeping.note(f"{kind} line ({subtype})" if subtype else f"{kind} line", path)


def _off_chain(reading: _Reading, index: int) -> None:
    """A line of the session's own lines that the active branch does not hold."""
    event = reading.events[index]
    path = f"$[{index}]"
    if event.get("type") in _MESSAGE_LINES:
        why = "the session went on from another branch (a rewind, a retry): a conversation is one branch"
        reading.losses.append(Loss(path, "message off the active branch", why, "content"))
    else:
        reading.bookkeeping.note(f"{event.get('type')} line", path)


@dataclass(frozen=True, slots=True)
class Subagent:
    """A Task subagent's conversation held in its parent's session file: its lines (what its own
    ``agent-<id>.jsonl`` holds, read alone as any session is) and the link to its parent."""

    agent: str | None
    first: int
    """The index of its first line in the parent's file."""
    events: list[dict[str, Any]]
    parent: dict[str, str]
    """``session`` (the parent's ``sessionId``), ``agent`` and ``tool_use_id`` (the Task call its
    work answered), each where the file says it."""


def subagents(value: object) -> list[Subagent]:
    """The subagents whose lines (``isSidechain``) a Claude Code session file holds beside its
    own conversation, in the order they start; none for a subagent's own file."""
    events = session_events(value, HARNESS)
    main = {index for index, event in enumerate(events) if event.get("isSidechain") is not True}
    if not any(events[index].get("type") in _MESSAGE_LINES for index in main):
        return []  # a subagent's own file: every line its own conversation
    calls = task_calls([events[index] for index in main])
    session = next((events[index].get("sessionId") for index in main if events[index].get("sessionId")), None)
    lines: dict[object, list[int]] = {}
    for index, event in enumerate(events):
        if index not in main:
            lines.setdefault(event.get("agentId"), []).append(index)
    found: list[Subagent] = []
    for agent, indices in lines.items():
        if not any(events[index].get("type") in _MESSAGE_LINES for index in indices):
            continue
        link = {"session": session, "agent": agent, "tool_use_id": calls.get(agent)}
        parent = {key: value for key, value in link.items() if isinstance(value, str)}
        named = agent if isinstance(agent, str) else None
        found.append(Subagent(named, indices[0], [events[index] for index in indices], parent))
    return found


def task_calls(lines: list[dict[str, Any]]) -> dict[object, object]:
    """Each subagent a session's own lines name, with the Task call its work answered (the
    result line's ``toolUseResult.agentId`` beside its ``tool_result``)."""
    calls: dict[object, object] = {}
    for event in lines:
        result = as_dict(event.get("toolUseResult")) or {}
        blocks = as_list((as_dict(event.get("message")) or {}).get("content")) or []
        results = [
            fields for fields in map(as_dict, blocks) if fields is not None and fields.get("type") == "tool_result"
        ]
        if isinstance(result.get("agentId"), str) and results:
            calls[result["agentId"]] = results[0].get("tool_use_id")
    return calls


def agent_file_links(sessions: list[list[dict[str, Any]]]) -> list[dict[str, str] | None]:
    """For each file of a session folder (its events), the link of a subagent's own file
    (``agent-<id>.jsonl``, every line a sidechain) to its parent: ``session`` (its lines'
    ``sessionId``), ``agent`` (``agentId``) and ``tool_use_id`` (the Task call, where a parent
    file of the folder names it); None for a session's own file."""
    calls: dict[object, object] = {}
    for events in sessions:
        calls.update(task_calls([event for event in events if event.get("isSidechain") is not True]))
    links: list[dict[str, str] | None] = []
    for events in sessions:
        if not events or any(event.get("isSidechain") is not True for event in events):
            links.append(None)
            continue
        agent = next((event.get("agentId") for event in events if event.get("agentId")), None)
        session = next((event.get("sessionId") for event in events if event.get("sessionId")), None)
        link = {"session": session, "agent": agent, "tool_use_id": calls.get(agent)}
        links.append({key: value for key, value in link.items() if isinstance(value, str)})
    return links


def _subagents(events: list[dict[str, Any]]) -> list[Loss]:
    """A loss per subagent whose lines are in this file, naming the call its work answered."""
    losses: list[Loss] = []
    for subagent in subagents(events):
        call = subagent.parent.get("tool_use_id")
        answered = f", answering the call {call}" if call else ""
        why = (
            f"a subagent's conversation (agent {subagent.agent or 'without an id'}{answered}) is its own: "
            "convert --from claude-code writes it as a row of its own (its parent in the row's parent column), "
            "and chatcodec.session_subagents gives its lines to render alone"
        )
        losses.append(Loss(f"$[{subagent.first}]", "subagent conversation", why, "content"))
    return losses
