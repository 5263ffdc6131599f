"""The harnesses' session files as training dialects: which reader reads each, and the wire
format its conversation comes out in.

A session file is many lines and one conversation, so it is read whole (the command line
gathers its lines; a caller passes them as a list), not a row a line as a dataset is. Each
reader gives a request body in the wire its harness spoke, and that format's registered codec
reads it: Claude Code's messages are Anthropic's (thinking signatures and tool errors kept),
Codex's items are the Responses API's (its encrypted reasoning kept). The sessions are read,
never written (a harness writes its own).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from chatcodec._losses import Loss
from chatcodec._public_label import shown_as
from chatcodec._row_dialects.claude_code import agent_file_links, read_claude_code, subagents
from chatcodec._row_dialects.codex import read_codex
from chatcodec._row_dialects.codex_threads import thread_links
from chatcodec._row_dialects.session_lines import session_events

SESSION_FORMATS: Final[Mapping[str, str]] = {"claude-code": "anthropic", "codex": "openai-responses"}
"""Each session dialect, with the wire format its conversation is read in."""
SESSION_DIALECTS: Final = tuple(SESSION_FORMATS)
"""The session dialects' names (``--from``)."""

_READERS: Final[Mapping[str, Callable[[object], tuple[dict[str, Any], list[Loss]]]]] = {
    "claude-code": read_claude_code,
    "codex": read_codex,
}


@dataclass(frozen=True, slots=True)
class SessionRead:
    """A session file read: its conversation as a request body, the format that body is in,
    and what the conversation has no place for."""

    body: dict[str, Any]
    format: str
    losses: tuple[Loss, ...]


def read_session(value: object, dialect: str) -> SessionRead:
    """The conversation of a ``dialect`` session (its lines as a list of events, or their JSON
    text)."""
    body, losses = _READERS[dialect](value)
    return SessionRead(body, SESSION_FORMATS[dialect], tuple(losses))


def session_subagents(events: object, source: str = "claude-code") -> list[dict[str, Any]]:
    """The subagents' conversations a session file holds beside its own: for each, ``events``
    (its lines, which ``render_turns``, ``trainer_samples`` and ``convert`` read alone with the
    same ``source``, as its own ``agent-<id>.jsonl``) and ``parent`` (the parent's
    ``session`` id, the ``agent`` id and the ``tool_use_id`` of the Task call its work answered,
    each where the file says it). A Claude Code file holds its Task subagents' lines
    (``isSidechain``); a Codex rollout holds one thread (a subagent's rollout is its own file,
    naming its parent thread in its ``session_meta``), so none."""
    if source not in SESSION_FORMATS:
        raise ValueError(f"source= names a session dialect ({', '.join(SESSION_DIALECTS)}), not {source!r}")
    if source != "claude-code":
        return []
    return [{"parent": subagent.parent, "events": subagent.events} for subagent in subagents(events)]


def session_links(sessions: Sequence[object], source: str) -> list[dict[str, str] | None]:
    """For each session file of a folder (its lines), the ``parent`` link of a subagent's own
    file to the session that spawned it (as :func:`session_subagents` gives a subagent held in
    its parent's file), or None for a session the user started: a Claude Code ``agent-<id>.jsonl``
    by its lines' ``sessionId`` and ``agentId``, a Codex subagent's rollout by the parent thread
    its ``session_meta`` names (:mod:`.codex_threads`)."""
    harness = "Claude Code" if source == "claude-code" else "Codex"
    files = [session_events(events, harness) for events in sessions]
    return agent_file_links(files) if source == "claude-code" else thread_links(files)


shown_as("chatcodec", session_subagents)
