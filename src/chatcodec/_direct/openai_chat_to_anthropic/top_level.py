"""OpenAI Chat -> Anthropic, the request's top level written directly for the request an
agent sends every step: a model, function tools, a ``tool_choice`` (and
``parallel_tool_calls``), one token limit, maybe ``stream``.

The pair's direct path (:mod:`.messages`) writes the messages in one pass;
the top level around them was the canonical reader's and writer's whole request code, run on
the body without its messages: some ninety calls, each once a request (cold where a request is
a process's first of its shape). Here a body of those fields alone (:func:`usual`, proved as
the reader's closed front checks them) is written by the rules of each field, each called
where it lives: the reader's ``decode_tool_choice`` and the writer's ``encode_required``
(``model``, ``max_tokens``), ``encode_choice``, ``encode_knobs``, ``limit_breakpoints``, the
target rules; the tools as the writer's ``encode_tool`` wrote them for the reader's reading of
them (``FRONT_KEY``).

The tools an agent sends with every request are written once: beside their reading in the
memory of tool readings (keyed by the caller's own list,
:func:`~chatcodec._providers.kit.remembered_tools.written_whole`), the written list is kept
as one ``marshal`` text when it was written with no loss and no cache marker, and a request
of the same tools takes one ``loads`` of it (no canonical tool rebuilt, no schema copied twice).

The pair's module writes the turns between :func:`begin` and :func:`finish`. Any other body
goes the pair's general top level (:func:`~.openai_chat_source.write_directly`), and a rule
that raises on the way hands the conversion to the canonical path, the oracle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from chatcodec._direct.openai_chat_source import admitted_origins
from chatcodec._providers.anthropic import tools as anthropic_tools
from chatcodec._providers.anthropic.encode_context import AnthropicContext
from chatcodec._providers.anthropic.request import encode_knobs, encode_required, limit_breakpoints
from chatcodec._providers.anthropic.tools import encode_choice, encode_tool
from chatcodec._providers.contract.context import NO_OPTIONS
from chatcodec._providers.contract.provider_codec import ProviderCodec
from chatcodec._providers.contract.target_rules import apply_target_rules
from chatcodec._providers.kit.remembered_tools import remember_written_whole, written_whole
from chatcodec._providers.openai_chat.common_shapes import COMMON_REQUEST
from chatcodec._providers.openai_chat.tools import FRONT_KEY, decode_tool_choice

if TYPE_CHECKING:
    from chatcodec._codec_protocols import Codec
    from chatcodec._direct.openai_chat_source import Admission
    from chatcodec._losses import LossRecorder
    from chatcodec._providers.contract.context import Reading
    from chatcodec._providers.contract.target_rules import ProviderRules

TARGET = "anthropic"

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
    }
)
"""The fields of the usual agent request, all this top level writes."""
_FLAGS = ("parallel_tool_calls", "stream")
"""The usual fields that are ``true`` or ``false``, read as they are."""
_CHOICES = frozenset({"auto", "none", "required"})
"""The ``tool_choice`` strings the closed front takes."""
Turns = tuple[str | list[dict[str, Any]] | None, list[dict[str, Any]]]
"""The body's ``system`` (None: none) and ``messages``, as the pair's pass writes them."""
_NESTED = "function"
"""The key of a wire tool's object that holds its schema (the memory's ``nested``)."""


class Usual:
    """A body of the usual fields, proved (:func:`usual`): its canonical top level so far (the
    model, the limit, ``stream``), its tools as written before (``written``, a new copy) or
    else as read (``read``, the reader's canonical tools) with their ``marshal`` text, and the
    writer's rules."""

    __slots__ = ("canonical", "read", "rules", "text", "written")

    def __init__(self, canonical: dict[str, Any], rules: ProviderRules | None) -> None:
        self.canonical = canonical
        self.rules = rules
        self.written: list[dict[str, Any]] | None = None
        self.read: list[dict[str, Any]] | None = None
        self.text = b""


def usual(payload: dict[str, Any], writer: Codec, noted: Reading) -> Usual | None:
    """``payload`` proved the usual agent request, as the reader's closed front would check
    each field (:func:`_settings`; a ``tool_choice`` the reader reads as canonical; the tools
    found written before, else recalled, else checked by the front itself and read by the
    reader into ``noted``), for the built-in Anthropic writer (``writer``: its own tools
    role); None for any other, with nothing recorded."""
    if not _USUAL.issuperset(payload) or None in payload.values() or not isinstance(writer, ProviderCodec):
        return None  # a field sent as null is kept in the bag and reported: the general top level's
    if writer.tools is not anthropic_tools:  # a kit in the built-in's place writes its own way
        return None
    canonical = _settings(payload)
    if canonical is None or ("tool_choice" in payload and not _chosen(payload["tool_choice"])):
        return None
    found = Usual(canonical, writer.rules)
    tools = payload.get("tools")
    if tools is None:
        return found
    if tools.__class__ is not list or not tools:
        return None
    found.written, text = written_whole(tools, FRONT_KEY, write_tools)
    if text is None:
        return None
    found.text = text
    if found.written is None:
        found.read = _read_tools(tools, text, noted)
        if found.read is None:
            return None  # tools the front refuses: the general top level's, which says why
    return found


def _settings(payload: dict[str, Any]) -> dict[str, Any] | None:
    """The canonical model, limit and flags of a usual request's ``payload``, proved as
    the closed front checks them (exact types) and read as the reader reads them (a limit of
    1 or more is the canonical one: one key of the two, the other absent); None for others."""
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
    return canonical


def _read_tools(tools: list[dict[str, Any]], text: bytes, noted: Reading) -> list[dict[str, Any]] | None:
    """The reader's canonical tools of the caller's ``tools`` (``text``: their ``marshal`` text),
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
    context = AnthropicContext(  # each field given: a default's factory is a call made cold
        TARGET,
        recorder,
        model=canonical["model"],
        options=NO_OPTIONS,
        rules=found.rules,
        holds=set(),  # what the target rules look for, noted as written
        reading=noted,
        breakpoints=[],
        signed={},
        call_ids=set(),
        renamed={},
    )
    wire: dict[str, Any] = {}
    encode_required(canonical, wire, context)
    if found.written is not None:
        wire["tools"] = found.written
    elif found.read is not None:
        wire["tools"] = write_tools(found.read, found.text, context)
    encode_choice(canonical, wire, context)
    recorder.trace(admitted_origins(payload, admission[1], admission[2]).place)
    return wire, context


def finish(wire: dict[str, Any], turns: Turns, found: Usual, context: AnthropicContext) -> dict[str, Any]:
    """``wire`` (:func:`begin`'s) with the pair's ``turns`` (its ``system`` and ``messages``),
    ``stream``, the cache breakpoints Anthropic takes, and the target rules applied last."""
    canonical, recorder = found.canonical, context.losses
    system, messages = turns
    if system is not None:
        wire["system"] = system
    wire["messages"] = messages
    if "stream" in canonical:
        encode_knobs(canonical, wire, {}, recorder)
    if context.breakpoints:
        limit_breakpoints(context, reserved=0)
    recorder.renumber(None)  # the rules name places in the body, not in the input converted
    recorder.trace(None)
    apply_target_rules(wire, context, request=canonical)
    return wire


def write_tools(canonical: list[dict[str, Any]], text: bytes, context: AnthropicContext) -> list[dict[str, Any]]:
    """The reader's ``canonical`` tools as the writer's ``encode_tool`` writes them, that
    writing remembered by the caller's tools' ``text`` when it noted no loss and put no cache
    marker (:func:`~chatcodec._providers.kit.remembered_tools.remember_written_whole`)."""
    losses = context.losses.count()
    wire = [encode_tool(tool, index, context) for index, tool in enumerate(canonical)]
    if context.losses.count() == losses and not context.breakpoints:
        remember_written_whole(text, FRONT_KEY, write_tools, wire)
    return wire
