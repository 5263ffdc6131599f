"""Token log probabilities, one entry shape shared by three wires (kit module).

OpenAI Chat's ``logprobs.content`` entries (``ChatCompletionTokenLogprob``: ``token``,
``logprob``, ``bytes``, ``top_logprobs`` of ``token``/``logprob``/``bytes``), Responses'
``output_text.logprobs`` entries (``Logprob``, the same keys) and Ollama's ``logprobs``
entries (``api.Logprob``: the same keys, ``bytes`` and ``top_logprobs`` left out when
empty, Go's ``omitempty``) are the canonical :class:`~chatcodec.TokenLogprob`. The two
spellings differ only in what they leave out, so each reader takes its own spelling only
(every key written, or nothing empty written), and a list spelled otherwise stays where
the reader keeps unmapped fields: a same-format round trip is exact either way. One
exception: an empty ``bytes`` list is taken in both, as canonical holds it (the empty
token's UTF-8 is empty) and the writer gives it back; refused, it sent a whole answer's
tokens to the bag.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec._losses import LossRecorder, Steps
from chatcodec._narrow import as_dict, as_list, is_a_double

LOGPROBS = "logprobs"
_ENTRY_KEYS = frozenset({"token", "logprob", "bytes", "top_logprobs"})
_TOP_KEYS = frozenset({"token", "logprob", "bytes"})


def read_token_logprobs(entries: object, *, every_key: bool) -> list[dict[str, Any]] | None:
    """Canonical token log probabilities for a wire list of entries, or None when any entry
    is not spelled as ``every_key`` says (every key present, ``bytes`` possibly ``null`` and
    ``top_logprobs`` possibly empty; or none of them empty or ``null``)."""
    listed = as_list(entries)
    if listed is None:
        return None
    read: list[dict[str, Any]] = []
    for entry in listed:
        token = _read_token(entry, _ENTRY_KEYS, every_key)
        if token is None:
            return None
        top = as_list(token.pop("top_logprobs", None))
        if top is not None:
            alternatives = [_read_token(item, _TOP_KEYS, every_key) for item in top]
            if any(item is None for item in alternatives) or (not top and not every_key):
                return None
            if alternatives:
                token["top_logprobs"] = alternatives
        elif every_key:
            return None
        read.append(token)
    return read


def _read_token(entry: object, keys: frozenset[str], every_key: bool) -> dict[str, Any] | None:
    """The canonical token of one entry (its ``top_logprobs`` as it came, for the caller)."""
    fields = as_dict(entry)
    if fields is None or not fields.keys() <= keys or (every_key and fields.keys() != keys):
        return None
    token, logprob = fields.get("token"), fields.get("logprob")
    if not isinstance(token, str) or not unicode_text(token) or not is_a_double(logprob):
        return None  # canonical text is Unicode and a logprob a double (JSON may hold "\ud800", -Infinity, 1e400)
    read: dict[str, Any] = {"token": token, "logprob": logprob}
    if "top_logprobs" in fields:
        read["top_logprobs"] = fields["top_logprobs"]
    if "bytes" not in fields or (fields["bytes"] is None and every_key):
        return read
    data = as_list(fields["bytes"])
    if data is None or not all(_a_byte(item) for item in data):
        return None
    read["bytes"] = data
    return read


def unicode_text(text: str) -> bool:
    """Whether ``text`` holds no lone surrogate (pydantic-core refuses one in a ``str``
    field, ``string_unicode``; a token cut inside a character may be sent as one)."""
    if text.isascii():
        return True
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def _a_byte(value: object) -> bool:
    return type(value) is int and 0 <= value <= 255


def write_token_logprobs(tokens: Sequence[Mapping[str, Any]], *, every_key: bool) -> list[dict[str, Any]]:
    """The wire entries for canonical token log probabilities: with every key (``bytes``
    ``null``, ``top_logprobs`` empty when there are none), or leaving those out."""
    return [_write_token(token, every_key, top=True) for token in tokens]


def _write_token(token: Mapping[str, Any], every_key: bool, *, top: bool) -> dict[str, Any]:
    entry: dict[str, Any] = {"token": token["token"], "logprob": token["logprob"]}
    data = token.get("bytes")
    if data is not None or every_key:
        entry["bytes"] = data
    if top:
        alternatives = [_write_token(item, every_key, top=False) for item in token.get("top_logprobs") or ()]
        if alternatives or every_key:
            entry["top_logprobs"] = alternatives
    return entry


def put_logprobs(
    fields: dict[str, Any], written: object, provider: str, losses: LossRecorder, at: Steps
) -> dict[str, Any]:
    """A choice's wire ``fields`` (its bag's) with the canonical tokens, as ``written``, at
    ``logprobs``: first, where a bag kept them before they had a canonical field, or at the
    bag's place. The canonical field is the choice's tokens, so a ``logprobs`` the bag also
    kept (a spelling its reader did not take) gives way to it, reported when it differs."""
    kept = fields.get(LOGPROBS, written)
    if kept != written:
        why = "the choice's canonical logprobs take its place"
        losses.add((*at, LOGPROBS), f"{provider} data [{LOGPROBS!r}]", why)
    placed = {LOGPROBS: written, **fields}
    placed[LOGPROBS] = written
    return placed
