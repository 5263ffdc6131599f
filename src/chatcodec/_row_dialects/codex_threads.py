"""Codex's subagent threads linked to the threads that spawned them.

A Codex subagent (``spawn_agent``, the multi-agent tools of ``codex-rs/core``) runs as a thread of
its own, written to a rollout file of its own: its ``session_meta`` names its thread (``id``) and,
in ``source.subagent.thread_spawn.parent_thread_id``, the thread that spawned it
(``SessionSource::SubAgent(SubAgentSource::ThreadSpawn)``, ``codex-rs/protocol``). The parent's
rollout holds the call that spawned it: the UI's ``collab_agent_spawn_end`` event names the call
(``call_id``) and the thread it made (``new_thread_id``). A folder of rollouts is read as its
threads, each child's row linked to its parent as a Claude Code subagent's is: ``session`` (the
parent thread), ``agent`` (the child's thread) and ``tool_use_id`` (the spawning call), each where
the files say it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chatcodec._narrow import as_dict


def _meta(events: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The first ``session_meta`` line's payload (a rollout's first line), or nothing."""
    for event in events:
        if event.get("type") == "session_meta":
            return as_dict(event.get("payload")) or {}
    return {}


def parent_thread(meta: dict[str, Any]) -> str | None:
    """The thread that spawned the thread a ``session_meta`` payload is of (None: a thread the
    user started, or a subagent of another kind: a review's, a compaction's, named by a string).
    Newer rollouts also write it at the payload's top (``parent_thread_id``, beside
    ``thread_source: "subagent"``), read where the ``source`` does not say it."""
    spawn = as_dict((as_dict((as_dict(meta.get("source")) or {}).get("subagent")) or {}).get("thread_spawn"))
    parent = (spawn or {}).get("parent_thread_id", meta.get("parent_thread_id"))
    return parent if isinstance(parent, str) else None


def spawn_calls(events: Sequence[dict[str, Any]]) -> dict[str, str]:
    """Each thread this rollout's thread spawned, with the call that spawned it."""
    calls: dict[str, str] = {}
    for event in events:
        payload = as_dict(event.get("payload")) or {}
        if event.get("type") == "event_msg" and payload.get("type") == "collab_agent_spawn_end":
            thread, call = payload.get("new_thread_id"), payload.get("call_id")
            if isinstance(thread, str) and isinstance(call, str):
                calls[thread] = call
    return calls


def thread_links(sessions: Sequence[Sequence[dict[str, Any]]]) -> list[dict[str, str] | None]:
    """For each rollout of a folder (its events), the link to the thread that spawned it, or
    None for a thread the user started."""
    calls: dict[str, str] = {}
    for events in sessions:
        calls.update(spawn_calls(events))
    links: list[dict[str, str] | None] = []
    for events in sessions:
        parent = parent_thread(_meta(events))
        if parent is None:
            links.append(None)
            continue
        thread = _meta(events).get("id")
        link = {
            "session": parent,
            "agent": thread,
            "tool_use_id": calls.get(thread) if isinstance(thread, str) else None,
        }
        links.append({key: value for key, value in link.items() if isinstance(value, str)})
    return links
