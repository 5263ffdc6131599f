"""What the session-file readers share: a file's events checked, and the harness's bookkeeping
named once per field rather than once per line.

A harness writes many fields on every line (ids, timestamps, the working directory, token
counts) that no conversation has a place for. Reporting each on every line would bury the one
loss that matters; reporting none would be a silent drop. So each field is a ``metadata`` loss
at the first place it occurs, saying on how many lines it came (:class:`Bookkeeping`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from chatcodec._losses import Loss, LossKind
from chatcodec._narrow import as_dict, as_list
from chatcodec._payloads import load_value
from chatcodec._row_dialects.layout import TrainingRowError


def session_events(value: object, harness: str) -> list[dict[str, Any]]:
    """A session file's events (its lines, parsed, in order) as objects; a session given as
    JSON text is parsed. A line that is no object is refused at its place (``$[N]`` is the
    file's line ``N + 1``)."""
    events = as_list(load_value(value))
    rule = "session_file"
    if events is None:
        raise TrainingRowError(f"a {harness} session is its file's lines, a list of events", "$", rule)
    checked: list[dict[str, Any]] = []
    for index, event in enumerate(events):
        fields = as_dict(event)
        if fields is None:
            raise TrainingRowError(f"a {harness} session line is a JSON object", f"$[{index}]", rule)
        checked.append(fields)
    return checked


def session_error(message: str, path: str) -> TrainingRowError:
    """The error a session line that breaks its harness's format raises."""
    return TrainingRowError(message, path, "session_file")


@dataclass(slots=True)
class Bookkeeping:
    """The fields a harness wrote that a conversation keeps no place for: each field's first
    path, how many times it came, and the loss kind it is."""

    harness: str
    seen: dict[str, tuple[str, int, LossKind]] = field(default_factory=lambda: {})

    def note(self, name: str, path: str, kind: LossKind = "metadata") -> None:
        """One more occurrence of ``name`` (a field, or a kind of line) at ``path``."""
        first, count, kind_seen = self.seen.get(name, (path, 0, kind))
        self.seen[name] = (first, count + 1, kind_seen)

    def note_fields(self, fields: dict[str, Any], kept: Sequence[str], path: str, prefix: str = "") -> None:
        """Each field of ``fields`` not in ``kept`` (and not empty), at ``path``."""
        for key, value in fields.items():
            if key not in kept and value not in (None, "", [], {}):
                self.note(f"{prefix}{key}", f"{path}.{key}")

    def losses(self) -> list[Loss]:
        """A loss per field, at its first path."""
        return [
            Loss(path, name, f"{self.harness}'s record, on {count} line(s): a conversation keeps the messages", kind)
            for name, (path, count, kind) in self.seen.items()
        ]


_CODEX_LINES = frozenset({"session_meta", "response_item", "compacted", "turn_context", "event_msg"})
"""The kinds of a Codex ``RolloutLine`` (``codex-rs/protocol/src/protocol.rs``, ``RolloutItem``)."""
_CODEX_LEGACY_HEADER = frozenset({"id", "timestamp", "instructions", "git"})
"""The fields of a rollout's first line before ``RolloutLine`` (2025's first releases)."""
_CLAUDE_CODE_LINES = frozenset({"user", "assistant", "system", "summary", "file-history-snapshot"})
_CLAUDE_CODE_MARKS = ("sessionId", "leafUuid", "messageId")
"""A Claude Code line's own fields: every message line's ``sessionId``, a ``summary`` line's
``leafUuid``, a ``file-history-snapshot`` line's ``messageId`` (no provider body holds them)."""


def harness_of(line: dict[str, Any], *, first: bool = True) -> str | None:
    """The session dialect a session file's line is a line of (``"claude-code"``, ``"codex"``),
    by fields no provider body or dataset row holds at its top, or None. ``first``: the file's
    first line, where a legacy Codex rollout's header (``id``, ``timestamp``, ``instructions``,
    no ``model`` or ``input``) is told too."""
    kind = line.get("type")
    if kind in _CODEX_LINES and isinstance(line.get("payload"), dict) and "timestamp" in line:
        return "codex"
    if kind in _CLAUDE_CODE_LINES and any(isinstance(line.get(mark), str) for mark in _CLAUDE_CODE_MARKS):
        return "claude-code"
    if (
        first
        and "id" in line
        and "timestamp" in line
        and "instructions" in line
        and line.keys() <= _CODEX_LEGACY_HEADER
    ):
        return "codex"
    return None
