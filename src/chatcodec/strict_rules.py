"""Structural rules a provider enforces on a request, checked in strict mode.

The tolerant decoders read what they are given; a provider refuses some of it with a 400
that a gateway should give first, at the input's own JSON path: a tool result with no
call before it, a call answered twice, an empty conversation, a token limit under 1, and
a first turn the target does not take. Each message is the provider's own wording where
it has one (the Anthropic orphan text is recorded in
``tests/fixtures/anthropic/response/error_400_orphan_tool_result.json``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from chatcodec._narrow import as_dict, as_list
from chatcodec.errors import Problem
from chatcodec.strict import CONVERSATION_KEYS, shown

Location = tuple[int | str, ...]


@dataclass(frozen=True, slots=True)
class ToolStep:
    """A tool call or result found in a wire conversation."""

    kind: Literal["call", "result"]
    tool_id: str
    turn: int
    location: Location


_TOKEN_LIMITS: dict[str, tuple[Location, ...]] = {
    "openai-chat": (("max_tokens",), ("max_completion_tokens",)),
    "anthropic": (("max_tokens",),),
    "openai-responses": (("max_output_tokens",),),
    "gemini": (
        ("generationConfig", "maxOutputTokens"),
        ("generationConfig", "max_output_tokens"),
        ("generation_config", "maxOutputTokens"),
        ("generation_config", "max_output_tokens"),
    ),
    "bedrock-converse": (("inferenceConfig", "maxTokens"),),
}
"""Where each format's request holds a token limit."""

_EMPTY = {
    "anthropic": "messages: at least one message is required",
    "gemini": "contents is not specified",
}
_ORPHAN = {
    "anthropic": (
        "unexpected `tool_use_id` found in `tool_result` blocks: {id}. Each `tool_result` block must have a"
        " corresponding `tool_use` block in the previous message."
    ),
    "openai-chat": (
        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'."
    ),
    "openai-responses": "No tool call found for function call output with call_id {id}.",
    "gemini": "Please ensure that function response turn comes immediately after a function call turn.",
    "bedrock-converse": (
        "The number of toolResult blocks exceeds the number of toolUse blocks of previous turn (toolUseId {id})."
    ),
}
_DUPLICATE = {
    "anthropic": "each tool_use must have a single result. Found multiple `tool_result` blocks with id: {id}",
}
_BEDROCK_FIRST_TURN = (
    "A conversation must start with a user message. Try again with a conversation that starts with a user message."
)


def request_problems(provider: str, payload: Mapping[str, Any]) -> list[Problem]:
    """Every structural rule ``payload`` (a ``provider`` request) breaks."""
    key = CONVERSATION_KEYS.get(provider)
    if key is None:
        return []
    problems = list(_token_limits(provider, payload))
    conversation = as_list(payload.get(key))
    if conversation is None:
        return problems
    if not conversation:
        message = _EMPTY.get(provider, f"`{key}` is empty: a request needs at least one message")
        problems.append(Problem((key,), "empty_conversation", message, conversation))
    problems.extend(_tool_results(provider, key, conversation))
    if provider == "bedrock-converse":
        problems.extend(first_turn_problems(provider, payload, "bedrock-converse"))
    return problems


def first_turn_problems(source: str, payload: Mapping[str, Any], target: str) -> list[Problem]:
    """Bedrock refuses a conversation whose first turn is not the user's; ``payload`` is the
    ``source`` request about to be written for ``target``."""
    key = CONVERSATION_KEYS.get(source)
    if target != "bedrock-converse" or key is None:
        return []
    for index, item in enumerate(as_list(payload.get(key)) or ()):
        fields = as_dict(item)
        role = None if fields is None else fields.get("role")
        if role in ("system", "developer"):
            continue
        if role in ("assistant", "model"):
            return [Problem((key, index, "role"), "first_turn", _BEDROCK_FIRST_TURN, role)]
        return []
    return []


def _token_limits(provider: str, payload: Mapping[str, Any]) -> Iterator[Problem]:
    for location in _TOKEN_LIMITS.get(provider, ()):
        value = _at(payload, location)
        if isinstance(value, int) and not isinstance(value, bool) and value < 1:
            name = location[-1]
            if provider in ("openai-chat", "openai-responses"):
                message = (
                    f"Invalid '{name}': integer below minimum value. Expected a value >= 1, but got {value} instead."
                )
            else:
                message = f"`{name}` must be at least 1, got {value}"
            yield Problem(location, "token_limit", message, value)


def _at(payload: Mapping[str, Any], location: Location) -> object:
    node: object = payload
    for step in location:
        fields = as_dict(node)
        if fields is None or not isinstance(step, str):
            return None
        node = fields.get(step)
    return node


def _tool_results(provider: str, key: str, conversation: list[Any]) -> Iterator[Problem]:
    called: dict[str, int] = {}
    answered: set[str] = set()
    for step in tool_steps(provider, key, conversation):
        if step.kind == "call":
            called[step.tool_id] = step.turn
            continue
        template, rule = None, ""
        if step.tool_id in answered and provider != "gemini":  # Gemini may answer one name many times
            template = _DUPLICATE.get(provider, "the tool call {id} already has a result")
            rule = "duplicate_tool_result"
        elif step.tool_id not in called or (provider == "anthropic" and called[step.tool_id] != step.turn - 1):
            template = _ORPHAN[provider]
            rule = "orphan_tool_result"
        answered.add(step.tool_id)
        if template is not None:
            yield Problem(step.location, rule, template.replace("{id}", shown(step.tool_id)), step.tool_id)


def tool_steps(provider: str, key: str, conversation: list[Any]) -> Iterator[ToolStep]:
    """The tool calls and results of a wire conversation, in order, with their places."""
    for turn, item in enumerate(conversation):
        fields = as_dict(item)
        if fields is not None:
            yield from _STEPS[provider](fields, turn, (key, turn))


def _openai_chat_steps(message: dict[str, Any], turn: int, where: Location) -> Iterator[ToolStep]:
    if message.get("role") == "tool" and isinstance(message.get("tool_call_id"), str):
        yield ToolStep("result", message["tool_call_id"], turn, (*where, "tool_call_id"))
    for index, call in enumerate(as_list(message.get("tool_calls")) or ()):
        fields = as_dict(call)
        if fields is not None and isinstance(fields.get("id"), str):
            yield ToolStep("call", fields["id"], turn, (*where, "tool_calls", index, "id"))


def _anthropic_steps(message: dict[str, Any], turn: int, where: Location) -> Iterator[ToolStep]:
    for index, block in enumerate(as_list(message.get("content")) or ()):
        fields = as_dict(block) or {}
        kind = fields.get("type")
        if kind == "tool_result" and isinstance(fields.get("tool_use_id"), str):
            yield ToolStep("result", fields["tool_use_id"], turn, (*where, "content", index, "tool_use_id"))
        elif kind == "tool_use" and isinstance(fields.get("id"), str):
            yield ToolStep("call", fields["id"], turn, (*where, "content", index, "id"))


_RESPONSES_CALLS = ("function_call", "custom_tool_call")
_RESPONSES_RESULTS = ("function_call_output", "custom_tool_call_output")


def _responses_steps(item: dict[str, Any], turn: int, where: Location) -> Iterator[ToolStep]:
    call_id = item.get("call_id")
    if isinstance(call_id, str) and item.get("type") in _RESPONSES_CALLS:
        yield ToolStep("call", call_id, turn, (*where, "call_id"))
    elif isinstance(call_id, str) and item.get("type") in _RESPONSES_RESULTS:
        yield ToolStep("result", call_id, turn, (*where, "call_id"))


def _gemini_steps(content: dict[str, Any], turn: int, where: Location) -> Iterator[ToolStep]:
    for index, part in enumerate(as_list(content.get("parts")) or ()):
        fields = as_dict(part)
        if fields is not None:
            yield from _gemini_part_steps(fields, turn, (*where, "parts", index))


def _gemini_part_steps(part: dict[str, Any], turn: int, where: Location) -> Iterator[ToolStep]:
    """Gemini pairs a response with its call by id when both have one, else by function
    name: a call is found under both, a result under its id or else its name."""
    for key, kind in _GEMINI_KEYS:
        inner = as_dict(part.get(key))
        if inner is None:
            continue
        names = [inner.get("id"), inner.get("name")]
        keys = [name for name in names if isinstance(name, str)]
        for tool_id in keys if kind == "call" else keys[:1]:
            yield ToolStep(kind, tool_id, turn, (*where, key))


_GEMINI_KEYS: tuple[tuple[str, Literal["call", "result"]], ...] = (
    ("functionCall", "call"),
    ("function_call", "call"),
    ("functionResponse", "result"),
    ("function_response", "result"),
)


def _bedrock_steps(message: dict[str, Any], turn: int, where: Location) -> Iterator[ToolStep]:
    for index, block in enumerate(as_list(message.get("content")) or ()):
        fields = as_dict(block) or {}
        for key, kind in (("toolUse", "call"), ("toolResult", "result")):
            inner = as_dict(fields.get(key))
            if inner is not None and isinstance(inner.get("toolUseId"), str):
                step_kind: Literal["call", "result"] = "call" if kind == "call" else "result"
                yield ToolStep(step_kind, inner["toolUseId"], turn, (*where, "content", index, key, "toolUseId"))


_STEPS = {
    "openai-chat": _openai_chat_steps,
    "anthropic": _anthropic_steps,
    "openai-responses": _responses_steps,
    "gemini": _gemini_steps,
    "bedrock-converse": _bedrock_steps,
}
