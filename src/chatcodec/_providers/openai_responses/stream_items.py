"""The events that show one output item of a Responses stream being generated: the item
as ``response.output_item.added`` shows it (nothing generated yet), then each of its
content parts' ``added``, deltas and ``done`` (output text, refusal, reasoning summary and
reasoning text, a call's arguments or input), as OpenAI streams them
(https://platform.openai.com/docs/api-reference/responses-streaming). The encoder
(:mod:`.stream_encode`) decides when an item is written; this module only spells it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from chatcodec._providers.openai_responses.carried_reasoning import is_sealed
from chatcodec._providers.openai_responses.logprobs import delta_shares, done_logprobs
from chatcodec.codec_kit import as_list

EventWriter = Callable[..., dict[str, Any]]
"""The stream's event maker: ``event(kind, **fields)`` numbers the event
(``sequence_number``) and returns it."""


def item_id(item: dict[str, Any]) -> str:
    return item["id"] if isinstance(item.get("id"), str) else ""


def empty_item(item: dict[str, Any]) -> dict[str, Any]:
    """The item as ``output_item.added`` shows it: nothing generated yet."""
    kind = item.get("type")
    if kind == "message":
        return {**item, "status": "in_progress", "content": []}
    if kind == "reasoning":
        return {key: value for key, value in item.items() if key not in ("encrypted_content", "content")} | {
            "summary": []
        }
    if kind == "function_call":
        return {**item, "status": "in_progress", "arguments": ""}
    if kind == "custom_tool_call":
        return {**item, "input": ""}
    return item


def content_events(
    event: EventWriter, item: dict[str, Any], output_index: int, first: int, fragments: list[str] | None
) -> Iterator[dict[str, Any]]:
    """The events for the parts of ``item`` (at ``output_index``) from part ``first`` on."""
    where = {"item_id": item_id(item), "output_index": output_index}
    kind = item.get("type")
    if kind in ("function_call", "custom_tool_call"):
        text = item["arguments"] if kind == "function_call" else item["input"]
        prefix = "response.function_call_arguments" if kind == "function_call" else "response.custom_tool_call_input"
        for delta in deltas(text, fragments):
            yield event(f"{prefix}.delta", **where, delta=delta)
        yield event(f"{prefix}.done", **where, **({"arguments": text} if kind == "function_call" else {"input": text}))
        return
    if kind == "reasoning":
        yield from reasoning_events(event, item, where, first, fragments)
        return
    content = as_list(item.get("content"))
    if content is None:
        return
    for content_index in range(first, len(content)):
        yield from message_part_events(
            event, content[content_index], {**where, "content_index": content_index}, fragments
        )


def message_part_events(
    event: EventWriter, part: dict[str, Any], where: dict[str, Any], fragments: list[str] | None
) -> Iterator[dict[str, Any]]:
    text = part.get("refusal" if part.get("type") == "refusal" else "text")
    if not isinstance(text, str):  # a part kept whole (one the decoder could not read): no deltas to give
        yield event("response.content_part.added", **where, part=part)
    elif part.get("type") == "refusal":
        yield event("response.content_part.added", **where, part={"type": "refusal", "refusal": ""})
        for delta in deltas(part["refusal"], fragments):
            yield event("response.refusal.delta", **where, delta=delta)
        yield event("response.refusal.done", **where, refusal=part["refusal"])
    else:
        empty: dict[str, Any] = {
            "type": "output_text",
            "text": "",
            "annotations": [],
            **({"logprobs": []} if "logprobs" in part else {}),
        }
        yield event("response.content_part.added", **where, part=empty)
        pieces = deltas(part["text"], fragments)
        for delta, tokens in zip(pieces, delta_shares(part.get("logprobs"), pieces), strict=True):
            yield event("response.output_text.delta", **where, delta=delta, logprobs=tokens)
        yield event(
            "response.output_text.done", **where, text=part["text"], logprobs=done_logprobs(part.get("logprobs"))
        )
    yield event("response.content_part.done", **where, part=part)


def reasoning_events(
    event: EventWriter, item: dict[str, Any], where: dict[str, Any], first: int, fragments: list[str] | None
) -> Iterator[dict[str, Any]]:
    if is_sealed(item.get("encrypted_content")):
        return  # another provider's reasoning, whole in its item's done (its summary shown there)
    summary: list[dict[str, Any]] = as_list(item.get("summary")) or []
    content: list[dict[str, Any]] = as_list(item.get("content")) or []
    for position in range(first, len(summary) + len(content)):
        if position < len(summary):
            entry = summary[position]
            at = {**where, "summary_index": position}
            yield event("response.reasoning_summary_part.added", **at, part={"type": "summary_text", "text": ""})
            for delta in deltas(entry["text"], fragments):
                yield event("response.reasoning_summary_text.delta", **at, delta=delta)
            yield event("response.reasoning_summary_text.done", **at, text=entry["text"])
            yield event("response.reasoning_summary_part.done", **at, part=entry)
        else:
            entry = content[position - len(summary)]
            at = {**where, "content_index": position - len(summary)}
            yield event("response.content_part.added", **at, part={"type": "reasoning_text", "text": ""})
            for delta in deltas(entry["text"], fragments):
                yield event("response.reasoning_text.delta", **at, delta=delta)
            yield event("response.reasoning_text.done", **at, text=entry["text"])
            yield event("response.content_part.done", **at, part=entry)


def deltas(text: str, fragments: list[str] | None) -> list[str]:
    """The canonical deltas when they spell ``text``, else ``text`` in one delta."""
    if fragments is not None and "".join(fragments) == text:
        return [fragment for fragment in fragments if fragment]
    return [text] if text else []
