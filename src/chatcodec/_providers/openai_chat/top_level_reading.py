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

import marshal
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
    from chatcodec._providers.openai_chat.wire import Request
    from chatcodec.contract import Reading

KEPT_AS_DATA = frozenset(
    {"modalities", "prediction", "web_search_options", "top_k", "thinking", "prompt_cache_key", "safety_identifier"}
)
"""The OpenAI SDK's ``modalities``, ``prediction`` and ``web_search_options``: fields an agent's
client sends every step that no decoder maps; and a ``top_k``, ``thinking``, ``prompt_cache_key``
or ``safety_identifier`` the reader's decoders do not read (vLLM's ``top_k: -1``, a ``thinking``
beside ``reasoning_effort``: :mod:`~chatcodec._providers.openai_chat.passed_through`; a key that
is not a text), kept as it came. One of them at a time: the order of several in the bag is the
front copy's, which a view of the settings does not keep."""

SETTINGS = (
    frozenset(
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
    | KEPT_AS_DATA
)
"""The settings read here beside the usual request's fields (and a ``temperature`` or ``top_p``
that is an integer, which the reader reads as a float marked for its own writer): an o-series or
gpt-5 client's ``reasoning_effort``, a JSON client's ``response_format`` (a ``json_schema`` one,
structured outputs, read with the conversion's reading, where its decoder notes the schema for the
writer: :func:`read_settings`' ``noted``). Beside them, one field the reader has no canonical home for
(:data:`KEPT_AS_DATA`) is read as it keeps it: first in its bag, as data, which the writer's kit
reports where it claims the bag (a direct top level claims it as the writer does)."""


def read_settings(
    payload: dict[str, Any], keys: list[str], *, nulls: bool = False, noted: Reading | None = None
) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The canonical fields and the reader's bag of ``payload``'s settings named by ``keys`` (and
    the ``stream`` flag beside a ``stream_options``), read by the reader's decoders of those keys
    from the closed front's copy of them (or from them as they are, where they are values the
    front takes as they are: :func:`settings_shape`); None when the front refuses one (the
    canonical path says why) or a decoder leaves one unmapped (kept as data: reported by a writer)
    but one of :data:`KEPT_AS_DATA`.

    ``nulls``: some of ``keys`` are an SDK dump's ``null`` fields (:func:`_with_nulls`). The
    reader keeps such a field in its bag as it came (its decoders map nothing of a ``null``),
    for a writer to report.

    ``noted``: the conversion's reading, where the decoder of a ``json_schema`` format notes its
    schema for the writer (:func:`_schema_read`); without it such a format is the general top level's."""
    if nulls:
        copy = _with_nulls(payload, keys)
    else:
        view: dict[str, Any] = {}
        for key in keys:  # a loop in this frame: a comprehension's frame is a call, run cold
            view[key] = payload[key]
        if "stream_options" in view and "stream" in payload:
            view["stream"] = payload["stream"]
        shape = settings_shape(view)
        if shape is not None:
            known = _BY_SHAPE.get(shape)
            return _read_by_shape(view, shape) if known is None else _as_known(known, view)
        copy = COMMON_REQUEST.validate({"messages": [], **view})
    if copy is None:
        return None
    if _noting_a_schema(copy.get("response_format")):
        return None if nulls or noted is None else _decoded(copy, nulls=False, context=_schema_read(noted))
    return _decoded(copy, nulls=nulls)


def _schema_read(noted: Reading) -> DecodeContext:
    """The context the decoders read a ``json_schema`` format in, as the reader's own has it when
    its closed front took the body: ``closed`` (the schema is the front's copy, remembered by its
    text) and the conversion's reading ``noted``, where the decoder notes whether the writer sends
    the schema as it came (``openai_format_as_sent``) and how it looks (``note_for_writer``).
    A body with a ``null`` beside it (maybe the full wire shapes' copy, not the front's) is the
    general top level's."""
    return DecodeContext(PROVIDER, closed=True, reading=noted)


def _decoded(
    copy: dict[str, Any], *, nulls: bool, context: DecodeContext | None = None
) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The reader's decoders of ``copy``'s keys run on it (in ``context``, else :data:`_UNREAD`):
    the canonical fields and the bag; None when one leaves a key unmapped (but a ``null``, with
    ``nulls``: kept first in the bag)."""
    data: dict[str, Any] = {}
    bag: dict[str, Any] = {}
    mapped = ["messages"]
    read_in = _UNREAD if context is None else context
    for decoder in decoders_for(copy):
        mapped += decoder(copy, data, bag, read_in)
    if not set(mapped).issuperset(copy):
        unmapped = leftovers(copy, mapped)  # the reader's leftovers, first in its bag
        if len(unmapped) == 1 and KEPT_AS_DATA.issuperset(unmapped):  # a field kept as data (a null too)
            return data, {**unmapped, **bag}
        if nulls and None in unmapped.values() and all(value is None for value in unmapped.values()):
            return data, {**unmapped, **bag}
        return None
    return data, bag


Known = tuple[dict[str, Any], bytes, tuple[str, ...]]
"""A shape's reading (:data:`_BY_SHAPE`): its canonical fields in the decoders' order, the varying
ones ``None`` (no caller's value is kept), its bag's ``marshal`` text, and the varying keys (each
read as the value itself)."""


def _as_known(known: Known, view: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The reading of a view of a shape read before (``known``): its fields, the varying ones
    ``view``'s own values, and a new copy of its bag."""
    data = dict(known[0])
    for key in known[2]:
        data[key] = view[key]
    return data, (marshal.loads(known[1]) if known[1] else {})


def _read_by_shape(view: dict[str, Any], shape: tuple[object, ...]) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """``view`` read by the decoders, and that reading remembered by its ``shape``
    (:func:`settings_shape`) when a trial
    proves it varies with the varying keys' values alone: the decoders read again with other
    values there give those values as they are, in the same places, and the rest the same."""
    read = _decoded(view, nulls=False)
    if read is None:
        return None
    varying = tuple(key for key in VARYING if key in view)
    trial = dict(view)
    for key in varying:
        value = view[key]
        trial[key] = other_value(value)
    again = _decoded(trial, nulls=False) if varying else read
    if again is None or not _varies_alone(read, again, view, trial, varying):
        return read
    if len(_BY_SHAPE) >= _MAX_SHAPES:
        _BY_SHAPE.clear()
    data = {key: None if key in varying else value for key, value in read[0].items()}  # (in the decoders' order)
    _BY_SHAPE[shape] = (data, marshal.dumps(read[1]) if read[1] else b"", varying)
    return read


def _varies_alone(
    read: tuple[dict[str, Any], dict[str, Any]],
    again: tuple[dict[str, Any], dict[str, Any]],
    view: dict[str, Any],
    trial: dict[str, Any],
    varying: tuple[str, ...],
) -> bool:
    """Whether two readings (of ``view`` and of ``trial``, which differ at ``varying`` alone) hold
    each varying value itself at its key, and the same bag and other fields, of the same types."""
    for key in varying:
        if read[0].get(key) is not view[key] or again[0].get(key) is not trial[key]:
            return False
    rest = [{key: value for key, value in data.items() if key not in varying} for data, _ in (read, again)]
    return marshal.dumps((rest[0], read[1]), 2) == marshal.dumps((rest[1], again[1]), 2)


VARYING = ("user", "safety_identifier", "prompt_cache_key", "seed")
"""The settings a client sends its own value of per session (its end user, its cache key, a seed), which a
shape's reading is remembered without (:func:`_read_by_shape` proves the decoders copy them)."""
_BY_SHAPE: dict[tuple[object, ...], Known] = {}
"""A settings view's shape (:func:`settings_shape`) -> its reading (:data:`Known`): a client sends
the same settings every step, its own user and seed in them, so the decoders run once a shape."""
_MAX_SHAPES = 64
"""Views of ever other settings' values do not grow it past this (all forgotten)."""


def other_value(value: str | int) -> str | int:
    """Another value of a client's own setting (:data:`VARYING`'s: a text, or an integer of 64 bits),
    of the same class and still one :func:`settings_shape` takes: a trial's, which proves a reading
    holds the value as it is and nothing else of it."""
    if isinstance(value, str):
        return value + "x"
    return value + 1 if value < 0 else value - 1


def settings_shape(view: dict[str, Any]) -> tuple[object, ...] | None:
    """The shape of a request's settings in ``view`` (each key, with its value but for a key of
    :data:`VARYING`, a client's ``user``, keys and ``seed``, its own per session; a
    ``stream_options``' one flag) when each is a value the closed front takes and copies as it is
    (:data:`_AS_THEY_ARE`: a client's ``user``, ``safety_identifier`` or ``prompt_cache_key``
    text in ASCII, an integer ``seed``, ``n`` or ``top_k`` of 64 bits, the ``stream`` and ``store`` flags, a
    ``temperature`` or ``top_p`` that is an integer (the usual ones' ranges are asked before),
    ``stream_options`` asking for the usage or not), so the reader's decoders read them with no
    copy made (they keep no object of them: a text, a number, a flag); None for another.
    ``tests/test_direct_top_level.py`` holds it to the front."""
    shape: list[object] = []
    for key, value in view.items():  # one pass: the proof and the shape
        kind = value.__class__
        if _AS_THEY_ARE.get(key) is not kind:
            return None
        if kind is str:
            if not value.isascii():
                return None
        elif kind is int:
            if not -_INT64 <= value < _INT64:
                return None
        elif kind is dict:  # (stream_options)
            if len(value) != 1 or value.get("include_usage").__class__ is not bool:
                return None
            shape.append((key, *value.items()))
            continue
        shape.append(key if key in VARYING else (key, value))
    return tuple(shape)


_AS_THEY_ARE: dict[str, type] = {
    "user": str,
    "safety_identifier": str,
    "prompt_cache_key": str,
    "seed": int,
    "n": int,
    "top_k": int,
    "stream": bool,
    "store": bool,
    "temperature": int,
    "top_p": int,
    "stream_options": dict,
}
"""The settings :func:`settings_shape` proves as the front takes them, each by its exact class."""
_INT64 = 1 << 63
"""An integer setting is proved within 64 bits (the front takes larger ones too: read from its copy)."""


def _noting_a_schema(response_format: object) -> bool:
    """Whether a ``response_format`` holds a schema, whose reading the reader notes for the
    writer in the conversion's reading (``openai_format_as_sent``)."""
    return response_format.__class__ is dict and cast("dict[str, Any]", response_format).get("type") == "json_schema"


def _with_nulls(payload: dict[str, Any], keys: list[str]) -> dict[str, Any] | None:
    """The copy the reader reads of ``payload``'s settings named by ``keys``, some of them ``null``:
    the closed front's, else the full wire shapes' where the front takes no ``null`` there, of
    them in the order ``payload`` holds them, as the full wire shapes' copy keeps a field they do
    not name (so the reader's bag of them is in that order too); None where both refuse it."""
    named = set(keys)
    view: dict[str, Any] = {"messages": [], **{key: value for key, value in payload.items() if key in named}}
    if "stream_options" in view and "stream" in payload:
        view["stream"] = payload["stream"]
    copy = COMMON_REQUEST.validate(view)
    return _fully_validated(view) if copy is None else copy


def _fully_validated(view: dict[str, Any]) -> dict[str, Any] | None:
    """``view`` as the full wire shapes copy it (the reader's copy where the closed front refuses
    a ``null``); None where they refuse it too (the canonical path says why)."""
    try:
        validated: Request = fully_validated(request_adapter(), view, "OpenAI Chat request")
    except ChatcodecError:
        return None
    return dict(validated)


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
