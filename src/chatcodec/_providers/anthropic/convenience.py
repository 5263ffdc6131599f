"""Clacky-style helpers: the few calls an agent loop makes around the Anthropic API.

They are thin layers over the codec, so their output obeys the same rules (tool-result
grouping, signature policy, the four-breakpoint cache limit, valid tool ids) and their
losses are reported the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from chatcodec import (
    AnyMessage,
    AssistantMessage,
    CacheControl,
    ChatRequest,
    ChatResponse,
    Loss,
    OnLoss,
    ReasoningConfig,
    ReasoningEffort,
    SystemMessage,
    ToolDefinition,
    ToolMessage,
    ToolResultPart,
    get_codec,
    validate_messages,
    validate_model,
)
from chatcodec._providers.anthropic.tool_ids import sanitize_tool_use_id
from chatcodec.codec_kit import as_dict, load_object
from chatcodec.contract import LossRecorder

THINKING_BUDGETS: Mapping[str, int] = {
    "minimal": 1024,
    "low": 2048,
    "medium": 8192,
    "high": 16384,
    "xhigh": 32768,
    "max": 65536,
}
"""``budget_tokens`` for each reasoning effort (1024 is Anthropic's minimum budget)."""

MIN_THINKING_BUDGET = 1024
"""Anthropic rejects a smaller ``budget_tokens``."""

CODEC = get_codec("anthropic")
"""The registry's codec (its folder's modules, built by ``ProviderCodec.from_package``)."""

NOT_RUN = "Error: this tool call was not run, so it has no result."
"""Text of the error result :func:`format_tool_results` adds for an unanswered call."""

__all__ = ["build_request_body", "format_tool_results", "parse_response", "sanitize_tool_use_id"]


def build_request_body(
    messages: Iterable[Any],
    *,
    model: str,
    tools: Sequence[ToolDefinition | Mapping[str, Any]] | None = None,
    max_tokens: int,
    caching: bool = False,
    reasoning_effort: ReasoningEffort | None = None,
    system: str | None = None,
    on_loss: OnLoss = "warn",
    losses: list[Loss] | None = None,
) -> dict[str, Any]:
    """An Anthropic request body for a conversation in any accepted message shape.

    ``caching=True`` marks the system prompt, the last tool and the last message (three
    breakpoints, within Anthropic's four). ``reasoning_effort`` turns on thinking with
    the budget in :data:`THINKING_BUDGETS`, kept below ``max_tokens``; ``"none"`` turns
    it off. A budget that cannot reach Anthropic's 1024 minimum is a loss.
    """
    conversation = validate_messages(list(messages))
    if system is not None:
        conversation.insert(0, SystemMessage(content=system))
    definitions = [_tool(tool) for tool in tools or ()]
    recorder = LossRecorder()
    if caching:
        conversation, definitions = _with_cache_markers(conversation, definitions)
    request = ChatRequest(
        model=model,
        messages=conversation,
        tools=definitions,
        max_tokens=max_tokens,
        reasoning=_reasoning(reasoning_effort, max_tokens, recorder),
    )
    body = CODEC.encode_request(request, recorder)
    recorder.settle(on_loss, losses)
    return body


def _tool(tool: ToolDefinition | Mapping[str, Any]) -> ToolDefinition:
    if isinstance(tool, ToolDefinition):
        return tool
    function = as_dict(tool.get("function"))  # OpenAI's {"type": "function", "function": {...}}
    return validate_model(ToolDefinition, function if function is not None else dict(tool))


def _with_cache_markers(
    messages: list[AnyMessage], tools: list[ToolDefinition]
) -> tuple[list[AnyMessage], list[ToolDefinition]]:
    marker = CacheControl()
    marked = list(messages)
    leading = 0
    while leading < len(marked) and isinstance(marked[leading], SystemMessage):
        leading += 1
    if leading:
        marked[leading - 1] = marked[leading - 1].model_copy(update={"cache_control": marker})
    if len(marked) > leading:
        marked[-1] = marked[-1].model_copy(update={"cache_control": marker})
    if tools:
        tools = [*tools[:-1], tools[-1].model_copy(update={"cache_control": marker})]
    return marked, tools


def _reasoning(effort: ReasoningEffort | None, max_tokens: int, losses: LossRecorder) -> ReasoningConfig | None:
    if effort is None:
        return None
    if effort == "none":
        return ReasoningConfig(enabled=False)
    budget = min(THINKING_BUDGETS[effort], max_tokens - 1)
    if budget < MIN_THINKING_BUDGET:
        losses.add(("reasoning_effort",), f"reasoning effort {effort!r}", "max_tokens leaves no room for thinking")
        return None
    return ReasoningConfig(enabled=True, budget_tokens=budget)


def parse_response(payload: Mapping[str, Any] | str | bytes | bytearray) -> ChatResponse:
    """A canonical response from an Anthropic response body (dict, JSON text or bytes)."""
    return CODEC.decode_response(load_object(payload, "Anthropic response"))


def format_tool_results(messages: Iterable[Any]) -> list[AnyMessage]:
    """The conversation with an error result added for every tool call left unanswered.

    Anthropic rejects a request whose assistant turn has a ``tool_use`` without a
    ``tool_result`` right after it (an agent interrupted mid-turn leaves exactly that).
    Legacy stored histories with Anthropic-native ``tool_result`` user messages are read
    as they are.
    """
    conversation = validate_messages(list(messages))
    fixed: list[AnyMessage] = []
    index = 0
    while index < len(conversation):
        message = conversation[index]
        fixed.append(message)
        index += 1
        if not isinstance(message, AssistantMessage) or not message.tool_calls:
            continue
        following: list[ToolMessage] = []
        while index < len(conversation) and isinstance(tool_message := conversation[index], ToolMessage):
            following.append(tool_message)
            index += 1
        answered = {result.tool_use_id for tool_message in following for result in tool_message.content}
        missing = [
            ToolResultPart(tool_use_id=call.id, content=NOT_RUN, is_error=True, name=call.name)
            for call in message.tool_calls
            if call.id not in answered
        ]
        if missing and following:
            last = following[-1]
            following[-1] = last.model_copy(update={"content": [*last.content, *missing]})
        elif missing:
            following.append(ToolMessage(content=missing))
        fixed.extend(following)
    return fixed
