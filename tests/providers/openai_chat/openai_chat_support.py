"""Shared helpers for the openai-chat tests: fixtures, loss-collecting encoders, SDK oracles.

The request oracle is ``tests/sdk_oracle.py``: it walks a payload against the SDK's request
TypedDicts, looking inside every ``Iterable`` list and refusing keys the SDK does not
declare. Compatible-server extensions (``reasoning_content``, ``reasoning``,
``reasoning_details`` on assistant messages, Mistral ``thinking`` content parts) are not in
the SDK types, so :func:`assert_request_matches_sdk` removes exactly those before checking
and leaves everything else to the oracle.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from openai import ContentFilterFinishReasonError, LengthFinishReasonError
from openai.lib.streaming.chat import ChatCompletionStreamState
from openai.types.chat import ChatCompletion, ChatCompletionChunk
from openai.types.chat.completion_create_params import (
    CompletionCreateParamsNonStreaming,
    CompletionCreateParamsStreaming,
)

import chatcodec
from chatcodec import ChatRequest, ChatResponse, Loss
from sdk_oracle import assert_matches

FORMAT = "openai-chat"
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / FORMAT

REASONING_EXTENSIONS = ("reasoning_content", "reasoning", "reasoning_details")


def fixture_names(kind: str, suffix: str = ".json") -> list[str]:
    """File names (without suffix) of the copied fixtures of one kind."""
    return sorted(path.stem for path in (FIXTURES / kind).glob(f"*{suffix}"))


def load_json(kind: str, name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((FIXTURES / kind / f"{name}.json").read_text(encoding="utf-8"))
    return loaded


def load_stream(name: str) -> str:
    return (FIXTURES / "stream" / f"{name}.sse").read_text(encoding="utf-8")


def encode_request(request: ChatRequest | dict[str, Any], options: Any = None) -> tuple[dict[str, Any], list[Loss]]:
    """The body and its losses, but the ``required`` one a request without a model gets
    (``tests/providers/test_target_rules.py`` tests it): most of these
    cases leave the model out to stay short."""
    losses: list[Loss] = []
    body = chatcodec.encode_request(FORMAT, request, on_loss="ignore", losses=losses, options=options)
    return body, [loss for loss in losses if loss.kind != "required"]


def encode_response(response: ChatResponse | dict[str, Any], options: Any = None) -> tuple[dict[str, Any], list[Loss]]:
    losses: list[Loss] = []
    return chatcodec.encode_response(FORMAT, response, on_loss="ignore", losses=losses, options=options), losses


def encode_events(
    events: list[chatcodec.AnyStreamEvent], options: Any = None
) -> tuple[list[dict[str, Any]], list[Loss]]:
    losses: list[Loss] = []
    return list(chatcodec.encode_stream(FORMAT, events, on_loss="ignore", losses=losses, options=options)), losses


def without_extensions(payload: dict[str, Any]) -> dict[str, Any]:
    """A copy of a request without the compatible-server reasoning extensions."""
    stripped = copy.deepcopy(payload)
    for message in stripped.get("messages", []):
        if message.get("role") != "assistant":
            continue
        for key in REASONING_EXTENSIONS:
            message.pop(key, None)
        if isinstance(message.get("content"), list):
            message["content"] = [part for part in message["content"] if part.get("type") != "thinking"]
    return stripped


def assert_request_matches_sdk(payload: dict[str, Any]) -> None:
    """The SDK request type (streaming or not) accepts ``payload``, extensions removed."""
    expected = CompletionCreateParamsStreaming if payload.get("stream") is True else CompletionCreateParamsNonStreaming
    assert_matches(without_extensions(payload), expected)


def assert_response_matches_sdk(payload: dict[str, Any]) -> None:
    ChatCompletion.model_validate(payload)


def assert_chunks_match_sdk(chunks: list[dict[str, Any]], *, fold: bool = True) -> None:
    """Every chunk is the SDK's ``ChatCompletionChunk``; a custom tool call's fragments,
    which the SDK's chunk types do not have yet (openai/openai-openapi#576), are checked
    against the message's ``ChatCompletionMessageCustomToolCall`` shape and taken out."""
    for chunk in chunks:
        if "error" not in chunk:
            ChatCompletionChunk.model_validate(_without_custom_fragments(chunk))
    if fold:  # chatcodec's chunks; litellm's own (no index on thinking_blocks) would not fold
        assert_sdk_stream_helper_folds(chunks)


def assert_sdk_stream_helper_folds(chunks: list[dict[str, Any]]) -> None:
    """The chunks fold in the SDK's own stream accumulation (``ChatCompletionStreamState``,
    what ``client.chat.completions.stream()`` runs): it merges every list in a delta by
    its entries' ``index`` and raises ``RuntimeError: Expected list delta entry to have an
    `index` key`` on one without. Mid-stream error chunks end the fold, as they end the
    SDK's stream. Not folded, for the helper's own limits: custom tool calls (its chunk
    types lack them, openai/openai-openapi#576) and a choice other than the first (its first snapshot
    takes them only in index order)."""
    choices = {choice.get("index") for chunk in chunks for choice in chunk.get("choices") or []}
    calls = [call for chunk in chunks for choice in chunk.get("choices") or [] for call in _calls(choice)]
    if choices - {0} or any("custom" in call for call in calls):
        return
    state: ChatCompletionStreamState[Any] = ChatCompletionStreamState()
    folded = False
    try:
        for chunk in chunks:
            if "error" in chunk:
                break
            list(state.handle_chunk(ChatCompletionChunk.construct(**chunk)))
            folded = True
        if folded:
            state.get_final_completion()
    except (LengthFinishReasonError, ContentFilterFinishReasonError):
        pass  # what the helper raises by design on these finish reasons, once it has folded the chunk


def _calls(choice: dict[str, Any]) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = (choice.get("delta") or {}).get("tool_calls") or []
    return calls


_CUSTOM_FRAGMENT_KEYS = {"index", "id", "type", "custom"}


def _without_custom_fragments(chunk: dict[str, Any]) -> dict[str, Any]:
    choices = []
    for choice in chunk.get("choices") or []:
        calls = (choice.get("delta") or {}).get("tool_calls")
        if not calls:
            choices.append(choice)
            continue
        custom = [call for call in calls if "custom" in call]
        for call in custom:
            assert set(call) <= _CUSTOM_FRAGMENT_KEYS, call
            assert call.get("type", "custom") == "custom", call
            assert isinstance(call["custom"].get("input", ""), str), call
        functions = [call for call in calls if "custom" not in call]
        delta = (
            {**choice["delta"], "tool_calls": functions}
            if functions
            else {key: value for key, value in choice["delta"].items() if key != "tool_calls"}
        )
        choices.append({**choice, "delta": delta})
    return {**chunk, "choices": choices}
