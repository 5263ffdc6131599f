"""The reader's side of the usual request's top level, for a direct path's top level
(:mod:`chatcodec._direct.top_levels.openai_chat_usual`, which names no provider folder itself and
asks these through :mod:`chatcodec._direct.openai_chat_source`): its tools as the front and reader
take them, and the client settings beside the usual fields, each read by this folder's own front
and decoders.

The client settings an agent on the OpenAI SDK, litellm or the Vercel AI SDK sends beside the
usual request: a streaming client asks for its usage (``stream_options``), a JavaScript client's
``temperature: 1`` is an integer, a gateway's agent names its ``user``, a ``seed``,
``metadata``, a ``service_tier``, ``stop`` sequences, and the SDKs' ``n: 1`` and ``store:
false``. Without this they sent every such request to the general top level (the canonical
reader's and writer's whole request code, run cold on every request), though each is read
into a canonical field or a spelling marker by one small decoder of the reader
(:data:`~chatcodec._providers.openai_chat.request_fields.DECODERS`). Here the settings alone
are proved by the reader's closed front (its copy of them) and read by those decoders, once per
value of them (a client repeats its settings every step: :func:`read_settings`); a setting they
leave unmapped (kept in the bag as data, for a writer to report) is the general top level's."""

from __future__ import annotations

import marshal
from typing import TYPE_CHECKING, Any

from chatcodec._providers.openai_chat.common_shapes import COMMON_REQUEST
from chatcodec._providers.openai_chat.markers import PROVIDER
from chatcodec._providers.openai_chat.request_fields import decoders_for
from chatcodec._providers.openai_chat.tools import FRONT_KEY
from chatcodec.contract import DecodeContext

if TYPE_CHECKING:
    from chatcodec.contract import Reading

SETTINGS = frozenset(
    {
        "stream_options",
        "user",
        "seed",
        "metadata",
        "service_tier",
        "stop",
        "n",
        "store",
        "frequency_penalty",
        "presence_penalty",
    }
)
"""The settings read here beside the usual request's fields (and a ``temperature`` or ``top_p``
that is an integer, which the reader reads as a float marked for its own writer)."""


def read_settings(payload: dict[str, Any], keys: list[str]) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The canonical fields and the reader's bag of ``payload``'s settings named by ``keys`` (and
    the ``stream`` flag beside a ``stream_options``), read from the closed front's copy of them
    by the reader's decoders of those keys; None when the front refuses one (the canonical path
    says why) or a decoder leaves one unmapped (kept as data: reported by a writer).

    A client sends the same settings with every request (its ``user``, its ``seed``, its usage
    asked), so the reading of each value of them is remembered by its ``marshal`` text
    (:data:`_READ`): the text proves the value the one read, and the reading is a function of
    that value alone; a request of the same settings takes one ``loads`` of it (a new copy)."""
    try:  # the values in C (a comprehension is a frame, cold); 2: no reference, so one value has one text
        text = marshal.dumps((payload.get("stream"), *map(payload.__getitem__, keys)), 2)
    except ValueError:  # a value that is no built-in type
        return _read(payload, keys)
    known = (tuple(keys), text)
    kept = _READ.get(known)
    if kept is not None:
        return marshal.loads(kept) if kept else None
    read = _read(payload, keys)
    if len(text) <= _MAX_TEXT:
        if len(_READ) >= _MAX_READ:
            _READ.clear()
        _READ[known] = b"" if read is None else marshal.dumps(read)  # the front's copy: JSON values
    return read


def _read(payload: dict[str, Any], keys: list[str]) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """:func:`read_settings`'s reading, by the front and the decoders."""
    settings = dict(zip(keys, map(payload.__getitem__, keys), strict=True))
    if "stream_options" in settings and "stream" in payload:
        settings["stream"] = payload["stream"]
    copy = COMMON_REQUEST.validate({"messages": [], **settings})
    if copy is None:
        return None
    data: dict[str, Any] = {}
    bag: dict[str, Any] = {}
    mapped = ["messages"]
    for decoder in decoders_for(copy):
        mapped += decoder(copy, data, bag, _UNREAD)
    if not set(mapped).issuperset(copy):
        return None
    return data, bag


_READ: dict[tuple[tuple[str, ...], bytes], bytes] = {}
"""A client's settings (their keys, and the ``marshal`` text of the ``stream`` flag and their
values) -> the ``marshal`` text of their reading (the canonical fields and the bag), or ``b""``
when the front or the decoders refused them."""
_MAX_READ = 256
"""Clients of ever other settings do not grow it past this many readings..."""
_MAX_TEXT = 2048
"""...nor of settings past this many bytes (a long ``metadata``): those are read every time."""
_UNREAD = DecodeContext(PROVIDER)
"""The context the settings' decoders are given: they map fields alone and read nothing of a
context nor record anything in it (``tests/test_direct_top_level.py`` holds them to it), so one
is made once, not a context and its loss recorder per request."""


def front_tools(tools: list[dict[str, Any]], text: bytes, noted: Reading) -> list[dict[str, Any]] | None:
    """The reader's canonical tools of the caller's ``tools`` (``text``: their ``marshal`` text, from
    :func:`chatcodec._direct.openai_chat_source.tools_written_whole`), for a direct top level,
    as its front and reader take them: recalled from the memory of tool readings, else the
    front's copy of them read (``FRONT_KEY``) and remembered whole; None when the front refuses them."""
    canonical, _ = noted.recall_tools(tools, FRONT_KEY, _NESTED, unchecked=True)
    if canonical is not None:
        return canonical
    copy = COMMON_REQUEST.validate({"messages": [], "tools": tools})
    if copy is None:
        return None
    start = len(noted.own)
    canonical = FRONT_KEY(copy["tools"], noted)
    noted.remember_tools(text, FRONT_KEY, tools, canonical, start=start, nested=_NESTED, whole=True)
    return canonical


_NESTED = "function"
"""The key of a wire tool's object that holds its schema (the memory's ``nested``)."""
