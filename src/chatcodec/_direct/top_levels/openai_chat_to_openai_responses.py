"""OpenAI Chat -> OpenAI Responses, the request's top level written directly for the request an
agent sends every step: a model, function tools, a ``tool_choice`` (and
``parallel_tool_calls``), one token limit, maybe ``stream``, ``temperature`` or ``top_p``, and a
client's settings beside them (``stream_options``, ``user``, ``seed``, ``stop``, ...: the writer's
``encode_identity`` writes or reports them).

The pair's direct path (:mod:`chatcodec._direct.openai_chat_to_openai_responses`) writes the
messages as ``input`` items in one pass. A body of the usual fields alone (:func:`usual`, proved
as the reader's closed front checks them: :mod:`.openai_chat_usual`) is written here by the
rules of each field, each called where it lives, in the order and places the Responses writer's
``encode_request`` gives them: the reader's ``decode_tool_choice``, the writer's
``encode_knobs``, ``encode_functions`` (the tools) and ``encode_choice``, the target rules. The
tools an agent sends with every request are written once: the written list is kept beside their
reading as one ``marshal`` text (with what its writing reported, reported again), and a request
of the same tools takes one ``loads`` of it. OpenRouter's own ``usage`` object beside them, which the reader
keeps in its bag unread, is that bag reported by the writer's kit, as the writer reports it; its
``reasoning`` object is read by the reader's own decoder (``read_reasoning_object``) and written
by the writer's ``encode_settings``, what the decoder leaves in the bag reported with it.

Any other body goes the pair's general top level (:func:`~.openai_chat_source.write_directly`),
and a rule that raises on the way hands the conversion to the canonical path, the oracle.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from chatcodec._direct.openai_chat_source import admitted_origins, remember_tools_written
from chatcodec._direct.top_levels.openai_chat_usual import Usual, claim_bag, read_kept
from chatcodec._direct.top_levels.openai_chat_usual import usual as usual_request
from chatcodec._direct.top_levels.openai_chat_usual_remembered import remember, written_again
from chatcodec._providers.contract.context import NO_OPTIONS, EncodeContext
from chatcodec._providers.contract.target_rules import apply_target_rules
from chatcodec._providers.openai_chat.tools import decode_tool_choice
from chatcodec._providers.openai_responses import tools as responses_tools
from chatcodec._providers.openai_responses.markers import KIT as TARGET_KIT
from chatcodec._providers.openai_responses.request import IDENTITY_SETTINGS, encode_identity, encode_knobs
from chatcodec._providers.openai_responses.settings import encode_settings
from chatcodec._providers.openai_responses.tools import encode_choice, encode_functions

if TYPE_CHECKING:
    from chatcodec._codec_protocols import Codec
    from chatcodec._direct.openai_chat_source import Admission
    from chatcodec._direct.top_levels.openai_chat_usual_remembered import Begun
    from chatcodec._losses import LossRecorder
    from chatcodec._providers.contract.context import Reading

TARGET = "openai-responses"


def usual(payload: dict[str, Any], writer: Codec, noted: Reading) -> Usual | None:
    """``payload`` proved the usual agent request for this pair's built-in writer
    (:func:`~.openai_chat_usual.usual`), with the fields of it the reader keeps in its bag
    (OpenRouter's ``reasoning`` and ``usage``: :func:`~.openai_chat_usual.kept_beside`; none for
    most); None for any other."""
    return usual_request(payload, writer, noted, role=responses_tools, write_tools=write_tools)


def write(
    payload: dict[str, Any],
    found: Usual | None,
    recorder: LossRecorder,
    noted: Reading,
    admission: Admission,
    *,
    items: Callable[[EncodeContext], list[dict[str, Any]]],
    writer: Codec,
    remembered: Begun | None = None,
    text: bytes | None = None,
) -> dict[str, Any]:
    """The Responses body of ``payload``, a usual request (``found``, or the reading of its top level
    remembered for a body of its text: ``remembered``, :func:`begun`; ``text``, the memory's look's, to
    remember it by), its losses in ``recorder``: the fields the reader keeps in its bag (OpenRouter's)
    reported by the writer's kit first, as the writer claims its bag before it writes the input;
    ``model``, the ``input`` items the pair's pass writes
    (``items``: ``noted``'s, the pair's reading), ``max_output_tokens``, the sampling settings and
    ``stream`` (``encode_knobs``), ``tools``, ``tool_choice``, ``parallel_tool_calls``, ``reasoning``
    and ``text`` (``encode_settings``: a ``reasoning_effort``, a ``response_format``), then the target
    rules. A rule may raise: the caller hands the conversion back."""
    if found is None:  # (the memory's: ``remembered``)
        found = begun(payload, cast("Begun", remembered), recorder, admission)
        context = _context(found, recorder, noted)
    else:
        count = recorder.count()
        context = _begin(payload, found, recorder, noted, admission)
        if text is not None and found.read is None:  # (the tools written before, or none: a writing of the text)
            fields = {} if found.written is None else {"tools": found.written}
            again = partial(written_again, writer=writer, usual=usual, begin=partial(_begun_again, admission=admission))
            remember(payload, writer, text, (found, fields, recorder.below(count, ())), again, later=found.report)
    canonical = found.canonical
    wire: dict[str, Any] = {"model": canonical["model"], "input": items(context)}
    encode_knobs(canonical, wire)
    if not IDENTITY_SETTINGS.isdisjoint(canonical):
        encode_identity(canonical, wire, recorder)
    if found.written is not None:
        wire["tools"] = found.written
        if found.report:  # what that writing reported, reported again
            recorder.repeat(found.report, ())
    elif found.read is not None:
        wire["tools"] = write_tools(found.read, found.text, context)
    encode_choice(canonical, wire, recorder)
    if "reasoning" in canonical or "response_format" in canonical:
        encode_settings(canonical, wire, {}, context)
    recorder.renumber(None)  # the rules name places in the body, not in the input converted
    recorder.trace(None)
    apply_target_rules(wire, context, request=canonical)
    return wire


def _begin(
    payload: dict[str, Any], found: Usual, recorder: LossRecorder, noted: Reading, admission: Admission
) -> EncodeContext:
    """The reading of a usual request's top level finished (its ``tool_choice``, OpenRouter's
    ``reasoning``), the writer's context made, the loss places traced to the admission's, and the
    reader's bag claimed by the writer's kit, as the writer claims it before it writes the input."""
    canonical = found.canonical
    if "tool_choice" in payload:
        decode_tool_choice(payload, canonical)
    context = _context(found, recorder, noted)
    recorder.trace(admitted_origins(payload, admission[1], admission[2]).place)
    kept = found.kept
    if "reasoning" in kept:
        kept = read_kept(kept, canonical)
    claim_bag(found, TARGET_KIT.claim, recorder, kept)  # the reader's bag of the request, claimed first
    return context


def begun(payload: dict[str, Any], remembered: Begun, recorder: LossRecorder, admission: Admission) -> Usual:
    """What :func:`_begin` read for a body of ``payload``'s text (``remembered``), for ``payload``: its
    reading (the tools as written, what their writing reported for later), the loss places traced to
    the admission's and the losses of its claim reported again."""
    canonical, fields = remembered.read(payload)
    found = Usual(canonical, remembered.rules)
    found.written = fields.get("tools")
    found.report = remembered.later
    recorder.trace(admitted_origins(payload, admission[1], admission[2]).place)
    if remembered.report:
        recorder.repeat(remembered.report, ())
    return found


def _begun_again(
    trial: dict[str, Any], found: Usual, recorder: LossRecorder, noted: Reading, *, admission: Admission
) -> dict[str, Any]:
    """:func:`_begin` of a trial body (another client's values): the tools as written, its wire fields."""
    _begin(trial, found, recorder, noted, admission)
    return {} if found.written is None else {"tools": found.written}


def _context(found: Usual, recorder: LossRecorder, noted: Reading) -> EncodeContext:
    """The writer's context the pair writes a usual request in."""
    return EncodeContext(  # each field given: a default's factory is a call made cold
        TARGET,
        recorder,
        model=found.canonical["model"],
        options=NO_OPTIONS,
        rules=found.rules,
        for_request=True,
        holds=set(),  # what the target rules look for, noted as written
        reading=noted,
    )


def write_tools(canonical: list[dict[str, Any]], text: bytes, context: EncodeContext) -> list[dict[str, Any]]:
    """The reader's ``canonical`` tools as the writer's ``encode_functions`` writes them, that
    writing and what it reported remembered by the caller's tools' ``text``
    (:func:`~chatcodec._providers.kit.remembered_tools.remember_written_whole`)."""
    count = context.losses.count()
    wire = encode_functions(canonical, context)
    remember_tools_written(text, write_tools, wire, context.losses, count)
    return wire
