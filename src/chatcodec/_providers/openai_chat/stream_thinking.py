"""Thinking parts in a written ``chat.completion.chunk`` stream: which delta field each
part's fragments go to, and the deltas they make. The stream encoder
(:mod:`.stream_encode`) wraps each delta in a chunk; this module only decides the deltas.

A part goes to the field its start event names (OpenAI Chat's own reasoning), or to the
``reasoning_field`` option (another provider's), or, when its field is only known at its
end (as :func:`~chatcodec.streams._replay.events_from_response` produces), it is held back
until that end. ``reasoning_details`` fragments of one part share one entry and its
``index``; a Claude thinking block also goes into ``thinking_blocks``, its signature whole at
the block's end (as the OpenAI Agents SDK and litellm read a streamed block); a Mistral
thinking part is a ``content`` list entry. A plain-string field cannot hold a signature or
an encrypted payload: each is reported once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from chatcodec._providers.families.claude.wire_rules import CLAUDE_SIGNERS
from chatcodec._providers.openai_chat import reasoning, stream_indexes
from chatcodec._providers.openai_chat.markers import KIT, PROVIDER
from chatcodec.codec_kit import as_list, wire_fields
from chatcodec.contract import (
    Steps,
    ThinkingDeltaRecord,
    ThinkingEndRecord,
    ThinkingSignatureDeltaRecord,
    ThinkingStartRecord,
)

if TYPE_CHECKING:
    from chatcodec import ThinkingPart
    from chatcodec.contract import LossRecorder


@dataclass
class ThinkingRoute:
    """Where one thinking part's deltas go; ``target`` None means held back or dropped."""

    target: str | None
    entry: dict[str, Any] = field(default_factory=lambda: {})  # reasoning_details entry base
    held: list[tuple[str, str]] | None = None  # ("text" | "signature", delta) until the end
    dropped: bool = False
    signature_lost: bool = False
    sent: bool = False
    blocks: bool = False  # Claude's thinking: its text and signature also go into thinking_blocks
    block: int = 0  # the index of its thinking_blocks entry (with blocks) or Mistral content entry
    string: bool = True  # with blocks: its text also goes into the target string (read back as ``_also``)
    signature: list[str] | None = None  # a block's signature, written whole when the part ends


class ChoiceThinking(Protocol):
    """What this module keeps and counts per choice: its open thinking parts by part index,
    and the next index of each list (see :mod:`.stream_indexes`)."""

    thinking: dict[int, ThinkingRoute]
    blocks: int
    details: int
    contents: int


def start(
    state: ChoiceThinking, event: ThinkingStartRecord, option: str | None, losses: LossRecorder, at: Steps
) -> None:
    """Open the part's route: its own field, the ``option``'s, or held back to its end."""
    KIT.report_foreign(losses, event.provider_metadata, at)
    own = event.provider == PROVIDER or reasoning.is_claude_detail(event.provider, event.provider_metadata)
    bag = KIT.own(event.provider_metadata) if own else {}
    field_name = bag.get("field")
    if event.provider == PROVIDER and field_name not in (*reasoning.FIELDS, reasoning.CONTENT):
        state.thinking[event.index] = ThinkingRoute(None, held=[])  # its field comes with its end
        return
    target = str(field_name) if own else option
    route = ThinkingRoute(target, block=stream_indexes.next_content(state) if target == reasoning.CONTENT else 0)
    if not own and (event.provider in CLAUDE_SIGNERS or KIT.marker(event.provider_metadata, reasoning.BLOCK) is True):
        route.blocks = target in reasoning.STRING_FIELDS
        route.block = stream_indexes.next_block(state)
        if KIT.marker(event.provider_metadata, reasoning.BLOCK) is True:  # read from thinking_blocks
            route.string = target in (as_list(KIT.marker(event.provider_metadata, "_also")) or ())
    if target is None:
        route.dropped = True
        reasoning.drop_loss(event.provider, losses, at)
    elif target == reasoning.DETAILS:
        route.entry = _entry(state, event.provider, bag)
    state.thinking[event.index] = route


def deltas(
    state: ChoiceThinking, event: ThinkingDeltaRecord | ThinkingSignatureDeltaRecord, losses: LossRecorder, at: Steps
) -> list[dict[str, Any]]:
    """The delta for one text or signature fragment (none while held back or dropped)."""
    route = state.thinking.get(event.index)
    kind = "text" if isinstance(event, ThinkingDeltaRecord) else "signature"
    if route is None or route.dropped:
        return []
    if route.held is not None:
        route.held.append((kind, event.delta))
        return []
    delta = _reasoning_delta(route, kind, event.delta, losses, at)
    route.sent |= delta is not None
    return [] if delta is None else [delta]


def end(
    state: ChoiceThinking, event: ThinkingEndRecord, option: str | None, losses: LossRecorder, at: Steps
) -> list[dict[str, Any]]:
    """The deltas a part's end sends: what was held back, an empty fragment that opens an
    entry nothing else opened, a block's signature, an encrypted payload."""
    route = state.thinking.pop(event.index, None)
    if route is None or route.dropped:
        return []
    sent: list[dict[str, Any]] = []
    if route.held is not None:
        bag = KIT.own(event.provider_metadata)
        target = bag.get("field")
        route.target = str(target) if target in (*reasoning.FIELDS, reasoning.CONTENT) else option
        if route.target is None:
            reasoning.drop_loss(PROVIDER, losses, at)
            return []
        if route.target == reasoning.DETAILS:
            route.entry = _entry(state, PROVIDER, bag)
        route.block = stream_indexes.next_content(state) if route.target == reasoning.CONTENT else 0
        for kind, text in route.held:
            delta = _reasoning_delta(route, kind, text, losses, at)
            if delta is not None:
                sent.append(delta)
    if route.target == reasoning.DETAILS and not (route.sent or sent or event.encrypted is not None):
        # an entry with no text or signature still exists: one empty fragment opens it
        sent.append(_reasoning_delta(route, "text", "", losses, at) or {})
    if route.blocks:
        sent.extend(_block_end(event, route, state))
    elif event.encrypted is not None:
        if route.target == reasoning.DETAILS:
            entry = {**route.entry, "type": "reasoning.encrypted", "data": event.encrypted}
            sent.append({reasoning.DETAILS: [entry]})
        else:
            losses.add((*at, "encrypted"), "encrypted reasoning", f"{route.target} is plain text")
    return sent


def whole(
    choice: Callable[[], ChoiceThinking], model: ThinkingPart, option: str | None, losses: LossRecorder, where: Steps
) -> dict[str, Any] | None:
    """The one delta for a thinking part given whole (none when its field is dropped). The
    choice's state is asked for only when a delta is sent: a stream that sent nothing has
    no choice, and so invented no placeholder."""
    part = model.model_dump()  # the reasoning writers read canonical data
    target = reasoning.field_for(part, option)
    if target is None:
        reasoning.drop_loss(model.provider, losses, where)
        return None
    if target == reasoning.CONTENT:
        return stream_indexes.numbered_content(reasoning.encode_content_thinking(part, losses, where), choice())
    writer = reasoning.ReasoningWriter(losses, output=True)
    writer.add(part, target, where)
    fields = writer.fields(where)
    state = choice()
    own_detail = (
        model.provider == PROVIDER or reasoning.is_claude_detail(model.provider, model.provider_metadata)
    ) and KIT.own(model.provider_metadata).get("field") == reasoning.DETAILS
    if reasoning.DETAILS in fields:  # numbered by the writer from 0: this stream's next indexes instead
        entries = as_list(fields[reasoning.DETAILS]) or []
        kept = [entry if own_detail else stream_indexes.unindexed(entry) for entry in entries]
        fields[reasoning.DETAILS] = [stream_indexes.indexed_detail(entry, state) for entry in kept]
    if reasoning.BLOCKS in fields:
        blocks = as_list(fields[reasoning.BLOCKS]) or []
        fields[reasoning.BLOCKS] = [{"index": stream_indexes.next_block(state), **block} for block in blocks]
    return fields


def _entry(state: ChoiceThinking, provider: str | None, bag: dict[str, Any]) -> dict[str, Any]:
    """The ``reasoning_details`` entry a part's fragments share, with its ``index`` (its
    own, read from the stream it came from, or the next one)."""
    if bag.get("field") == reasoning.DETAILS:
        return stream_indexes.indexed_detail(
            {key: value for key, value in wire_fields(bag).items() if key != "field"}, state
        )
    entry_format = reasoning.FORMATS.get(provider or "", "unknown")
    return stream_indexes.indexed_detail({"type": "reasoning.text", "format": entry_format}, state)


def _reasoning_delta(
    route: ThinkingRoute, kind: str, text: str, losses: LossRecorder, at: Steps
) -> dict[str, Any] | None:
    target = route.target
    if target == reasoning.DETAILS:
        key = (
            "signature"
            if kind == "signature"
            else "summary"
            if route.entry.get("type") == "reasoning.summary"
            else "text"
        )
        return {target: [{**route.entry, key: text}]}
    if route.blocks:
        if kind == "signature":
            route.signature = [*(route.signature or []), text]
            return None
        block = {reasoning.BLOCKS: [{"index": route.block, "type": "thinking", "thinking": text}]}
        return {str(target): text, **block} if route.string else block
    if kind == "signature":
        if not route.signature_lost:
            route.signature_lost = True
            losses.add(at, "thinking signature", f"{target} is plain text")
        return None
    if target == reasoning.CONTENT:
        return stream_indexes.content_fragment(route.block, text)
    assert target is not None
    return {target: text}


def _block_end(event: ThinkingEndRecord, route: ThinkingRoute, state: ChoiceThinking) -> list[dict[str, Any]]:
    """A Claude thinking block's end: its signature, whole, closes the block (as the
    OpenAI Agents SDK and litellm read a streamed block); an encrypted payload is a
    redacted block of its own, at the next index unless the part sent nothing else."""
    blocks: list[dict[str, Any]] = []
    if route.signature is not None:
        signature = "".join(route.signature)
        blocks.append({"index": route.block, "type": "thinking", "thinking": "", "signature": signature})
    if event.encrypted is not None:
        index = stream_indexes.next_block(state) if route.sent or blocks else route.block
        blocks.append({"index": index, "type": "redacted_thinking", "data": event.encrypted})
    if not (route.sent or blocks):  # an empty block still exists: one empty fragment opens it
        blocks.append({"index": route.block, "type": "thinking", "thinking": ""})
    opening = {str(route.target): ""} if route.string and not route.sent else {}
    sent = [{**opening, reasoning.BLOCKS: [blocks[0]]}] if blocks else []
    sent.extend({reasoning.BLOCKS: [block]} for block in blocks[1:])
    return sent
