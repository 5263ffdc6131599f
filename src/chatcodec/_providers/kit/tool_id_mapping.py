"""Tool-call ids a provider accepts, by a reversible, collision-free rewrite (kit module).

Providers restrict tool-call ids, each differently: Anthropic takes ``^[a-zA-Z0-9_-]+$``
(400 "String should match pattern"); Bedrock Converse takes ``[a-zA-Z0-9_.:-]+`` of 1 to
64 characters (botocore's ``ToolUseId`` shape). Other providers mint ids like
``functions.write:0`` (Kimi, DeepSeek), ``call|abc`` (proxies) or 80-character ones.
Replacing bad characters with ``_`` (what many proxies do) makes ``a.b`` and ``a:b``
collide, and two different calls then share one id.

:class:`ToolIdMapping` is that rewrite for one provider's rule; it is a pure function, so
a call and its result always agree, and it is:

* **minimal**: an id the provider accepts is left alone;
* **injective**: an id that needs rewriting becomes ``cc-`` followed by the id with every
  byte outside ``[A-Za-z0-9-]`` written as ``_`` plus two lowercase hex digits (UTF-8), so
  ``a.b`` -> ``cc-a_2eb`` and ``a:b`` -> ``cc-a_3ab``. A valid id that happens to *be* such
  an escape (``cc-a_2eb`` itself) is escaped too (``cc-cc-a_5f2eb``), so it cannot collide;
* **reversible**: :meth:`ToolIdMapping.restore` undoes it, and decoding applies it, so
  ``encode(decode(x)) == x`` for every valid wire id.

With a length limit, an escape that does not fit (or an id too long to begin with) cannot
be reversible: it becomes ``cc.`` plus a SHA-256 prefix (``.`` never appears in an escape,
so it cannot collide with one), and :meth:`ToolIdMapping.hashed` tells the encoder to
report the changed id as a loss.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from re import Pattern

PREFIX = "cc-"
"""Start of every reversibly rewritten id."""

HASHED_PREFIX = "cc."
"""Start of an id rewritten by hashing (only where a length limit forces it)."""

_ESCAPED_BODY = re.compile(r"\A(?:[A-Za-z0-9-]|_[0-9a-f]{2})*\Z")
_ESCAPE_SEQUENCE = re.compile(r"_([0-9a-f]{2})")
_KEPT = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-")
_ASCII_ESCAPES = {byte: f"_{byte:02x}" for byte in range(128) if byte not in _KEPT}


class ToolIdMapping:
    """The rewrite for one provider: ``valid`` is the id rule it enforces, ``max_length``
    its length limit (``None`` when it documents none)."""

    __slots__ = ("identifiers", "max_length", "sanitize", "valid")

    def __init__(self, valid: str, max_length: int | None = None, *, identifiers: bool = False) -> None:
        self.valid: Pattern[str] = re.compile(valid)
        """What the provider accepts (matched from the start, ``$``-anchored by the caller)."""
        self.max_length: int | None = max_length
        """The longest id the provider accepts."""
        self.identifiers: bool = identifiers
        """Whether ``valid`` accepts every ASCII identifier (``call_abc``, ``toolu_01...``: most ids
        minted), asked first by ``str.isidentifier``, which costs a tenth of the pattern's match
        (each new id of a first sight asks)."""
        # each id is sent twice (call and result), often in every request of a session
        self.sanitize: Callable[[str], str] = lru_cache(maxsize=4096)(self._sanitized)
        """The id the provider is sent: unchanged when valid, else escaped (or hashed);
        the cache itself, with no method around it (it is called once per call and result)."""

    def _sanitized(self, tool_use_id: str) -> str:
        # accepted (:meth:`_accepts`, inlined: every new id of a body asks); the usual id has
        # no escape's prefix, so no unescaping is tried; a rewrite apart (:meth:`_rewritten`:
        # CPython readies a function's code at a cost in proportion to its size)
        if (
            (self.max_length is None or len(tool_use_id) <= self.max_length)
            and (
                (self.identifiers and tool_use_id.isascii() and tool_use_id.isidentifier())
                or self.valid.match(tool_use_id)
            )
            and (not tool_use_id.startswith(PREFIX) or self._original_of(tool_use_id) is None)
        ):
            return tool_use_id
        return self._rewritten(tool_use_id)

    def _rewritten(self, tool_use_id: str) -> str:
        """The id :meth:`sanitize` sends for one the provider does not accept: escaped, or hashed."""
        escaped = PREFIX + self.escape_text(tool_use_id)
        if self.max_length is None or len(escaped) <= self.max_length:
            return escaped
        import hashlib  # only for an id too long to escape: loading OpenSSL costs a first use

        digest = hashlib.sha256(tool_use_id.encode("utf-8", "surrogatepass")).hexdigest()
        return HASHED_PREFIX + digest[: self.max_length - len(HASHED_PREFIX)]

    def hashed(self, tool_use_id: str) -> bool:
        """Whether the id is sent hashed: it cannot be read back, so it is a loss."""
        return self.sanitize(tool_use_id).startswith(HASHED_PREFIX) and tool_use_id != self.sanitize(tool_use_id)

    def restore(self, wire_id: str) -> str:
        """The original id behind a rewritten one; any other id is returned unchanged."""
        original = self._original_of(wire_id)
        return wire_id if original is None else original

    def rewrites(self, ids: Iterable[str]) -> dict[str, str]:
        """``{original: sent}`` for the ids among ``ids`` that the encoder rewrites."""
        rewrites: dict[str, str] = {}
        for tool_use_id in ids:
            sent = self.sanitize(tool_use_id)
            if sent != tool_use_id:
                rewrites[tool_use_id] = sent
        return rewrites

    def _accepts(self, tool_use_id: str) -> bool:
        if self.max_length is not None and len(tool_use_id) > self.max_length:
            return False
        return self.valid.match(tool_use_id) is not None

    def _original_of(self, wire_id: str) -> str | None:
        """The id that :meth:`sanitize` rewrites into ``wire_id``, if any.

        Only exact outputs of the rewrite qualify: the body must be the one escape of an id
        that needed escaping, so natural ids starting with ``cc-`` stay as they are.
        """
        original = self.unescape_text(wire_id[len(PREFIX) :]) if wire_id.startswith(PREFIX) else None
        if original is None:
            return None
        return original if not self._accepts(original) or self._original_of(original) is not None else None

    @staticmethod
    def escape_text(text: str) -> str:
        """``text`` in ``[A-Za-z0-9_-]``: every byte outside ``[A-Za-z0-9-]`` written as ``_``
        plus two lowercase hex digits (UTF-8), the escape of this rewrite; it never holds two
        ``_`` in a row, so a separator of two can follow or precede it."""
        if text.isascii():
            return text.translate(_ASCII_ESCAPES)
        return "".join(chr(byte) if byte in _KEPT else f"_{byte:02x}" for byte in text.encode("utf-8", "surrogatepass"))

    @staticmethod
    def unescape_text(body: str) -> str | None:
        """The text :meth:`escape_text` wrote as ``body``; None when ``body`` is no such escape."""
        if not _ESCAPED_BODY.match(body):
            return None
        raw = _ESCAPE_SEQUENCE.sub(lambda match: chr(int(match[1], 16)), body).encode("latin-1")
        try:
            text = raw.decode("utf-8", "surrogatepass")
        except UnicodeDecodeError:
            return None
        return text if ToolIdMapping.escape_text(text) == body else None
