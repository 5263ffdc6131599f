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
are proved by the reader's closed front (its copy of them) and read by those decoders; a
setting they leave unmapped (kept in the bag as data, for a writer to report) is the general
top level's."""

from __future__ import annotations

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
    says why) or a decoder leaves one unmapped (kept as data: reported by a writer)."""
    view: dict[str, Any] = {
        "messages": [],
        **{key: payload[key] for key in keys},
    }  # the front's least request, the settings
    if "stream_options" in view and "stream" in payload:
        view["stream"] = payload["stream"]
    copy = COMMON_REQUEST.validate(view)
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
