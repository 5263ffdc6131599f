"""OpenAI Chat -> Anthropic, direct: the signed parts of an agent's turns (:mod:`.openai_chat_to_anthropic`'s
pass asks these), litellm's ``thinking_blocks`` (Claude's thinking sent back: signed, redacted, or a text alone)
and a call's Gemini thought signature, each read as the reader reads it and written by the writer's own rules,
what those rules answer proved once and kept for the process where it depends on the request alone (the target
model, whether a request is written, the ``unsigned_thinking`` option), never on the turn's texts.
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from chatcodec._direct.openai_chat_source import UnadmittedError
from chatcodec._providers.anthropic.markers import KIT as TARGET_KIT
from chatcodec._providers.anthropic.thinking import encode_thinking
from chatcodec._providers.kit.provider_kit import forgotten_with_kits
from chatcodec._providers.openai_chat.reasoning import decode_blocks
from chatcodec._providers.openai_chat.tool_calls import decode_tool_call

if TYPE_CHECKING:
    from chatcodec._losses import LossKind
    from chatcodec._providers.anthropic.encode_context import AnthropicContext
    from chatcodec.contract import Steps

_MAX_VERDICTS = 64
"""Verdicts kept by a request's model at once (a model is the caller's text): all forgotten past it."""


def signed_call(call: dict[str, Any], context: AnthropicContext, at: Steps) -> dict[str, Any]:
    """A call with Gemini's thought signature (``extra_content``, the walk proved it alone beside the
    call's fields) as the part the pass writes by the writer's call rule, its bag claimed first at
    ``at`` as that rule claims it (a signature not carried: another provider's data, reported).
    The reader keeps the signature in the part's bag (``decode_tool_call``), the rest of the part a
    plain call's; the writer claims the bag, restores nothing of it and writes the rest as a plain
    call's. What the claim reports names the bag's keys, never its signature: proved on the first
    such call (read, claimed) and repeated for later ones (:data:`_SIGNED_CALLS`); a claim that
    restores a field hands the call to the rule whole."""
    report = _SIGNED_CALLS.get(context.for_request)
    signature = call["extra_content"]["google"]["thought_signature"]
    if report is None or not signature:  # (an empty signature: read and claimed, its report kept nowhere)
        part = decode_tool_call(call)
        count = context.losses.count()
        if TARGET_KIT.claim(context.losses, part.get("provider_metadata"), at):  # a field restored
            context.losses.take_back(count)
            return part
        part.pop("provider_metadata", None)
        found = context.losses.below(count, at)
        if signature and found is not None and part["arguments"] == call["function"]["arguments"]:
            _SIGNED_CALLS[context.for_request] = found
        return part
    context.losses.repeat(report, at)
    function = call["function"]
    return {"type": "tool_use", "id": call["id"], "name": function["name"], "arguments": function["arguments"]}


_SIGNED_CALLS: dict[bool, list[tuple[Steps, str, str, LossKind]]] = forgotten_with_kits({})
"""What the writer's claim reports of a call's Gemini signature, by whether a request is written
(:func:`signed_call`); forgotten when a kit is made (its declarations decide what the writer reports)."""


def signed_blocks(
    message: Mapping[str, Any], into: list[dict[str, Any]], index: int, context: AnthropicContext, proved: list[bool]
) -> int:
    """The thinking blocks of a turn with litellm's ``thinking_blocks``, into ``into``: its thinking
    parts as the reader reads its reasoning fields (``decode_reasoning``'s ``decode_blocks``:
    each block Claude's, signed; the ``reasoning_content`` the walk proved repeats their text
    marked as a copy), each written by the writer's ``encode_thinking`` at its canonical place; how many
    parts were read (the place of the turn's next part).

    What the two rules answer for such a block depends on nothing of it but whether its
    signature is empty (the walk proved its shape, and the parts read from it differ only in
    text and signature): the request's target model and options decide the rest. So the
    first turn whose blocks both rules write as they came (:func:`_as_came`, with no loss)
    proves that verdict for the request (``proved``), and a later turn with every signature
    given is written so without asking the rules again; any other turn asks them. The verdict is
    kept for the process too (:data:`_SIGNED_VERDICTS`, by what decides it), so a later request
    to the same model asks them of no turn."""
    blocks: list[dict[str, Any]] = message["thinking_blocks"]
    if not proved and not context.options and _verdict_key(context) in _SIGNED_VERDICTS:
        proved.append(True)  # proved by an earlier request to the same model
    try:  # (free when no block is redacted: its data, no signature, asks the rules every turn)
        signed = bool(proved) and all(map(_SIGNATURE, blocks))  # maps: a frame a turn cost more
    except KeyError:
        signed = False
    if signed:
        into += map(_as_came, blocks)
        return len(blocks)
    unsigned = _unsigned(blocks, context)  # litellm's usual turn with no signature: one block of a text alone
    if unsigned and _unsigned_again(context, index):
        return 1
    losses = context.losses.count()
    thinking = decode_blocks(blocks, message["reasoning_content"])[0]  # decode_reasoning's of these two fields
    came = len(thinking) == len(blocks)
    for position, part in enumerate(thinking):
        written = encode_thinking(part, context, ("messages", index, "content", position))
        if written is None:  # dropped, reported (another provider's reasoning)
            came = False
            if unsigned and len(thinking) == 1:  # what dropping it reported, kept for the model's later turns
                _unsigned_dropped(context, context.losses.below(losses, ("messages", index, "content", 0)))
            continue
        if written["type"] == "text":  # sent as text (the unsigned_thinking option): the canonical path's
            raise UnadmittedError
        came = came and written == _as_came(blocks[position])
        into.append(written)
    if came and not proved and context.losses.count() == losses:
        proved.append(True)
        if not context.options:  # (options given by a stored request: this request's alone)
            if len(_SIGNED_VERDICTS) >= _MAX_VERDICTS:  # (a model is the caller's text)
                _SIGNED_VERDICTS.clear()
            _SIGNED_VERDICTS[_verdict_key(context)] = True
    return len(thinking)


def _verdict_key(context: AnthropicContext) -> tuple[object, ...]:
    """What the verdict on litellm's signed blocks depends on beyond the blocks' shape
    (:func:`signed_blocks`): the target model (a signature another model made is refused by
    some), whether a request is written, and the ``unsigned_thinking`` option."""
    return (context.model, context.for_request, context.unsigned_thinking)


_SIGNED_VERDICTS: dict[tuple[object, ...], bool] = forgotten_with_kits({})
"""The requests (:func:`_verdict_key`) whose writer's rules proved they write litellm's signed
blocks as they came, with no loss (:func:`signed_blocks`), kept across requests (an agent sends
its history to one model every step); forgotten when a kit is made (its declarations decide
what the writer reports)."""


_SIGNATURE = itemgetter("signature")


def _unsigned(blocks: list[dict[str, Any]], context: AnthropicContext) -> bool:
    """Whether litellm's ``blocks`` are one ``thinking`` block of a text (not empty) and no signature,
    in a request with no options (given by a stored request: its alone): the part the reader reads
    of it (``decode_blocks``) differs from another such turn's in its text alone, which the
    writer's ``encode_thinking`` drops unread, reporting what depends on the request's model
    (:func:`_verdict_key`), so a report proved once is that of every such turn
    (:data:`_UNSIGNED_REPORTS`)."""
    if len(blocks) != 1 or context.options:
        return False
    block = blocks[0]
    return len(block) == 2 and "data" not in block and bool(block["thinking"])


def _unsigned_again(context: AnthropicContext, index: int) -> bool:
    """Whether an :func:`_unsigned` block's dropping was proved for this model: then reported again at
    its place (the turn's first part), the rule not asked."""
    report = _UNSIGNED_REPORTS.get(_verdict_key(context))
    if report is None:
        return False
    context.losses.repeat(report, ("messages", index, "content", 0))
    return True


def _unsigned_dropped(context: AnthropicContext, report: list[tuple[Steps, str, str, LossKind]] | None) -> None:
    """Keep ``report``, what the writer's rule reported dropping an :func:`_unsigned` block (None: one
    not below the block's place, kept nowhere)."""
    if report is not None:
        if len(_UNSIGNED_REPORTS) >= _MAX_VERDICTS:  # (a model is the caller's text)
            _UNSIGNED_REPORTS.clear()
        _UNSIGNED_REPORTS[_verdict_key(context)] = report


_UNSIGNED_REPORTS: dict[tuple[object, ...], list[tuple[Steps, str, str, LossKind]]] = forgotten_with_kits({})
"""What the writer's rules reported dropping litellm's unsigned block (:func:`_unsigned`), by what
decides it (:func:`_verdict_key`): kept across requests, as :data:`_SIGNED_VERDICTS`; forgotten
when a kit is made (its declarations decide what the writer reports)."""


def _as_came(block: Mapping[str, Any]) -> dict[str, Any]:
    """A signed (or redacted) block of litellm's ``thinking_blocks`` written back as Claude sent it."""
    if "data" in block:
        return {"type": "redacted_thinking", "data": block["data"]}
    return {"type": "thinking", "thinking": block["thinking"], "signature": block["signature"]}
