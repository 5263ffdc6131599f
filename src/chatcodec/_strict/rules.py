"""Structural rules a provider enforces on a request, checked in strict mode.

The tolerant decoders read what they are given; a provider refuses some of it with a 400
that a gateway should give first, at the input's own JSON path: a tool result with no
call before it, a call answered twice, an empty conversation, a token limit under 1, and
a turn order the provider (or the target of a conversion) does not take. Each message is
the provider's own wording where it has one.

What a provider's request looks like and how it words a refusal is the provider's
(its ``structure.py``, a :class:`~chatcodec._providers.contract.structure.Structure`), reached
through its codec: a codec registered under another name brings its rules along.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from chatcodec._errors import Problem, ProviderLookupError
from chatcodec._narrow import as_dict, as_list
from chatcodec._providers.contract.provider_codec import ProviderCodec
from chatcodec._providers.contract.structure import Location, Structure, ToolStep, Turn
from chatcodec._registry import get_codec
from chatcodec._strict.values import shown


def structure_for(provider: str) -> Structure | None:
    """The conversation shape of ``provider``'s codec, or ``None`` for a format with none
    (``canonical``, a codec a caller wrote)."""
    try:
        codec = get_codec(provider)
    except ProviderLookupError:
        return None
    return codec.structure if isinstance(codec, ProviderCodec) else None


def request_problems(provider: str, payload: Mapping[str, Any]) -> list[Problem]:
    """Every structural rule ``payload`` (a ``provider`` request) breaks; a turn already
    refused for its tool results is not refused again for its order (one error per mistake)."""
    structure = structure_for(provider)
    if structure is None:
        return []
    key = structure.conversation_key
    problems = list(_token_limits(structure, payload))
    conversation = as_list(payload.get(key))
    if conversation is None:
        return problems
    if not conversation:
        message = structure.empty_conversation or f"`{key}` is empty: a request needs at least one message"
        problems.append(Problem((key,), "empty_conversation", message, conversation))
    problems.extend(_tool_results(structure, conversation))
    refused = {problem.location[:2] for problem in problems}
    order = _turn_order(structure, conversation, structure)
    problems.extend(problem for problem in order if problem.location[:2] not in refused)
    return problems


def target_problems(source: str, payload: Mapping[str, Any], target: str) -> list[Problem]:
    """The turns of ``payload`` (a ``source`` request about to be written for ``target``)
    whose order ``target`` refuses, at their places in the source."""
    written, read = structure_for(target), structure_for(source)
    if written is None or read is None or not written.turn_order:
        return []
    return _turn_order(read, as_list(payload.get(read.conversation_key)) or [], written)


def turns(structure: Structure, conversation: list[Any]) -> list[Turn]:
    """The entries of a wire conversation as turns, in order."""
    found: list[Turn] = []
    for index, item in enumerate(conversation):
        fields = as_dict(item)
        turn = None if fields is None else structure.turn(fields, (structure.conversation_key, index))
        if turn is not None:
            found.append(turn)
    return found


def _turn_order(read: Structure, conversation: list[Any], written: Structure) -> list[Problem]:
    """The problems ``written``'s turn-order rules find in a conversation spelled as ``read``."""
    spoken = turns(read, conversation)
    problems: list[Problem] = []
    for rule in written.turn_order:
        for found in rule(spoken):
            value = _at(conversation, found.turn.location[1:])
            problems.append(Problem(found.turn.location, found.rule, found.message, value))
    return problems


def _token_limits(structure: Structure, payload: Mapping[str, Any]) -> Iterator[Problem]:
    for location in structure.token_limits:
        value = _at(payload, location)
        if isinstance(value, int) and not isinstance(value, bool) and value < 1:
            message = structure.token_limit.replace("{name}", str(location[-1])).replace("{value}", str(value))
            yield Problem(location, "token_limit", message, value)


def _at(node: object, location: Location) -> object:
    for step in location:
        items = as_list(node)
        if items is not None and isinstance(step, int):
            node = items[step] if 0 <= step < len(items) else None
            continue
        fields = as_dict(node)
        if fields is None or not isinstance(step, str):
            return None
        node = fields.get(step)
    return node


def _tool_results(structure: Structure, conversation: list[Any]) -> Iterator[Problem]:
    called: dict[str, int] = {}
    answered: set[str] = set()
    for step in tool_steps(structure, conversation):
        if step.kind == "call":
            called[step.tool_id] = step.turn
            continue
        template, rule = None, ""
        if step.tool_id in answered and not structure.repeated_results:
            template, rule = structure.duplicate_result, "duplicate_tool_result"
        elif step.tool_id not in called or (structure.result_in_next_turn and called[step.tool_id] != step.turn - 1):
            template, rule = structure.orphan_result, "orphan_tool_result"
        answered.add(step.tool_id)
        if template is not None:
            yield Problem(step.location, rule, template.replace("{id}", shown(step.tool_id)), step.tool_id)


def tool_steps(structure: Structure, conversation: list[Any]) -> Iterator[ToolStep]:
    """The tool calls and results of a wire conversation, in order, with their places."""
    for turn, item in enumerate(conversation):
        fields = as_dict(item)
        if fields is not None:
            yield from structure.tool_steps(fields, turn, (structure.conversation_key, turn))
