"""Thinking kept by the gateway for the clients that drop it.

Claude refuses a tool loop whose assistant turn comes back without the signed ``thinking``
block it was answered with ("Expected `thinking` or `redacted_thinking`, but found
`tool_use`", https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#preserving-thinking-blocks),
and Gemini 3 one whose function call comes back without its ``thoughtSignature``
("Function call is missing a thought_signature in functionCall parts",
https://ai.google.dev/gemini-api/docs/thought-signatures). The OpenAI Chat front gives
that thinking to the client (``thinking_blocks``, a call's ``extra_content``), but most
clients keep only the fields the OpenAI SDK types: LangChain's ``ChatOpenAI``,
pydantic-ai's OpenAI chat model, the OpenAI Agents SDK's chat completions model and the
Vercel AI SDK's ``openai.chat()`` send the next request without it. The gateway is the only
party that saw it, so it keeps it.

When an answer carries signed or redacted thinking (a thinking part with a ``signature``,
an ``encrypted`` payload or ``redacted``), or tool calls carrying another provider's
bags (a Gemini thought signature), :func:`kept_from` gives what to keep, keyed by what
the client will echo back of that answer: its first tool-call id, or a digest of its text
when it called no tool (one record per answer); every key also holds the digest of the
caller's key, so one caller never reaches another's thinking. On the next request, an assistant message of the current
turn (after the last user message) that comes without thinking gets it back
(:func:`restore`), the parts the upstream it is sent to can verify only: thinking
another provider signed is never put back. A message that brings its own thinking is
left as it came.

It runs where a store is configured (``--store``; the records are bounded with the
answers, least recently used forgotten first) unless ``--no-keep-thinking`` is given, and
keeps nothing of a Responses request sent with ``store: false`` (its caller asked that
nothing of it be kept: Codex CLI and the Agents SDK then carry the thinking themselves,
sealed in ``encrypted_content``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from chatcodec._narrow import as_dict, as_list
from chatcodec.serve._response_store import ResponseStore

KEEPING_LIMIT = 16
"""Assistant messages of one turn looked up at most (an agent's tool loop rarely has more)."""


def _key(owner: str, kind: str, value: str) -> str:
    return hashlib.sha256("\0".join((owner, kind, value)).encode("utf-8", "surrogatepass")).hexdigest()


def _text(message: Mapping[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    return "".join(str(part.get("text", "")) for part in _parts(message) if part.get("type") == "text")


def _parts(message: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [part for part in as_list(message.get("content")) or [] if isinstance(part, dict)]


def _calls(message: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [part for part in _parts(message) if part.get("type") == "tool_use" and isinstance(part.get("id"), str)]


def _keys(owner: str, message: Mapping[str, Any]) -> list[str]:
    """What the client echoes of ``message``: its tool-call ids, then its text's digest."""
    keys = [_key(owner, "call", part["id"]) for part in _calls(message)]
    text = _text(message)
    if text:
        keys.append(_key(owner, "text", hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()))
    return keys


def _signed(part: Mapping[str, Any]) -> bool:
    return part.get("type") == "thinking" and bool(
        part.get("signature") or part.get("encrypted") or part.get("redacted")
    )


def kept_from(owner: str, message: Mapping[str, Any], front: str) -> tuple[list[str], list[dict[str, Any]]]:
    """The keys and the parts to keep of an answer's canonical ``message`` (nothing: no
    signed thinking, and no call with another provider's bags than the ``front``'s own)."""
    keep = [part for part in _parts(message) if _signed(part)]
    for call in _calls(message):
        bags = {name: bag for name, bag in (as_dict(call.get("provider_metadata")) or {}).items() if name != front}
        if bags:
            keep.append({"type": "tool_use", "id": call["id"], "provider_metadata": bags})
    return (_keys(owner, message), keep) if keep else ([], [])


async def keep(store: ResponseStore, owner: str, message: Mapping[str, Any], front: str) -> None:
    """Keep the signed thinking of ``message`` under the first key the client echoes (its
    first tool-call id, else its text's digest: the first a lookup tries)."""
    keys, parts = kept_from(owner, message, front)
    if keys:
        await store.keep_thinking(keys[0], owner, parts)


def _current_turn(messages: list[Any]) -> list[dict[str, Any]]:
    """The assistant messages after the last user message (the tool loop under way)."""
    found: list[dict[str, Any]] = []
    for message in reversed(messages):
        fields = as_dict(message)
        if fields is None or fields.get("role") == "user":
            break
        if fields.get("role") == "assistant":
            found.append(fields)
    return found[:KEEPING_LIMIT]


async def restore(store: ResponseStore, owner: str, canonical: dict[str, Any], upstream: str) -> int:
    """Put kept thinking back on the assistant messages of the current turn that come
    without signed thinking, the parts ``upstream`` signed only; how many got some back."""
    messages = as_list(canonical.get("messages")) or []
    restored: list[str] = []
    turn = _current_turn(messages)
    for message in turn:
        if any(_signed(part) for part in _parts(message)):
            continue  # the client kept what it got
        for key in _keys(owner, message):
            parts = await store.thinking(key, owner)
            if parts is not None:
                restored += _put_back(message, parts, upstream)
                break
    if restored:
        _drop_replays(canonical, turn, restored)
    return len(restored)


def _put_back(message: dict[str, Any], parts: list[dict[str, Any]], upstream: str) -> list[str]:
    """Put ``parts`` back on ``message``: the thinking first (in place of an unsigned
    echo of it), the call bags on their calls; the texts of the thinking put back."""
    thinking = [part for part in parts if part.get("type") == "thinking" and part.get("provider") == upstream]
    bags: dict[str, dict[str, Any]] = {
        str(part["id"]): as_dict(part.get("provider_metadata")) or {}
        for part in parts
        if part.get("type") == "tool_use"
    }
    content = message.get("content")
    own = _parts(message) if isinstance(content, list) else ([{"type": "text", "text": content}] if content else [])
    changed = bool(thinking)
    for call in own:
        wanted = {name: bag for name, bag in bags.get(str(call.get("id")), {}).items() if name == upstream}
        metadata = as_dict(call.get("provider_metadata")) or {}
        if call.get("type") == "tool_use" and wanted and not wanted.keys() <= metadata.keys():
            call["provider_metadata"] = {**wanted, **metadata}
            changed = True
    if thinking:  # an unsigned echo of it (pydantic-ai's ``reasoning_content``) gives way to it
        own = [part for part in own if part.get("type") != "thinking"]
    if changed:
        message["content"] = [*thinking, *own]
    return [str(part.get("text", "")) for part in thinking] or ([""] if changed else [])


def _drop_replays(canonical: dict[str, Any], turn: list[dict[str, Any]], texts: list[str]) -> None:
    """Take out of the turn the thinking a client replayed as assistant text
    (``<think>...</think>``: pydantic-ai's ``OpenAIResponsesModel`` does so for a model it
    does not take for OpenAI's), now that the signed original is back; an assistant message
    left empty goes."""
    replays = {_squashed(f"<think>{text}</think>") for text in texts if text.strip()}
    for message in turn:
        parts = _parts(message)
        if parts and any(_is_replay(part, replays) for part in parts):
            message["content"] = [part for part in parts if not _is_replay(part, replays)]
        elif isinstance(message.get("content"), str) and _is_replay(
            {"type": "text", "text": message["content"]}, replays
        ):
            message["content"] = []
    messages: list[Any] = as_list(canonical.get("messages")) or []
    canonical["messages"] = [message for message in messages if not _emptied(message, turn)]


def _is_replay(part: Mapping[str, Any], replays: set[str]) -> bool:
    text = part.get("text")
    return part.get("type") == "text" and isinstance(text, str) and _squashed(text) in replays


def _squashed(text: str) -> str:
    """``text`` without its whitespace (a replay's line breaks are the client's)."""
    return "".join(text.split())


def _emptied(message: Any, turn: list[dict[str, Any]]) -> bool:
    return any(message is own for own in turn) and message.get("content") in ([], None, "")
