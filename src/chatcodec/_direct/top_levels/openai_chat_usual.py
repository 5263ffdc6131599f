"""The usual request an agent on the OpenAI SDK sends every step, proved field by field: a
model, function tools, a ``tool_choice`` (and ``parallel_tool_calls``), one token limit,
maybe ``stream``, a ``temperature`` or ``top_p``, and the client settings beside them
(``stream_options``, ``user``, ``seed``, ``stop``, ...: :mod:`~chatcodec._providers.openai_chat.top_level_reading`).
Shared by the direct paths from OpenAI Chat whose top level is written directly
(:mod:`.openai_chat_to_anthropic`, :mod:`.openai_chat_to_openai_responses`).

The general top level of a direct path is the canonical reader's and writer's whole request
code, run on the body without its messages: some ninety calls, each once a request (cold where
a request is a process's first of its shape). A body of these fields alone is proved here as
the reader's closed front checks them and read as its reader reads them (the model, the limit,
the flags; the tools recalled from the memory of tool readings, keyed by the caller's own list,
:func:`~chatcodec._providers.kit.remembered_tools.written_whole`), so each pair writes it by the
rules of each field, each called where it lives. Any other body goes the general top level.
"""

from __future__ import annotations

from collections.abc import Mapping
from math import isfinite
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, cast

from chatcodec._direct.openai_chat_source import (
    EFFORTS,
    SETTINGS,
    SOURCE,
    UnadmittedError,
    front_tools,
    in_own_ranges,
    read_reasoning_object,
    read_settings,
    tools_written_whole,
)
from chatcodec._providers.contract.provider_codec import ProviderCodec
from chatcodec._providers.kit.remembered_tools import NO_MARKS, NO_REPORT

if TYPE_CHECKING:
    from collections.abc import Callable

    from chatcodec._codec_protocols import Codec
    from chatcodec._losses import LossRecorder
    from chatcodec._providers.contract.context import Reading
    from chatcodec._providers.contract.target_rules import ProviderRules
    from chatcodec._providers.kit.remembered_tools import Marks, Report
    from chatcodec.contract import Steps


_USUAL = frozenset(
    {
        "model",
        "messages",
        "tools",
        "tool_choice",
        "parallel_tool_calls",
        "max_completion_tokens",
        "max_tokens",
        "stream",
        "temperature",
        "top_p",
    }
)
"""The fields of the usual agent request, all this top level writes."""
_FLAGS = ("parallel_tool_calls", "stream")
"""The usual fields that are ``true`` or ``false``, read as they are."""
_SAMPLING = ("temperature", "top_p")
"""The usual sampling numbers: a finite float is read as it is (the reader's
``as_sampling_number`` keeps a float; an integer, which it turns into one and marks for its own
writer, goes the general top level)."""
_CHOICES = frozenset({"auto", "none", "required"})
"""The ``tool_choice`` strings the closed front takes."""


class Usual:
    """A body of the usual fields, proved (:func:`usual`): its canonical top level so far (the
    model, the limit, ``stream``, the client settings beside them), the reader's bag of those
    settings (``bag``: its spelling markers, for the writer's kit to claim as it claims the
    canonical request's), its tools as written before (``written``, a new copy, and what that
    writing reported: ``report``, reported again where the pair writes them, and what it noted
    beside them: ``marks``, noted again on the copy's tools) or else as read
    (``read``, the reader's canonical tools) with their ``marshal`` text, and the writer's rules."""

    __slots__ = ("bag", "canonical", "kept", "marks", "read", "report", "rules", "text", "written")

    def __init__(self, canonical: dict[str, Any], rules: ProviderRules | None) -> None:
        self.canonical = canonical
        self.rules = rules
        self.bag: dict[str, Any] = {}
        self.kept: Mapping[str, Any] = NOTHING_KEPT
        """OpenRouter's objects beside the usual fields, which the reader keeps whole (:func:`kept_beside`)."""
        self.written: list[dict[str, Any]] | None = None
        self.report: Report = NO_REPORT
        self.marks: Marks = NO_MARKS
        self.read: list[dict[str, Any]] | None = None
        self.text = b""


def claim_bag(
    found: Usual,
    claim: Callable[[LossRecorder, Any, Steps], Any],
    recorder: LossRecorder,
    kept: Mapping[str, Any] | None = None,
) -> None:
    """The reader's bag of a usual request (``found``'s markers of the client settings, beside
    the fields it keeps whole: ``kept``) claimed by the writer's kit (``claim``) first, as the
    writer claims the canonical request's; a field of the writer's own to restore (the claim
    gives it back) raises :class:`~chatcodec._direct.openai_chat_source.UnadmittedError`: the
    writer's whole request code writes that body."""
    bag = {**kept, **found.bag} if kept else found.bag
    if bag and claim(recorder, {SOURCE: bag}, _OPTIONS):
        raise UnadmittedError


_OPTIONS = ("provider_options",)
"""Where a writer claims a request's bags (its ``encode_request``'s first act)."""


def usual(payload: dict[str, Any], writer: Codec, noted: Reading, *, role: object, write_tools: object) -> Usual | None:  # noqa: C901, PLR0912 - once a request, cold: a call less
    """``payload`` proved the usual agent request, as the reader's closed front would check
    each field (:func:`_settings`; a ``tool_choice`` the reader reads as canonical; the client
    settings beside them read by the reader's own decoders, :func:`_read`; the tools found
    written before by ``write_tools`` (the pair's writing of them, the memory's key), else
    recalled, else checked by the front itself and read by the reader into ``noted``), for a
    built-in ``writer`` (its own tools ``role``: a kit in the built-in's place writes its own
    way), its rules kept for the target rules, OpenRouter's objects beside them on the answer
    (``kept``: :func:`kept_beside`); None for any other, with nothing recorded."""
    if not isinstance(writer, ProviderCodec) or writer.tools is not role:
        return None
    read: list[str] = []  # the client settings, read by the reader's own decoders (top_level_reading)
    if not _USUAL.issuperset(payload):
        if not KEPT_WHOLE.isdisjoint(payload):  # OpenRouter's objects beside the usual fields
            return _kept(payload, writer, noted, role, write_tools)
        keys = tuple(payload)
        settings = _SETTINGS_OF.get(keys)
        if settings is None:
            settings = _settings_of(keys)
        if not settings:
            return None
        read = list(settings)
    canonical = _settings(payload, read)  # (an integer sampling number added to ``read``)
    if canonical is None or ("tool_choice" in payload and not _chosen(payload["tool_choice"])):
        return None
    nulls = None in payload.values()
    if nulls and not _nulls_read(payload, read):
        return None
    found = Usual(canonical, writer.rules)
    if read and not _read(payload, read, found, noted, nulls=nulls):
        return None
    tools = payload.get("tools")
    if tools is None:
        return found
    if tools.__class__ is not list or not tools:
        return None
    found.written, text, found.report, found.marks = tools_written_whole(tools, write_tools)
    if text is None:
        return None
    found.text = text
    if found.written is None:
        found.read = front_tools(tools, text, noted)
        if found.read is None:
            return None  # tools the front refuses: the general top level's, which says why
    return found


def _settings_of(keys: tuple[str, ...]) -> tuple[str, ...]:
    """The client settings among a body's ``keys`` beside the usual fields, in one order whatever
    the body's (empty: a key neither names), remembered by the keys when each names one
    (:data:`_SETTINGS_OF`)."""
    extra = set(keys) - _USUAL
    if not SETTINGS.issuperset(extra):
        return ()  # a field the usual request does not hold: the general top level's (not remembered)
    if len(_SETTINGS_OF) >= _MAX_SETTINGS_OF:
        _SETTINGS_OF.clear()
    settings = _SETTINGS_OF[keys] = tuple(sorted(extra))
    return settings


_SETTINGS_OF: dict[tuple[str, ...], tuple[str, ...]] = {}
"""A body's keys in their order -> the client settings among them (:func:`_settings_of`): a
client sends the same keys every step, so they are told apart once, not per request."""
_MAX_SETTINGS_OF = 256
"""Bodies of ever other keys' orders do not grow it past this."""


def _nulls_read(payload: dict[str, Any], read: list[str]) -> bool:
    """Whether each field ``payload`` sends as ``null`` (an SDK's dump of its unset fields) is one
    the reader keeps in its bag as it came, no decoder mapping it (:data:`_NULLABLE_USUAL`, the
    client settings): the usual ones added to ``read`` then, read with the settings
    (``top_level_reading``'s ``nulls``; the settings' own are in ``read`` already)."""
    for key, value in payload.items():
        if value is None:
            if key in _NULLABLE_USUAL:
                read.append(key)
            elif key not in SETTINGS:
                return False
    return True


_NULLABLE_USUAL = ("max_completion_tokens", "max_tokens", "parallel_tool_calls", "stream", "temperature", "top_p")
"""The usual fields the reader keeps in its bag when ``null`` (its decoders read them only when set);
``model``, ``tools`` and ``tool_choice`` as ``null`` are the general top level's."""


def _read(payload: dict[str, Any], read: list[str], found: Usual, noted: Reading, *, nulls: bool = False) -> bool:
    """Whether the client settings of ``payload`` named by ``read`` are read by the reader's own
    decoders (:func:`~chatcodec._providers.openai_chat.top_level_reading.read_settings`), into ``found``'s
    canonical top level and its bag of the reader's markers (also the canonical request's, as
    the reader keeps them; ``noted``: the conversion's reading, where a ``json_schema`` format's
    decoder notes its schema for the writer)."""
    settings = read_settings(payload, read, nulls=nulls, noted=noted)
    if settings is None:
        return False
    found.canonical.update(settings[0])
    if settings[1]:
        found.bag = settings[1]
        found.canonical["provider_options"] = {SOURCE: settings[1]}
    return True


def _settings(payload: dict[str, Any], read: list[str]) -> dict[str, Any] | None:  # noqa: C901 - once a request, cold
    """The canonical model, limit and flags of a usual request's ``payload``, proved as
    the closed front checks them (exact types) and read as the reader reads them (a limit of
    1 or more is the canonical one: one key of the two, the other absent; no setting outside
    OpenAI's own ranges, which the reader marks); None for others. An integer sampling number
    is added to ``read``, the settings the reader's decoders read."""
    model = payload.get("model")
    if model.__class__ is not str:
        return None
    canonical: dict[str, Any] = {"model": model}
    if "max_completion_tokens" in payload and "max_tokens" in payload:
        return None
    limit = payload.get("max_completion_tokens", payload.get("max_tokens"))
    if limit is not None:
        if limit.__class__ is not int or limit < 1:
            return None
        canonical["max_tokens"] = limit
    for key in _FLAGS:  # the same name and value in canonical
        flag = payload.get(key)
        if flag is not None:
            if flag.__class__ is not bool:
                return None
            canonical[key] = flag
    for key in _SAMPLING:
        number = payload.get(key)
        if number is not None:
            if number.__class__ is int:  # the reader's to read: a float, marked for its own writer
                read.append(key)
                continue
            if number.__class__ is not float or not isfinite(number):
                return None
            canonical[key] = number
    if not in_own_ranges(payload):  # the reader marks such a value the caller's: sent as it came
        return None
    return canonical


def _chosen(choice: object) -> bool:
    """Whether ``choice`` is a ``tool_choice`` the closed front takes and the reader reads as
    a canonical choice: one of its strings, or a named function and nothing else."""
    if choice.__class__ is str:
        return choice in _CHOICES
    if choice.__class__ is not dict:
        return False
    named = cast("dict[str, Any]", choice)
    function: Any = named.get("function")
    return (
        len(named) == 2
        and named.get("type") == "function"
        and function.__class__ is dict
        and len(function) == 1
        and function.get("name").__class__ is str
    )


KEPT_WHOLE = frozenset({"reasoning", "usage"})
"""OpenRouter's own top-level objects beside the usual fields (its ``reasoning`` setting and its
``usage`` accounting, https://openrouter.ai/docs/api-reference/chat-completion): the front takes
any JSON value there; the OpenAI Chat reader keeps ``usage`` in its bag as it came, for a writer
to report, and reads ``reasoning`` into canonical ``reasoning`` by its own decoder
(``openai_chat/reasoning_object.py``), keeping what it does not read (:func:`kept_beside`; the
pair's top level calls that decoder)."""


def kept_beside(payload: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """``payload`` without its fields of :data:`KEPT_WHOLE`, and those fields (what the reader
    keeps in its bag of the usual request's body), when each is an object of texts, integers
    and booleans (OpenRouter's ``{"effort": "high"}``, ``{"include": true}``: no number the
    front reads for NaN, no value deeper than it came); None for a body holding none, or one
    of another value (the general top level's)."""
    if KEPT_WHOLE.isdisjoint(payload):
        return None
    rest: dict[str, Any] = {}
    kept: dict[str, Any] = {}
    for key, value in payload.items():
        if key not in KEPT_WHOLE:
            rest[key] = value
        elif value.__class__ is not dict or not _flat(value):
            return None
        else:
            kept[key] = value
    return rest, kept


def _flat(value: dict[Any, Any]) -> bool:
    """Whether an object's keys are texts and its values texts, integers or booleans (exact types)."""
    return all(key.__class__ is str and item.__class__ in _SCALARS for key, item in value.items())


_SCALARS = frozenset({str, int, bool})
"""The classes of a value :func:`kept_beside` takes in a kept object."""


NOTHING_KEPT: Mapping[str, Any] = MappingProxyType({})
"""What the usual request's bag holds beside its settings: nothing (a body of the usual fields alone)."""


def _kept(payload: dict[str, Any], writer: Codec, noted: Reading, role: object, write_tools: object) -> Usual | None:
    """:func:`usual` of ``payload`` without OpenRouter's objects the reader keeps whole
    (:func:`kept_beside`), those kept on the answer (``kept``); None for any other body, for
    one with an SDK dump's nulls beside them (the reader's bag then in the general top level's order),
    and for one with litellm's ``thinking`` beside OpenRouter's ``reasoning`` (the reader keeps the
    ``thinking`` then, which the settings, read before ``reasoning`` here, would read)."""
    split = kept_beside(payload)
    if split is None or None in payload.values() or ("thinking" in payload and "reasoning" in split[1]):
        return None
    found = usual(split[0], writer, noted, role=role, write_tools=write_tools)
    if found is not None:
        found.kept = split[1]
    return found


def read_kept(kept: Mapping[str, Any], canonical: dict[str, Any]) -> Mapping[str, Any]:
    """OpenRouter's ``reasoning`` object of ``kept`` read as the reader reads it (its decoder,
    ``read_reasoning_object``, into ``canonical``); the fields kept beside the usual request then,
    with what the decoder keeps in the reader's bag in its place (``exclude: true``, its marker),
    as the reader's bag holds them: what the writer's kit claims (:func:`claim_bag`)."""
    data: dict[str, Any] = {}
    bag: dict[str, Any] = {}
    if not read_reasoning_object(dict(kept), data, bag, EFFORTS):
        return kept  # nothing of it read: kept whole, reported
    canonical["reasoning"] = data["reasoning"]
    return {**{key: value for key, value in kept.items() if key != "reasoning"}, **bag}
