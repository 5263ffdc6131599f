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

from typing import TYPE_CHECKING, Any, cast

from chatcodec import ChatcodecError
from chatcodec._providers.openai_chat.common_shapes import COMMON_REQUEST
from chatcodec._providers.openai_chat.markers import PROVIDER
from chatcodec._providers.openai_chat.request_fields import decoders_for
from chatcodec._providers.openai_chat.tools import FRONT_KEY
from chatcodec._providers.openai_chat.wire_validators import fully_validated, request_adapter
from chatcodec.codec_kit import leftovers
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
        "reasoning_effort",
        "response_format",
    }
)
"""The settings read here beside the usual request's fields (and a ``temperature`` or ``top_p``
that is an integer, which the reader reads as a float marked for its own writer): an o-series or
gpt-5 client's ``reasoning_effort``, a JSON client's ``response_format`` (a ``json_schema`` one is
the general top level's: its reading notes its schema for the writer in the conversion's reading)."""


def read_settings(
    payload: dict[str, Any], keys: list[str], *, nulls: bool = False
) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The canonical fields and the reader's bag of ``payload``'s settings named by ``keys`` (and
    the ``stream`` flag beside a ``stream_options``), read from the closed front's copy of them
    by the reader's decoders of those keys; None when the front refuses one (the canonical path
    says why) or a decoder leaves one unmapped (kept as data: reported by a writer).

    ``nulls``: some of ``keys`` are an SDK dump's ``null`` fields (:func:`_view_of`). The reader
    keeps such a field in its bag as it came (its decoders map nothing of a ``null``), for a
    writer to report; where the closed front takes no ``null`` there, the reader reads the full
    wire shapes' copy instead, and so does this."""
    view = _view_of(payload, keys, nulls=nulls)
    copy = COMMON_REQUEST.validate(view)
    if copy is None:
        if not nulls:
            return None
        copy = _fully_validated(view)
        if copy is None:
            return None
    if _noting_a_schema(copy.get("response_format")):
        return None  # its schema's reading is noted for the writer in the conversion's reading: the general top level's
    data: dict[str, Any] = {}
    bag: dict[str, Any] = {}
    mapped = ["messages"]
    for decoder in decoders_for(copy):
        mapped += decoder(copy, data, bag, _UNREAD)
    if not set(mapped).issuperset(copy):
        if not nulls:
            return None
        unmapped = leftovers(copy, mapped)  # the reader's leftovers, first in its bag
        if None in unmapped.values() and all(value is None for value in unmapped.values()):
            return data, {**unmapped, **bag}
        return None
    return data, bag


def _noting_a_schema(response_format: object) -> bool:
    """Whether a ``response_format`` holds a schema, whose reading the reader notes for the
    writer in the conversion's reading (``openai_format_as_sent``)."""
    return response_format.__class__ is dict and cast("dict[str, Any]", response_format).get("type") == "json_schema"


def _view_of(payload: dict[str, Any], keys: list[str], *, nulls: bool) -> dict[str, Any]:
    """The front's least request holding ``payload``'s settings named by ``keys`` (and the ``stream``
    flag beside a ``stream_options``): with ``nulls``, in the order ``payload`` holds them, as the
    full wire shapes' copy keeps a field they do not name (so the reader's bag of them is in
    that order too)."""
    if nulls:
        named = set(keys)
        view = {"messages": [], **{key: value for key, value in payload.items() if key in named}}
    else:
        view = {"messages": [], **{key: payload[key] for key in keys}}
    if "stream_options" in view and "stream" in payload:
        view["stream"] = payload["stream"]
    return view


def _fully_validated(view: dict[str, Any]) -> dict[str, Any] | None:
    """``view`` as the full wire shapes copy it (the reader's copy where the closed front refuses
    a ``null``); None where they refuse it too (the canonical path says why)."""
    try:
        return dict(fully_validated(request_adapter(), view, "OpenAI Chat request"))
    except ChatcodecError:
        return None


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
