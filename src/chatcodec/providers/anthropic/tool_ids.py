"""Tool-call ids that Anthropic accepts, by a reversible, collision-free rewrite.

Anthropic rejects ``tool_use.id`` and ``tool_result.tool_use_id`` values that do not
match ``^[a-zA-Z0-9_-]+$`` (400 "String should match pattern"), and other providers mint
ids like ``functions.write:0`` (Kimi, DeepSeek) or ``call|abc`` (proxies). Replacing bad
characters with ``_`` (what many proxies do) makes ``a.b`` and ``a:b`` collide, and two
different calls then share one id.

The rewrite here is a pure function, so a call and its result always agree, and it is:

* **minimal**: a valid id is left alone (no length limit is documented in the API
  reference or the SDK types, so length alone never triggers a rewrite);
* **injective**: an id that needs rewriting becomes ``cc-`` followed by the id with every
  byte outside ``[A-Za-z0-9-]`` written as ``_`` plus two lowercase hex digits (UTF-8), so
  ``a.b`` -> ``cc-a_2eb`` and ``a:b`` -> ``cc-a_3ab``. A valid id that happens to *be* such
  an escape (``cc-a_2eb`` itself) is escaped too (``cc-cc-a_5f2eb``), so it cannot collide;
* **reversible**: :func:`restore_tool_use_id` undoes it, and decoding applies it, so
  ``encode(decode(x)) == x`` for every valid wire id.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

PREFIX = "cc-"
"""Start of every rewritten id."""

_VALID = re.compile(r"^[a-zA-Z0-9_-]+$")
_ESCAPED_BODY = re.compile(r"^(?:[A-Za-z0-9-]|_[0-9a-f]{2})*$")
_ESCAPE_SEQUENCE = re.compile(r"_([0-9a-f]{2})")
_KEPT = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-")
_ASCII_ESCAPES = {byte: f"_{byte:02x}" for byte in range(128) if byte not in _KEPT}


@lru_cache(maxsize=4096)  # each id is sent twice (call and result), often in every request of a session
def sanitize_tool_use_id(tool_use_id: str) -> str:
    """The id Anthropic is sent for ``tool_use_id``: unchanged when valid, else escaped."""
    if _VALID.match(tool_use_id) and _original_of(tool_use_id) is None:
        return tool_use_id
    return PREFIX + _escape(tool_use_id)


def restore_tool_use_id(wire_id: str) -> str:
    """The original id behind a rewritten one; any other id is returned unchanged."""
    original = _original_of(wire_id)
    return wire_id if original is None else original


def tool_id_rewrites(ids: Iterable[str]) -> dict[str, str]:
    """``{original: sent}`` for the ids among ``ids`` that the encoder rewrites."""
    rewrites: dict[str, str] = {}
    for tool_use_id in ids:
        sent = sanitize_tool_use_id(tool_use_id)
        if sent != tool_use_id:
            rewrites[tool_use_id] = sent
    return rewrites


def _escape(text: str) -> str:
    if text.isascii():
        return text.translate(_ASCII_ESCAPES)
    return "".join(chr(byte) if byte in _KEPT else f"_{byte:02x}" for byte in text.encode("utf-8"))


def _original_of(wire_id: str) -> str | None:
    """The id that :func:`sanitize_tool_use_id` rewrites into ``wire_id``, if any.

    Only exact outputs of the rewrite qualify: the body must be the one escape of an id
    that needed escaping, so natural ids starting with ``cc-`` stay as they are.
    """
    if not wire_id.startswith(PREFIX):
        return None
    body = wire_id[len(PREFIX) :]
    if not _ESCAPED_BODY.match(body):
        return None
    raw = _ESCAPE_SEQUENCE.sub(lambda match: chr(int(match[1], 16)), body).encode("latin-1")
    try:
        original = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    needed_escape = not _VALID.match(original) or _original_of(original) is not None
    return original if needed_escape and _escape(original) == body else None
