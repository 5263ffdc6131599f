"""Anthropic -> OpenAI Chat, the request's top level read directly for the request a Claude agent
sends every step (Claude Code, the Agent SDK): a model, ``max_tokens``, a ``system`` prompt (a
string, or text blocks with a cache marker), client tools, a ``tool_choice``, maybe ``stream``,
and a client's settings beside them: Claude Code's ``metadata.user_id`` and ``thinking`` with its
budget, sampling numbers, ``stop_sequences``.

The pair's direct path (:mod:`chatcodec._direct.anthropic_to_openai_chat`) writes the turns in
one pass. The top level around them was the canonical reader's whole request code, run on the
body without its turns: the closed front validating the body again (its tools most of it), the
tools recalled by the front's copy, some dozens of calls each once a request (cold where a
request is a process's first of its shape). Here a body of the usual fields alone is proved as
the reader's closed front checks them (the front asked about the tools and a system prompt of
blocks alone) and read by the reader's own functions for each: the tools and the ``tool_choice``
by ``decode_tools`` (the tools recalled from the memory of tool readings by the front's copy, as
the reader recalls them), the system prompt by ``decode_system``, the ranges by
``outside_own_ranges``, a client's settings (each proved of a shape the front copies as it is,
:data:`_PROOFS`) by ``decode_knobs``, ``decode_limits``, ``decode_identity``,
``decode_settings`` and ``mark_version``, their markers in the reader's bag. The canonical data
it gives is the reader's.

Its write (:func:`write_usual`) is the OpenAI Chat writer's, field by field, each rule called
where it lives, in the order and places the writer's ``encode_request`` gives them: the reader's
bag reported as the writer reports another format's (markers are spellings: nothing to report),
the ``model``, the ``messages`` the pair's pass writes, the tools (``encode_functions``) and the
``tool_choice`` (``encode_choice``), the settings (the writer's ``encode_knobs``; for a body of
``stream`` and the limit alone, its two lifted parts ``write_as_they_are`` and
``encode_limit``), a stream's usage asked for (``ask_for_usage``), the reasoning
(``encode_settings``: a thinking budget becomes an effort, reported), the default server's fit
(``fit_written``: only where the pass wrote a turn by the writer's general function, as a plain
turn's calls hold nothing the writer places for a server), the target rules. The tools are
written once: the written list is kept beside their reading by the caller's list as one
``marshal`` text, and a request of the same tools takes one ``loads`` of it
(:class:`KeptTools`). What the writer's general request code does besides cannot act on such a
body: no bag of its own, no response format, no request-wide marker, the history's rules over
the system prompt alone (the pass writes the turns, and a system prompt of no blocks is handed
back). A model only a named server serves (DeepSeek's, Gemini's) goes the writer's whole request
code, which fits the body to that server. The canonical path stays the oracle: the tests and the
differential hold the two equal. Any other body goes the general top level.
"""

from __future__ import annotations

import marshal
from collections.abc import Callable, Sequence
from math import isfinite
from typing import TYPE_CHECKING, Any, cast

from chatcodec._providers.anthropic.capabilities import CAPABILITIES
from chatcodec._providers.anthropic.messages import decode_system
from chatcodec._providers.anthropic.request import decode_identity, decode_knobs, decode_limits, mark_version
from chatcodec._providers.anthropic.rules import RULES
from chatcodec._providers.anthropic.settings import decode_settings
from chatcodec._providers.anthropic.tools import client_tools, decode_tools, read_client_tools
from chatcodec._providers.anthropic.wire import COMMON_REQUEST
from chatcodec._providers.contract.context import NO_OPTIONS, DecodeContext, EncodeContext
from chatcodec._providers.contract.provider_codec import ProviderCodec
from chatcodec._providers.contract.target_rules import apply_target_rules, outside_own_ranges
from chatcodec._providers.kit.citations import report_request_citations
from chatcodec._providers.kit.remembered_tools import NO_REPORT, also_as, remember_written_whole, written_whole
from chatcodec._providers.openai_chat import tools as openai_chat_tools
from chatcodec._providers.openai_chat.capabilities import CAPABILITIES as WRITTEN
from chatcodec._providers.openai_chat.markers import KIT as WRITTEN_KIT
from chatcodec._providers.openai_chat.request import ask_for_usage, encode_knobs, encode_limit, write_as_they_are
from chatcodec._providers.openai_chat.servers import DEFAULT, fit_written, server_for_model
from chatcodec._providers.openai_chat.settings import encode_settings
from chatcodec._providers.openai_chat.tools import encode_choice, encode_functions

if TYPE_CHECKING:
    from chatcodec._codec_protocols import Codec
    from chatcodec._losses import LossRecorder
    from chatcodec._providers.contract.context import Reading
    from chatcodec._providers.kit.remembered_tools import Report

SOURCE, TARGET = "anthropic", "openai-chat"
_USUAL = frozenset({"model", "max_tokens", "messages", "system", "tools", "tool_choice", "stream"})
"""The fields of the usual Claude agent request."""
_SETTINGS = frozenset({"metadata", "thinking", "output_config", "temperature", "top_p", "top_k", "stop_sequences"})
"""A client's settings beside them (Claude Code sends ``metadata.user_id`` and ``thinking`` with
its budget every step, and an ``output_config`` effort to the models that take one), proved as
the closed front checks them (:data:`_PROOFS`) and read by the reader's own decoders
(``decode_knobs``, ``decode_limits``, ``decode_identity``, ``decode_settings``, ``mark_version``)."""
_READ = _USUAL | _SETTINGS
"""Every field this top level reads."""
_CANONICAL_USUAL = frozenset(
    {"model", "stream", "messages", "max_tokens", "tools", "tool_choice", "reasoning", "provider_options"}
)
"""The canonical fields of a usual request with no setting the writer's ``encode_knobs`` looks for
beyond ``stream`` and the limit (such a request takes its two lifted parts alone)."""
_CHOICES = frozenset({"auto", "any", "none"})
"""The ``tool_choice`` types that name no tool."""
_NO_CHOICE = {"type": "auto"}
"""What an absent ``tool_choice`` is proved as (nothing is read for it)."""
_LARGEST = 2**63
"""A limit past a 64-bit integer goes the general top level, whose front says what it makes of it."""
_SCHEMA = "input_schema"
"""Where an Anthropic client tool holds its schema (the memory of tool readings asks)."""
_TEXT_VERSIONS = (marshal.version, 2)
"""The ``marshal`` versions of the caller's tools' texts (:class:`KeptTools`), the fastest first.
The newest writes a reference for an object held elsewhere too, so the same tools shared otherwise
have another text (a JSON parser shares a key between a tool's schema and a call's input, and the
calls of a session differ); version 2 writes none (a slower text: every string encoded), so a list
of one value has one text however its objects are shared."""
_OPTIONS = ("provider_options",)
"""Where the writer reports another format's bag of a request."""
_CITED = "request" in CAPABILITIES.citations
"""Whether the reader may put a url citation on a request's text (as ``read_request`` asks)."""


class KeptInBagError(Exception):
    """The reader kept a field of a proved body in the request's bag, which this top level does not
    carry: the conversion goes the canonical path from the start (the pair hands it back)."""


class KeptTools:
    """The caller's tools, for a write by the built-in ``writer`` (:func:`write_usual`): as it
    wrote them before (``written``, a new copy from one ``marshal`` text, and what that writing
    reported: ``report``, reported again where the tools are written), else the ``marshal``
    texts of the caller's list their reading is remembered whole by (``texts``, one a version of
    :data:`_TEXT_VERSIONS`), for the writing to be kept beside it (:func:`write_tools`)."""

    __slots__ = ("report", "texts", "writer", "written")

    def __init__(self, writer: ProviderCodec) -> None:
        self.writer = writer
        self.written: list[dict[str, Any]] | None = None
        self.report: Report = NO_REPORT
        self.texts: list[bytes] = []

    @classmethod
    def of(cls, writer: Codec) -> KeptTools | None:
        """A record for ``writer`` when it is the built-in OpenAI Chat writer (its own tools role:
        a kit in the built-in's place writes its own way), which :func:`write_usual` writes for; else None."""
        if isinstance(writer, ProviderCodec) and writer.tools is openai_chat_tools:
            return cls(writer)
        return None

    def look(self, tools: list[dict[str, Any]]) -> bool:
        """Whether the caller's ``tools`` were written before (then :attr:`written`), looked up by
        their text of each version in turn (found by a later one, the texts missed are remembered
        for it: a session's list keeps its newest text once a new call's keys shared it); else their
        texts are kept (those ``marshal`` writes)."""
        for version in _TEXT_VERSIONS:
            self.written, text, self.report, _ = written_whole(tools, read_client_tools, write_tools, version=version)
            if self.written is not None:
                for missed in self.texts:  # the same list's text the look missed: found by it next time
                    also_as(cast("bytes", text), read_client_tools, missed)
                return True
            if text is not None:
                self.texts.append(text)
        return False


def read_usual(payload: dict[str, Any], noted: Reading, kept: KeptTools | None = None) -> dict[str, Any] | None:
    """The canonical top level of ``payload`` (its ``messages`` the system prompt alone, as the
    general top level reads the body without its turns), when it is the usual agent request
    proved as the closed front checks it; None for any other, with nothing noted (the general
    top level then reads the body). Raises :class:`KeptInBagError` past the proof.

    ``kept``: given when the built-in writer writes the body (:func:`write_usual`), filled for a
    model no named server serves: the tools as that writer wrote them before
    (:func:`~chatcodec._providers.kit.remembered_tools.written_whole`), found by the caller's own
    list (:meth:`KeptTools.look`: no front, reading or writing of them then, and no ``tools`` in
    the canonical data); else the front's copy read as before and that reading remembered whole
    by the caller's texts."""
    settings = _settings(payload)
    if settings is None:
        return None
    canonical, bag = settings
    system, tools = payload.get("system"), payload.get("tools")
    if tools is not None and (tools.__class__ is not list or not tools or not client_tools(tools)):
        return None
    if tools is None or server_for_model(canonical["model"]) is not None:
        kept = None  # the writer's whole request code writes a named server's tools
    unread = tools  # the tools the front and the reader take
    if kept is not None and tools is not None and kept.look(tools):
        unread = None
    copy: dict[str, Any] = {}
    if unread is not None or system.__class__ is list:  # what the front checks beyond exact types
        copy = COMMON_REQUEST.validate(_checked(payload, canonical, system, unread)) or {}
        if not copy:
            return None
    canonical["messages"] = [] if system is None else [decode_system(copy.get("system", system))]
    canonical["max_tokens"] = payload["max_tokens"]
    choice = payload.get("tool_choice")
    if unread is not None or choice is not None:
        fields = {"tools": copy["tools"]} if unread is not None else {}
        if choice is not None:
            fields["tool_choice"] = choice
        kept_by_tools: dict[str, Any] = {}
        start = len(noted.own)
        decode_tools(fields, canonical, kept_by_tools, DecodeContext(SOURCE, closed=True, reading=noted))
        if kept_by_tools:  # nothing the proved shapes keep there; were it to, the canonical path converts afresh
            raise KeptInBagError(sorted(kept_by_tools))
        for text in kept.texts if kept is not None and unread is not None else ():
            read = canonical.get("tools")
            noted.remember_tools(text, read_client_tools, copy["tools"], read, start=start, whole=True, schema=_SCHEMA)
    if bag is not None:
        _read_settings(payload, canonical, bag, noted)
    noted.read_by(SOURCE, canonical, _CITED)
    return canonical


def _read_settings(payload: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any], noted: Reading) -> None:
    """A client's settings of ``payload`` (proved: :data:`_PROOFS`) read into ``canonical`` by the
    reader's own functions, its markers (``bag``, :func:`_settings`' so far) the request's bag."""
    decode_limits(payload, canonical, bag)  # stop_sequences (and max_tokens, as read)
    if "metadata" in payload:
        decode_identity(payload, canonical, bag)
    if "thinking" in payload or "output_config" in payload:
        decode_settings(payload, canonical, bag, DecodeContext(SOURCE, closed=True, reading=noted))
    mark_version(payload, bag, turns=False)
    if bag:  # the reader's markers (an integer's spelling, the API version) or a thinking's other fields
        canonical["provider_options"] = {SOURCE: bag}


def _settings(payload: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any] | None] | None:
    """The canonical model, ``stream`` and sampling settings of a usual request's ``payload`` and,
    for a body holding a client's settings, the reader's bag so far
    (:func:`~chatcodec._providers.anthropic.request.decode_knobs`'s; None: a body of the usual
    fields alone), its other fields proved as the closed front checks them (exact types) and read
    with nothing for the request's bag but the reader's markers: a limit of 1 or more, a choice of
    a type alone or a named tool, a client's settings of the shapes :data:`_PROOFS` takes, no
    setting outside the format's own ranges; None for others."""
    if None in payload.values():
        return None
    beside: dict[str, Any] | None = None  # the reader's bag of a client's settings
    if not _USUAL.issuperset(payload):
        if not _READ.issuperset(payload):
            return None
        for key in _SETTINGS.intersection(payload):
            if not _PROOFS[key](payload[key]):
                return None
        beside = {}
    model, limit, stream = payload.get("model"), payload.get("max_tokens"), payload.get("stream", False)
    if model.__class__ is not str or type(limit) is not int or stream.__class__ is not bool:
        return None
    if not 1 <= limit < _LARGEST or not _chosen(payload.get("tool_choice", _NO_CHOICE)):
        return None
    if outside_own_ranges(RULES, payload):
        return None
    if beside is None:  # the usual fields alone: the model and the flag as they are (the same in canonical)
        return ({"model": model, "stream": stream} if "stream" in payload else {"model": model}), None
    canonical: dict[str, Any] = {}
    decode_knobs(payload, canonical, beside)  # model, stream, the sampling settings
    return canonical, beside


def _number(value: object) -> bool:
    """A JSON number as the front takes a sampling setting: an integer (not a bool) or a finite float."""
    return type(value) is int or (type(value) is float and isfinite(value))


def _count(value: object) -> bool:
    """A whole number of 0 or more that a 64-bit integer holds."""
    return type(value) is int and 0 <= value < _LARGEST


def _texts(value: object) -> bool:
    """A list of texts (``stop_sequences``)."""
    return value.__class__ is list and all(item.__class__ is str for item in cast("list[object]", value))


def _metadata(value: object) -> bool:
    """An object of texts (Claude Code's ``{"user_id": ...}``): a JSON object the front copies as it is."""
    if value.__class__ is not dict:
        return False
    for key, item in cast("dict[object, object]", value).items():  # a loop: a generator's frame cost more, cold
        if key.__class__ is not str or item.__class__ is not str:
            return False
    return True


def _thinking(value: object) -> bool:
    """A ``thinking`` setting of a type the front takes, with its fields alone: ``enabled`` (and
    a ``budget_tokens`` count), ``adaptive``, ``disabled``."""
    if value.__class__ is not dict:
        return False
    fields = cast("dict[str, object]", value)
    kind = fields.get("type")
    if len(fields) == 1:
        return kind.__class__ is str and kind in _THINKING_TYPES
    return len(fields) == 2 and kind.__class__ is str and kind == "enabled" and _count(fields.get("budget_tokens"))


def _output_config(value: object) -> bool:
    """An ``output_config`` of an effort alone, a text (one the reader does not map is kept in its
    bag: the general top level's then)."""
    return (
        value.__class__ is dict
        and len(cast("dict[str, object]", value)) == 1
        and type(cast("dict[str, object]", value).get("effort")) is str
    )


_THINKING_TYPES = frozenset({"enabled", "adaptive", "disabled"})
"""The ``thinking`` types the closed front takes."""
_PROOFS: dict[str, Callable[[object], bool]] = {
    "temperature": _number,
    "top_p": _number,
    "top_k": _count,
    "stop_sequences": _texts,
    "metadata": _metadata,
    "thinking": _thinking,
    "output_config": _output_config,
}
"""Each client setting of :data:`_SETTINGS` beside the proof of its shape, as the front checks it."""


def _checked(payload: dict[str, Any], canonical: dict[str, Any], system: object, tools: object) -> dict[str, Any]:
    """The body the closed front checks: the fields the front must see (the system prompt's blocks,
    the tools not recalled) with the required ones, no turns."""
    body: dict[str, Any] = {"model": canonical["model"], "max_tokens": payload["max_tokens"], "messages": []}
    if system is not None:
        body["system"] = system
    if tools is not None:
        body["tools"] = tools
    return body


def _chosen(choice: object) -> bool:
    """Whether ``choice`` is a ``tool_choice`` the closed front takes and the reader reads with
    nothing left in its bag: a type alone, or ``tool`` and its name."""
    if choice.__class__ is not dict:
        return False
    fields = cast("dict[str, Any]", choice)
    kind = fields.get("type")
    if len(fields) == 1:
        return kind in _CHOICES
    return len(fields) == 2 and kind == "tool" and fields.get("name").__class__ is str


def write_usual(
    canonical: dict[str, Any],
    recorder: LossRecorder,
    noted: Reading,
    kept: KeptTools,
    *,
    messages: Callable[[EncodeContext], tuple[list[dict[str, Any]], bool]],
) -> dict[str, Any] | None:
    """The OpenAI Chat body of ``canonical``, a usual request's top level (:func:`read_usual`'s),
    its losses in ``recorder``: ``model``, the ``messages`` the pair's pass writes (``messages``:
    ``noted``'s, the pair's reading, with whether it wrote a turn by the writer's general function),
    ``tools``, ``tool_choice``, ``stream``, the limit, a stream's usage asked for, the default
    server's fit (where such a turn may have placed something to take back), the target rules, as
    the writer's ``encode_request`` and ``write_request`` write them, for the built-in writer
    (``kept``'s: :meth:`KeptTools.of`, filled by :func:`read_usual`). None, with
    nothing written or recorded, for a model only a named server serves (the writer's whole request
    code then). A rule may raise: the caller hands the conversion back."""
    model: str = canonical["model"]
    if server_for_model(model) is not None:  # a server named by the model: its fit, its reasoning field
        return None
    context = EncodeContext(  # each field given: a default's factory is a call made cold
        TARGET,
        recorder,
        model=model,
        options=NO_OPTIONS,
        rules=kept.writer.rules,
        for_request=True,
        holds=None,
        reading=noted,
    )
    if not noted.handed_to(TARGET, canonical):  # what write_request asks before its writer
        report_request_citations(canonical, recorder, WRITTEN.display_name)
    options = canonical.get("provider_options")
    if options:  # the reader's bag: its markers are spellings, a field kept is reported (the writer's first act)
        WRITTEN_KIT.report_foreign(recorder, options, _OPTIONS)
    turns, general = messages(context)
    wire: dict[str, Any] = {"model": model, "messages": turns}
    tools = canonical.get("tools")
    if kept.written is not None:
        wire["tools"] = kept.written
        if kept.report:  # what that writing reported (a tool's cache marker), reported again
            recorder.repeat(kept.report, ())
    elif tools:
        wire["tools"] = write_tools(tools, kept.texts, context)
    encode_choice(canonical, wire, recorder)
    bag: dict[str, Any] = {}  # the writer's own: read_usual keeps none of its markers
    if _CANONICAL_USUAL.issuperset(canonical):
        write_as_they_are(canonical, wire)  # stream: no other setting
        encode_limit(canonical, bag, context, wire)
    else:
        encode_knobs(canonical, bag, context, wire)
    ask_for_usage(canonical, wire, bag)
    if "reasoning" in canonical:
        encode_settings(canonical, wire, bag, context)
    if general:  # a plain turn's calls hold their id, type and function alone: nothing placed to take back
        fit_written(wire, DEFAULT, False, context)
    recorder.renumber(None)  # the rules name places in the body, not in the input converted
    recorder.trace(None)
    apply_target_rules(wire, context, request=canonical)
    return wire


def write_tools(
    canonical: list[dict[str, Any]], texts: Sequence[bytes], context: EncodeContext
) -> list[dict[str, Any]]:
    """The reader's ``canonical`` tools as the writer's ``encode_functions`` writes them, that
    writing remembered by each of the caller's tools' ``texts`` (their reading remembered whole
    by them, :func:`read_usual`), with the losses it recorded when each is at a place in the body
    (:func:`~chatcodec._providers.kit.remembered_tools.remember_written_whole`)."""
    losses = context.losses
    count = losses.count()
    wire = encode_functions(canonical, context)
    report = NO_REPORT if losses.count() == count else losses.below(count, ())
    for text in texts:
        remember_written_whole(text, read_client_tools, write_tools, wire, report)
    return wire
