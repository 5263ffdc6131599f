"""A tool result is never written without its call (issue 24 item 6).

Another provider's tool call the target has no type for stays an opaque part: an OpenAI
Chat custom (freeform) tool call, ``{"type": "custom", "custom": {"name", "input"}}``,
is one. Its encoder drops the call, but the result answering it is a plain canonical tool
result, and was written without it: Anthropic then answers 400 ("unexpected
`tool_use_id` found in `tool_result` blocks"), the Responses API 400 ("No tool call found
for function call output with call_id"), Bedrock the same, and Gemini got a
``functionResponse`` named ``unknown_function``.

Encoding a request, such a call (an opaque part from a provider other than the target,
in an assistant message, whose ``id`` or ``call_id`` a later tool result answers) is
dropped together with its results, in one loss at the call's path naming both. A
message left empty goes too; the paths of later losses name the parts and messages in
the order left. A call nothing answers is left to the encoder, which reports it as any
other foreign block.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from chatcodec.content import OpaquePart, ToolUsePart
from chatcodec.losses import LossRecorder
from chatcodec.messages import AnyMessage, AssistantMessage, ToolMessage
from chatcodec.request import ChatRequest

_ID_KEYS = ("id", "call_id")
"""Where a provider's call block keeps the id its result names (OpenAI Chat ``id``,
Responses items ``call_id``)."""


@dataclass
class _Call:
    provider: str
    at: tuple[int, int]
    results: list[tuple[int, int]] = field(default_factory=list[tuple[int, int]])


def without_unsent_calls(request: ChatRequest, losses: LossRecorder, target: str, name: str) -> ChatRequest:
    """``request`` with the calls :func:`unsent_calls_dropped` drops, and their results,
    left out (``target``: the registry name, ``name``: how a loss names the format)."""
    kept = unsent_calls_dropped(request.messages, losses, target, name)
    return request if kept is request.messages else request.model_copy(update={"messages": kept})


def unsent_calls_dropped(messages: list[AnyMessage], losses: LossRecorder, target: str, name: str) -> list[AnyMessage]:
    """``messages`` without the foreign opaque calls that tool results answer and without
    those results, one loss per call; the list itself when there are none."""
    calls = _foreign_calls(messages, target)
    if not calls:
        return messages
    for index, message in enumerate(messages):
        if isinstance(message, ToolMessage):
            for position, result in enumerate(message.content):
                call = calls.get(result.tool_use_id)
                if call is not None and call.at[0] < index:
                    call.results.append((index, position))
    answered = [call for call in calls.values() if call.results]
    if not answered:
        return messages
    for call_id, call in calls.items():
        if call.results:
            _report(losses, call_id, call, name)
    dropped = {call.at for call in answered} | {at for call in answered for at in call.results}
    return _without(messages, dropped)


def _foreign_calls(messages: list[AnyMessage], target: str) -> dict[str, _Call]:
    calls: dict[str, _Call] = {}
    for index, message in enumerate(messages):
        if not isinstance(message, AssistantMessage) or isinstance(message.content, str):
            continue
        sent = {part.id for part in message.content if isinstance(part, ToolUsePart)}  # repeated: sent as it
        for position, part in enumerate(message.content):
            if isinstance(part, OpaquePart) and part.provider != target:
                call_id = next((part.data[key] for key in _ID_KEYS if isinstance(part.data.get(key), str)), None)
                if isinstance(call_id, str) and call_id not in sent:
                    calls[call_id] = _Call(part.provider, (index, position))
    return calls


def _report(losses: LossRecorder, call_id: str, call: _Call, name: str) -> None:
    results = ", ".join(f"$.messages[{index}].content[{position}]" for index, position in call.results)
    losses.add(
        ("messages", call.at[0], "content", call.at[1]),
        f"{call.provider} tool call {call_id!r} and its tool result ({results})",
        f"{name} cannot carry this call, and refuses a tool result whose call is not sent; both dropped",
    )


def _without(messages: list[AnyMessage], dropped: set[tuple[int, int]]) -> list[AnyMessage]:
    kept: list[AnyMessage] = []
    for index, message in enumerate(messages):
        content = message.content
        if isinstance(content, str) or not any((index, position) in dropped for position in range(len(content))):
            kept.append(message)
            continue
        left = [part for position, part in enumerate(content) if (index, position) not in dropped]
        if left:
            kept.append(message.model_copy(update={"content": left}))
    return kept
