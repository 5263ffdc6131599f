"""The client settings an agent on the OpenAI SDK, litellm or the Vercel AI SDK sends beside the
usual request (:mod:`.top_levels.openai_chat_usual`), read by the OpenAI Chat reader's own front
and decoders, so a direct top level writes them by each field's rule.

A streaming client asks for its usage (``stream_options``), a JavaScript client's
``temperature: 1`` is an integer, a gateway's agent names its ``user``, a ``seed``,
``metadata``, a ``service_tier``, ``stop`` sequences, and the SDKs' ``n: 1`` and ``store:
false``. Without this they sent every such request to the general top level (the canonical
reader's and writer's whole request code, run cold on every request), though each is read
into a canonical field or a spelling marker by one small decoder of the reader
(:data:`~chatcodec._providers.openai_chat.request_fields.DECODERS`). Here the settings alone
are proved by the reader's closed front (its copy of them) and read by those decoders; a
setting they leave unmapped (kept in the bag as data, for a writer to report) is the general
top level's.
"""

from __future__ import annotations

from typing import Any

from chatcodec._direct.openai_chat_source import SOURCE
from chatcodec._providers.contract.context import DecodeContext
from chatcodec._providers.openai_chat.common_shapes import COMMON_REQUEST
from chatcodec._providers.openai_chat.request_fields import decoders_for

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
    view = {key: payload[key] for key in keys}
    if "stream_options" in view and "stream" in payload:
        view["stream"] = payload["stream"]
    copy = COMMON_REQUEST.validate({"messages": [], **view})
    if copy is None:
        return None
    del copy["messages"]
    data: dict[str, Any] = {}
    bag: dict[str, Any] = {}
    context = DecodeContext(SOURCE)
    mapped: list[str] = []
    for decoder in decoders_for(copy):
        mapped += decoder(copy, data, bag, context)
    if not set(mapped).issuperset(copy):
        return None
    return data, bag
