"""OpenAI Chat -> Anthropic, the request's top level written directly for the request an agent
sends every step: a model, function tools, a ``tool_choice`` (and ``parallel_tool_calls``), one
token limit, maybe ``stream``, ``temperature`` or ``top_p``, and a client's settings beside them
(``stream_options``, ``user``, ``seed``, ``stop``, ...), the reader's markers of which the writer's
kit claims first, as the writer claims the canonical request's bag. OpenRouter's own ``usage``
object beside them, which the reader keeps in its bag unread, is that bag reported by the writer's
kit; its ``reasoning`` object is read by the reader's own decoder (``read_reasoning_object``) and
written by the writer's ``encode_settings`` (what Anthropic gets for an effort is that rule's
answer), what the decoder leaves in the bag reported with it.

The pair's direct path (:mod:`chatcodec._direct.openai_chat_to_anthropic`) writes the messages
in one pass. A body of the usual fields alone (:func:`usual`, proved as the reader's closed
front checks them: :mod:`.openai_chat_usual`) is written by the rules of each field, each called
where it lives: the reader's ``decode_tool_choice`` and the writer's ``encode_required``
(``model``, ``max_tokens``), ``encode_choice``, ``encode_knobs``, ``limit_breakpoints``, the
target rules; the tools as the writer's ``encode_tool`` wrote them for the reader's reading of
them (``FRONT_KEY``).

The tools an agent sends with every request are written once: beside their reading in the memory
of tool readings (keyed by the caller's own list,
:func:`~chatcodec._providers.kit.remembered_tools.written_whole`), the written list is kept as
one ``marshal`` text (with what it reported, reported again: a strict tool's schema closed; and
the cache breakpoints the writer noted for its marked tools, noted again on the copy's tools by
the writer's own ``cache``, for ``limit_breakpoints``), and a request of the same tools takes one
``loads`` of it (no canonical tool rebuilt, no schema copied twice).

The pair's module writes the turns between :func:`begin` and :func:`finish`. Any other body goes
the pair's general top level (:func:`~.openai_chat_source.write_directly`), and a rule that
raises on the way hands the conversion to the canonical path, the oracle.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from chatcodec._direct.openai_chat_source import admitted_origins, remember_tools_written
from chatcodec._direct.top_levels.openai_chat_usual import Usual, claim_bag, read_kept
from chatcodec._direct.top_levels.openai_chat_usual import usual as usual_request
from chatcodec._direct.top_levels.openai_chat_usual_remembered import remember, written_again
from chatcodec._providers.anthropic import tools as anthropic_tools
from chatcodec._providers.anthropic.encode_context import AnthropicContext
from chatcodec._providers.anthropic.markers import KIT as TARGET_KIT
from chatcodec._providers.anthropic.request import (
    KNOB_SETTINGS,
    encode_knobs,
    encode_required,
    encode_stop,
    limit_breakpoints,
)
from chatcodec._providers.anthropic.settings import encode_settings
from chatcodec._providers.anthropic.tools import encode_choice, encode_tool
from chatcodec._providers.contract.context import NO_OPTIONS
from chatcodec._providers.contract.target_rules import apply_target_rules
from chatcodec._providers.kit.remembered_tools import NO_MARKS
from chatcodec._providers.openai_chat.tools import decode_tool_choice

if TYPE_CHECKING:
    from chatcodec._codec_protocols import Codec
    from chatcodec._direct.openai_chat_source import Admission
    from chatcodec._direct.top_levels.openai_chat_usual_remembered import Begun
    from chatcodec._losses import LossRecorder, Steps
    from chatcodec._providers.anthropic.encode_context import Breakpoint
    from chatcodec._providers.contract.context import Reading
    from chatcodec._providers.contract.target_rules import ProviderRules
    from chatcodec._providers.kit.remembered_tools import Marks

TARGET = "anthropic"
_SETTINGS = frozenset({"reasoning", "response_format"})
"""The canonical fields the writer's ``encode_settings`` writes (``thinking``, ``output_config``)."""
Turns = tuple[str | list[dict[str, Any]] | None, list[dict[str, Any]]]
"""The body's ``system`` (None: none) and ``messages``, as the pair's pass writes them."""


def usual(payload: dict[str, Any], writer: Codec, noted: Reading) -> Usual | None:
    """``payload`` proved the usual agent request for this pair's built-in writer
    (:func:`~.openai_chat_usual.usual`), OpenRouter's ``reasoning`` and ``usage`` beside it kept
    on the answer (``kept``); None for any other."""
    return usual_request(payload, writer, noted, role=anthropic_tools, write_tools=write_tools)


def begin(
    payload: dict[str, Any], found: Usual, recorder: LossRecorder, noted: Reading, admission: Admission
) -> tuple[dict[str, Any], AnthropicContext]:
    """The body's fields before its turns for ``payload``, a usual request (``found``): ``model``
    and ``max_tokens``, ``tools``, ``tool_choice``, in the canonical writer's order and
    places, its losses in ``recorder``; and the writer's context the pair's pass writes the
    turns with (``noted``, the pair's reading), the loss places traced to the admission's
    (:func:`finish` ends it). A rule may raise: the caller hands the conversion back."""
    canonical = found.canonical
    if "tool_choice" in payload:
        decode_tool_choice(payload, canonical)
    kept = found.kept  # OpenRouter's objects: its reasoning read by the reader's decoder, written by finish
    claim_bag(found, TARGET_KIT.claim, recorder, read_kept(kept, canonical) if "reasoning" in kept else kept)
    context = _context(canonical, found.rules, recorder, noted)
    wire: dict[str, Any] = {}
    encode_required(canonical, wire, context)
    if found.written is not None:
        wire["tools"] = found.written
        if found.report:  # what that writing reported, reported again
            recorder.repeat(found.report, ())
        for index, at in found.marks:  # the breakpoints it noted, noted again on this copy's tools
            context.cache(found.written[index], None, at)
    elif found.read is not None:
        wire["tools"] = write_tools(found.read, found.text, context)
    encode_choice(canonical, wire, context)
    recorder.trace(admitted_origins(payload, admission[1], admission[2]).place)
    return wire, context


def begin_remembering(
    payload: dict[str, Any],
    found: Usual,
    recorder: LossRecorder,
    noted: Reading,
    admission: Admission,
    *,
    writer: Codec,
    text: bytes | None,
) -> tuple[dict[str, Any], AnthropicContext]:
    """:func:`begin`, its writing remembered for ``writer`` by the body's ``text`` (the memory's look's)
    when it is a function of it (:func:`~.openai_chat_usual_remembered.remember`; :func:`begun` writes
    a body of that text)."""
    count = recorder.count()
    wire, context = begin(payload, found, recorder, noted, admission)
    if (
        text is not None and not context.holds and len(context.breakpoints) == len(found.marks)
    ):  # (all it noted: on the tools)
        again = partial(written_again, writer=writer, usual=usual, begin=partial(_begun_again, admission=admission))
        remember(payload, writer, text, (found, wire, recorder.below(count, ())), again, marks=found.marks)
    return wire, context


def begun(
    payload: dict[str, Any], remembered: Begun, recorder: LossRecorder, noted: Reading, admission: Admission
) -> tuple[dict[str, Any], AnthropicContext, Usual]:
    """What :func:`begin` wrote for a body of ``payload``'s text (``remembered``), for ``payload``: the
    wire fields and the writer's context, the losses reported again and the breakpoints noted again
    on this copy's tools; and the reading :func:`finish` writes the rest of the body from."""
    canonical, wire = remembered.read(payload)
    if remembered.report:
        recorder.repeat(remembered.report, ())
    context = _context(canonical, remembered.rules, recorder, noted)
    for index, at in remembered.marks:
        context.cache(wire["tools"][index], None, at)
    recorder.trace(admitted_origins(payload, admission[1], admission[2]).place)
    return wire, context, Usual(canonical, remembered.rules)


def _begun_again(
    trial: dict[str, Any], found: Usual, recorder: LossRecorder, noted: Reading, *, admission: Admission
) -> dict[str, Any]:
    """:func:`begin`'s wire fields of a trial body (another client's values: :func:`begin_remembering`)."""
    return begin(trial, found, recorder, noted, admission)[0]


def _context(
    canonical: dict[str, Any], rules: ProviderRules | None, recorder: LossRecorder, noted: Reading
) -> AnthropicContext:
    """The writer's context the pair writes a usual request in."""
    return AnthropicContext(  # each field given: a default's factory is a call made cold
        TARGET,
        recorder,
        model=canonical["model"],
        options=NO_OPTIONS,
        rules=rules,
        holds=set(),  # what the target rules look for, noted as written
        reading=noted,
        breakpoints=[],
        signed={},
        call_ids=set(),
        renamed={},
    )


def finish(wire: dict[str, Any], turns: Turns, found: Usual, context: AnthropicContext) -> dict[str, Any]:
    """``wire`` (:func:`begin`'s) with the pair's ``turns`` (its ``system`` and ``messages``),
    ``stream`` and the sampling settings, ``thinking`` and ``output_config`` (a reasoning effort, a
    response format: the writer's ``encode_settings``), the cache breakpoints Anthropic takes, and
    the target rules applied last."""
    canonical, recorder = found.canonical, context.losses
    system, messages = turns
    if system is not None:
        wire["system"] = system
    wire["messages"] = messages
    if "stop" in canonical:
        encode_stop(canonical, wire, {})
    if not KNOB_SETTINGS.isdisjoint(canonical):
        encode_knobs(canonical, wire, {}, recorder)
    if not _SETTINGS.isdisjoint(canonical):  # a reasoning effort (thinking, or a loss), a response format
        encode_settings(canonical, wire, {}, context)
    if context.breakpoints:
        limit_breakpoints(context, reserved=0)
    recorder.renumber(None)  # the rules name places in the body, not in the input converted
    recorder.trace(None)
    apply_target_rules(wire, context, request=canonical)
    return wire


def write_tools(canonical: list[dict[str, Any]], text: bytes, context: AnthropicContext) -> list[dict[str, Any]]:
    """The reader's ``canonical`` tools as the writer's ``encode_tool`` writes them, that
    writing, what it reported and the cache breakpoints it noted (:func:`_marks`) remembered by
    the caller's tools' ``text``
    (:func:`~chatcodec._providers.kit.remembered_tools.remember_written_whole`)."""
    count, noted = context.losses.count(), len(context.breakpoints)
    wire = [encode_tool(tool, index, context) for index, tool in enumerate(canonical)]
    marks = _marks(wire, context.breakpoints[noted:]) if len(context.breakpoints) > noted else NO_MARKS
    if marks is not None:
        remember_tools_written(text, write_tools, wire, context.losses, count, marks=marks)
    return wire


def _marks(wire: list[dict[str, Any]], noted: list[Breakpoint]) -> Marks | None:
    """The cache breakpoints the writer ``noted`` writing the tools ``wire``, each the index of the
    written tool it holds and its place, in the order noted (a copy of the writing notes them
    again there); None when one holds another object (not remembered)."""
    places = {id(tool): index for index, tool in enumerate(wire)}
    marks: list[tuple[int, Steps]] = []
    for breakpoint in noted:
        index = places.get(id(breakpoint.block))
        if index is None:
            return None
        marks.append((index, breakpoint.at))
    return tuple(marks)
