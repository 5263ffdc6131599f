"""Requests built from the official SDKs' own request types are read, strictly, and convert
to every format: each union member reachable from a request field (a message role, a content
part, a tool kind, a tool choice ...) once, with every field of its object set, the other
places at their first member. A refusal is allowed only where the provider documents one the
SDK's types cannot say (the ``ALLOWED`` rules: a tool result with no call before it, an
assistant turn first, a number out of its documented range)."""

from __future__ import annotations

import collections.abc
import itertools
import types
import typing
from collections.abc import Iterator
from typing import Any

import pytest
from typing_extensions import is_typeddict

import chatcodec

ALLOWED = {"orphan_tool_result", "first_turn", "out_of_range"}
"""Rules a provider documents that a value built from the SDK type alone can break."""
TARGETS = ("openai-chat", "anthropic", "openai-responses", "gemini", "bedrock-converse", "ollama")
_LISTS = {list, collections.abc.Iterable, collections.abc.Sequence}
_MAPS = {dict, collections.abc.Mapping}
_SCALARS: dict[Any, Any] = {str: "x", bool: False, int: 1, float: 0.5}


def _unwrapped(annotation: Any) -> Any:
    while typing.get_origin(annotation) in (typing.Annotated, typing.Required, typing.NotRequired):
        annotation = typing.get_args(annotation)[0]
    return annotation


def _sample(annotation: Any, depth: int) -> Any:
    """A value of ``annotation``: a union's first member, every field of an object (its
    required ones only past a few levels), a list of one."""
    annotation = _unwrapped(annotation)
    origin, arguments = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        return _sample(next(arm for arm in arguments if arm is not type(None)), depth)
    if origin is typing.Literal:
        return arguments[0]
    if is_typeddict(annotation):
        hints = typing.get_type_hints(annotation, include_extras=True)
        required = {key for key, hint in hints.items() if typing.get_origin(hint) is typing.Required}
        required |= set(annotation.__required_keys__) - {
            key for key, hint in hints.items() if typing.get_origin(hint) is typing.NotRequired
        }
        return {key: _sample(hint, depth + 1) for key, hint in hints.items() if key in required or depth < 4}
    if origin in _LISTS:
        return [_sample(arguments[0], depth + 1)] if arguments else []
    if origin in _MAPS:
        return {"k": "v"}
    return _SCALARS.get(annotation, "x")


def _variants(annotation: Any, depth: int = 0) -> Iterator[Any]:
    """One value per union member and literal reachable from ``annotation``."""
    annotation = _unwrapped(annotation)
    origin, arguments = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        for arm in arguments:
            if arm is not type(None):
                yield from _variants(arm, depth)
    elif origin is typing.Literal:
        yield from arguments
    elif is_typeddict(annotation) and depth < 7:
        base = _sample(annotation, depth)
        yield base
        for key, hint in typing.get_type_hints(annotation, include_extras=True).items():
            for value in itertools.islice(_variants(hint, depth + 1), 12):
                yield {**base, key: value}
    elif origin in _LISTS and arguments:
        for value in _variants(arguments[0], depth + 1):
            yield [value]
    else:
        yield _sample(annotation, depth)


def _cases() -> list[Any]:
    from anthropic.types import message_create_params as anthropic_params
    from openai.types.chat import completion_create_params as chat_params
    from openai.types.responses import response_create_params as responses_params

    user = {"role": "user", "content": "hi"}
    return [
        pytest.param(
            "openai-chat",
            chat_params.CompletionCreateParamsNonStreaming,
            {"model": "gpt-4o", "messages": [user]},
            ("messages", "tools", "tool_choice", "response_format", "audio", "prediction", "stream_options"),
            id="openai-chat",
        ),
        pytest.param(
            "anthropic",
            anthropic_params.MessageCreateParamsNonStreaming,
            {"model": "claude-sonnet-4-5", "max_tokens": 5, "messages": [user]},
            ("messages", "tools", "tool_choice", "system", "thinking", "metadata"),
            id="anthropic",
        ),
        pytest.param(
            "openai-responses",
            responses_params.ResponseCreateParamsNonStreaming,
            {"model": "gpt-4o", "input": "hi"},
            ("input", "tools", "tool_choice", "text", "reasoning"),
            id="openai-responses",
        ),
    ]


@pytest.mark.parametrize(("provider", "params", "base", "fields"), _cases())
def test_requests_built_from_the_sdk_types_are_read_and_convert(
    provider: str, params: Any, base: dict[str, Any], fields: tuple[str, ...]
) -> None:
    hints = typing.get_type_hints(params, include_extras=True)
    refused: list[str] = []
    read = 0
    for field in fields:
        for value in itertools.islice(_variants(hints[field], 1), 3000):
            body = {**base, field: value}
            try:
                request = chatcodec.decode_request(provider, body, strict=True)
            except chatcodec.ValidationError as error:
                rules = {detail["type"] for detail in error.errors()}
                if not rules <= ALLOWED:
                    refused.append(f"{field}: {error}")
                continue
            read += 1
            for target in TARGETS:
                chatcodec.encode_request(target, request, on_loss="ignore")
    assert refused == []
    assert read > 100
