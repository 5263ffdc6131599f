"""OpenAI Chat -> Anthropic, direct: an assistant turn of OpenRouter's reasoning (a Claude model
through OpenRouter: ``reasoning`` and ``reasoning_details`` of Claude's signed thinking, a
``null`` refusal, calls with the SDK's ``index``) written as its parts once its shape is proved.
A turn with no entries (a ``reasoning`` text alone beside a text or calls, calls with their
``index``, a participant's ``name``) is a plain turn's (:mod:`.openai_chat_assistant_turns`).

The pair's pass (:mod:`.openai_chat_to_anthropic`) writes such a turn by the reader's
``decode_assistant`` and the writer's turn rules (``AssistantTurns``): every entry decoded, every
bag claimed or reported, every turn finished, on every turn of an agent's history. What those
rules answer beyond the turn's texts depends on its shape alone: its fields and which calls carry
an index (:func:`~.openai_chat_assistant_turns.general_shape`), its entries' fields, kinds and formats and
which of their texts are empty (``reasoning_shape``), whether its ``content`` is text, empty or
``null``, and what the request decides about thinking (the target model, the
``unsigned_thinking`` option). So the first turn of a shape is written three ways: by the general
rules (a turn of its own, finished), and by its parts: each thinking part the reader's
``decode_reasoning`` reads written by the writer's ``encode_thinking``, its text, each call by
``encode_tool_use`` (:func:`_said`). When the turns and the losses are the same, and every thinking
block is the entry's text and signature as they came, the verdict is the shape's
(:data:`_PROVED`, kept across requests with the thinking parts' losses): a later turn of the shape
is its entries as they came, those losses repeated at its place, and its text and calls by the
writer's rules, no entry decoded. Any other turn (a shape whose writings differ, an entry of
another kind, options given) is the general rules', as before. The trial's losses are taken back
and the context's notes (call ids written, ids renamed, signatures, what the target rules look
for) restored after each writing of it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from chatcodec._direct.general_turns import parts_alone
from chatcodec._direct.openai_chat_assistant_turns import general_shape
from chatcodec._providers.kit.provider_kit import forgotten_with_kits
from chatcodec._providers.openai_chat.assistant import decode_assistant
from chatcodec._providers.openai_chat.reasoning import DETAILS, decode_reasoning, reasoning_shape, whole_shape

if TYPE_CHECKING:
    from collections.abc import Mapping

    from chatcodec._losses import LossKind, LossRecorder
    from chatcodec.contract import Steps

Found = list[tuple["Steps", str, str, "LossKind"]]
"""The losses a turn's thinking parts answered, below the turn's place."""
Verdict = tuple[Found, int]
"""A proved shape's thinking reports (:data:`Found`) and how many thinking parts the reader reads
from its reasoning fields (the canonical place of its text and calls)."""


class WriterContext(Protocol):
    """What this module reads of the writer's context, and notes it restores after a trial: the
    pass hands the Anthropic writer's own (its ``WriterContext``), whose type the module does
    not import (it names nothing of the target's folder)."""

    @property
    def options(self) -> Mapping[str, object]: ...
    @property
    def model(self) -> str | None: ...
    @property
    def for_request(self) -> bool: ...
    @property
    def unsigned_thinking(self) -> str: ...
    @property
    def losses(self) -> LossRecorder: ...
    @property
    def holds(self) -> set[str] | None: ...
    @property
    def call_ids(self) -> set[str]: ...
    @property
    def renamed(self) -> dict[str, str]: ...
    @property
    def signed(self) -> dict[str, str]: ...
    @property
    def breakpoints(self) -> list[Any]: ...


class WriterRules(NamedTuple):
    """The Anthropic writer's rules this module writes a turn by, given by the pair's pass (which
    holds its writer), so the module asks the target only through what the pass hands it (each
    called with the pass's context)."""

    turns: Callable[..., Any]
    """The general turn rules (``AssistantTurns``): ``write`` a canonical turn, ``finish``."""
    thinking: Callable[..., Any]
    """``encode_thinking``: a canonical thinking part's block, or None."""
    tool_use: Callable[..., Any]
    """``encode_tool_use``: a canonical call's block."""


def reasoned_turn(
    message: dict[str, Any], index: int, context: WriterContext, rules: WriterRules
) -> dict[str, Any] | None:
    """The wire turn of ``message`` (an admitted turn of OpenRouter's reasoning, the canonical
    message ``index``) written as its parts when its shape is proved (the first turn of a shape
    proves it: :func:`_prove`); None when the writer's general rules write it (the caller's)."""
    if context.options:  # (options given by a stored request: this request's alone)
        return None
    try:
        key = (
            context.model,
            context.for_request,
            context.unsigned_thinking,
            general_shape(message),
            reasoning_shape(message),
            message["content"] is None,
            message["content"] == "",
        )
        found = _PROVED.get(key, _UNSEEN)
    except TypeError:  # an entry's value of no hash: the general rules', kept nowhere
        return None
    if found is _UNSEEN:
        found = _prove(message, index, context, key, rules)
    if found is None:
        return None
    at = ("messages", index)
    reported, read = found
    details = message.get(DETAILS)  # (a map: a comprehension's frame a turn cost more)
    blocks = list(map(_as_came, details)) if details else []
    if reported:  # (the thinking parts' reports, as the rules gave them on the proving turn)
        context.losses.repeat(reported, at)
    return {"role": "assistant", "content": _said(message, blocks, at, context, rules, read=read)}


_UNSEEN: Any = object()
"""A shape not met yet (:func:`reasoned_turn`)."""
_PROVED: dict[tuple[Any, ...], Verdict | None] = forgotten_with_kits({})
"""The verdict on each shape of reasoned turn (:func:`reasoned_turn`'s key) when its parts write what
the general rules write, its thinking blocks its entries as they came (or none, every thinking part
dropped): the losses its thinking parts answered below the turn's place and how many the reader
read; None when not. Kept across requests (an agent sends its
history to one model every step) and bounded (a model is the caller's text: forgotten whole past
:data:`_MAX_PROVED`); forgotten when a kit is made (its declarations decide what the writer reports)."""
_MAX_PROVED = 256


def _prove(
    message: dict[str, Any], index: int, context: WriterContext, key: tuple[Any, ...], rules: WriterRules
) -> Verdict | None:
    """The verdict on ``message``'s shape (``key``), kept in :data:`_PROVED`: the turn written by the
    writer's general rules (a turn of its own, finished) and by its parts, compared; every loss of
    both taken back, the context's notes restored (the caller then writes the turn for real)."""
    at = ("messages", index)
    losses = context.losses
    saved = _notes(context)
    count = losses.count()
    general = rules.turns(context)
    general.write(decode_assistant(message), index)
    finished = general.finish()
    found = losses.below(count, at)
    _restore(context, saved)
    middle = losses.count()
    thought = _thinking(message, index, context, rules)
    verdict: Verdict | None = None
    if thought is not None and found is not None:
        blocks, reported, read = thought
        turn = {"role": "assistant", "content": _said(message, blocks, at, context, rules, read=read)}
        alone = parts_alone(found, losses.below(middle, at))
        if finished == [turn] and alone and key[4] is not None and whole_shape(key[4]):
            verdict = (reported, read)
    losses.take_back(count)
    _restore(context, saved)
    if len(_PROVED) >= _MAX_PROVED:
        _PROVED.clear()
    _PROVED[key] = verdict
    return verdict


def _thinking(
    message: dict[str, Any], index: int, context: WriterContext, rules: WriterRules
) -> tuple[list[Any], Found, int] | None:
    """The thinking blocks of ``message``'s reasoning fields as the reader reads them
    (``decode_reasoning``) and the writer's ``encode_thinking`` writes each at its place, the
    losses those answered below the turn's place, and how many parts the reader read; None unless
    they are a block an entry, each the entry's text and signature as they came (:func:`_as_came`),
    or, for a turn with no entries (a ``reasoning`` text alone, as vLLM and OpenRouter answer for a
    model that signs none, or calls with the SDK's ``index`` and no reasoning), every part dropped."""
    details: list[dict[str, Any]] = message.get(DETAILS) or []
    parts = decode_reasoning(message)[0]
    if details and len(parts) != len(details):  # a reasoning text of its own beside them: the general rules'
        return None
    losses = context.losses
    count = losses.count()
    blocks: list[Any] = []
    for position, part in enumerate(parts):
        block = rules.thinking(part, context, ("messages", index, "content", position))
        if not details:
            if block is not None:  # kept (as text, by the ``unsigned_thinking`` option): the general rules'
                return None
            continue
        detail = details[position]
        if block is None or detail.get("type") != "reasoning.text" or block != _as_came(detail):
            return None
        blocks.append(block)
    reported = losses.below(count, ("messages", index))
    return None if reported is None else (blocks, reported, len(parts))


def _as_came(detail: dict[str, Any]) -> dict[str, Any]:
    """A ``reasoning.text`` entry as the thinking block Claude sent it as: its text and signature."""
    return {"type": "thinking", "thinking": detail.get("text", ""), "signature": detail.get("signature")}


def _said(
    message: dict[str, Any], blocks: list[Any], at: Steps, context: WriterContext, rules: WriterRules, *, read: int
) -> list[Any]:
    """``blocks`` (a turn's thinking: ``read`` parts read, some dropped) followed by its text (a
    non-empty ``content``; an empty or ``null`` one writes none) and each call by the writer's
    ``encode_tool_use`` at its canonical place (after every part read), as the reader's plain parts
    (the SDK's ``index`` left in no bag: the proof holds the general rules to it)."""
    content = message["content"]
    position = read
    if content:
        blocks.append({"type": "text", "text": content})
        position += 1
    for call in message.get("tool_calls") or ():
        function = call["function"]
        part = {"type": "tool_use", "id": call["id"], "name": function["name"], "arguments": function["arguments"]}
        blocks.append(rules.tool_use(part, context, (*at, "content", position)))
        position += 1
    return blocks


def _notes(context: WriterContext) -> tuple[set[str], dict[str, str], dict[str, str], set[str] | None, int]:
    """What writing a turn notes on ``context`` (its call ids, ids renamed, signatures, what the
    target rules look for, breakpoints), copied for :func:`_restore`."""
    holds = None if context.holds is None else set(context.holds)
    return set(context.call_ids), dict(context.renamed), dict(context.signed), holds, len(context.breakpoints)


def _restore(
    context: WriterContext, saved: tuple[set[str], dict[str, str], dict[str, str], set[str] | None, int]
) -> None:
    """``context``'s notes back to ``saved`` (:func:`_notes`), in the same objects."""
    call_ids, renamed, signed, holds, breakpoints = saved
    context.call_ids.clear()
    context.call_ids.update(call_ids)
    context.renamed.clear()
    context.renamed.update(renamed)
    context.signed.clear()
    context.signed.update(signed)
    if holds is not None and context.holds is not None:
        context.holds.clear()
        context.holds.update(holds)
    del context.breakpoints[breakpoints:]
