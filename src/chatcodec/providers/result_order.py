"""Tool results right after their call, for the formats that require it.

OpenAI Chat ("An assistant message with 'tool_calls' must be followed by tool messages
responding to each 'tool_call_id'"), Anthropic ("tool_use ids were found without
tool_result blocks immediately after"), Bedrock Converse (the same rule for ``toolUse``)
and Gemini (a ``functionResponse`` turn right after the ``functionCall`` turn) all need
the results in the message right after the call. The Responses API does not: its input
may hold a user message between a ``function_call`` and its ``function_call_output``
(issue 24 item 2). Encoding to one of those four, such messages are moved after the
results that answer the call, each move reported at the message's own path; the paths
of later losses name the messages in their new order.
"""

from __future__ import annotations

from chatcodec.losses import LossRecorder
from chatcodec.messages import AnyMessage, AssistantMessage, ToolMessage
from chatcodec.request import ChatRequest

WHAT = "message between a tool call and its result"


def with_results_after_calls(request: ChatRequest, losses: LossRecorder, target: str) -> ChatRequest:
    """``request`` with its messages in the order :func:`results_after_calls` gives."""
    ordered = results_after_calls(request.messages, losses, target)
    return request if ordered is request.messages else request.model_copy(update={"messages": ordered})


def results_after_calls(messages: list[AnyMessage], losses: LossRecorder, target: str) -> list[AnyMessage]:
    """``messages`` with every message standing between an assistant's tool calls and the
    tool message answering them moved after that tool message (and the ones right after
    it); the list itself when nothing moves."""
    moved: list[AnyMessage] | None = None
    index = 0
    while index < len(messages):
        message = messages[index]
        calls = {call.id for call in message.tool_calls} if isinstance(message, AssistantMessage) else set[str]()
        between = index + 1
        while between < len(messages) and not isinstance(messages[between], ToolMessage | AssistantMessage):
            between += 1
        if not calls or between == index + 1 or not _answers(messages, between, calls):
            index += 1
            continue
        end = between
        while end < len(messages) and isinstance(messages[end], ToolMessage):
            end += 1
        why = f"{target} needs the results right after the call; moved after them"
        for position in range(index + 1, between):
            losses.add(("messages", position), WHAT, why)
        moved = list(messages) if moved is None else moved
        moved[index + 1 : end] = [*messages[between:end], *messages[index + 1 : between]]
        index = end
    return messages if moved is None else moved


def _answers(messages: list[AnyMessage], position: int, calls: set[str]) -> bool:
    message = messages[position] if position < len(messages) else None
    return isinstance(message, ToolMessage) and any(result.tool_use_id in calls for result in message.content)
