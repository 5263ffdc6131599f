"""The oracle for Nova bodies (test dependency only): botocore's Converse shapes.

botocore has no model of an InvokeModel body (``body`` is a blob), but Nova's user guide
says the request schema "is nearly identical between the Invoke API and Converse API",
differing in how bytes are carried and in ``inferenceConfig``'s extra members
(https://docs.aws.amazon.com/nova/latest/nova2-userguide/request-response-schema.html).
So the blocks Nova shares with Converse (``system``, ``messages``, ``toolConfig``; the
answer's ``output``; the stream's block events) are checked against botocore's
``bedrock-runtime`` model, and Nova's own members against the user guide's lists here:
``inferenceConfig`` in either spelling, ``reasoningConfig``, ``schemaVersion``, the usage's
cache counts, the stream's invocation metrics.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from providers.bedrock_converse.bedrock_support import (
    CONVERSE,
    PLACEHOLDER_MODEL,
    STREAM,
    assert_valid,
)

INFERENCE = frozenset(
    {"maxTokens", "max_new_tokens", "temperature", "topP", "top_p", "topK", "top_k", "stopSequences", "reasoningConfig"}
)
"""``inferenceConfig``'s members in the user guide (both spellings)."""
REQUEST = frozenset({"schemaVersion", "system", "messages", "inferenceConfig", "toolConfig", "reasoningConfig"})
USAGE = frozenset(
    {"inputTokens", "outputTokens", "totalTokens", "cacheReadInputTokenCount", "cacheWriteInputTokenCount"}
)
REASONING = {"type": frozenset({"enabled", "disabled"}), "maxReasoningEffort": frozenset({"low", "medium", "high"})}


def _reasoning(config: object) -> None:
    assert isinstance(config, dict), f"reasoningConfig is an object: {config!r}"
    for key, value in config.items():
        assert key in REASONING, f"reasoningConfig {key} is not Nova's"
        assert value in REASONING[key], f"reasoningConfig {key}={value!r} is not Nova's"


def assert_valid_request(body: dict[str, Any]) -> None:
    """Nova's top level and ``inferenceConfig`` by the user guide, the blocks by botocore."""
    assert set(body) <= REQUEST, f"not a Nova request member: {sorted(set(body) - REQUEST)}"
    assert body.get("schemaVersion", "messages-v1") == "messages-v1"
    config = body.get("inferenceConfig", {})
    assert set(config) <= INFERENCE, f"not an inferenceConfig member: {sorted(set(config) - INFERENCE)}"
    for holder in (body, config):
        if "reasoningConfig" in holder:
            _reasoning(holder["reasoningConfig"])
    shared = {key: body[key] for key in ("system", "messages", "toolConfig") if key in body}
    if "system" in shared:
        shared["system"] = _apart(shared["system"])
    if "messages" in shared:
        shared["messages"] = [{**turn, "content": _apart(turn["content"])} for turn in shared["messages"]]
    assert_valid({"modelId": PLACEHOLDER_MODEL, **shared}, CONVERSE.input_shape, "request")


def _apart(blocks: list[Any]) -> list[Any]:
    """Nova's text blocks holding their ``cachePoint`` (``{"text", "cachePoint"}``, AWS's Nova
    InvokeModel prompt-caching example) as Converse's two one-member blocks, for botocore."""
    converse: list[Any] = []
    for block in blocks:
        if isinstance(block, dict) and block.keys() == {"text", "cachePoint"}:
            converse += [{"text": block["text"]}, {"cachePoint": block["cachePoint"]}]
        else:
            converse.append(block)
    return converse


def _usage(usage: object) -> dict[str, Any]:
    assert isinstance(usage, dict), f"usage is an object: {usage!r}"
    assert set(usage) <= USAGE, f"not Nova's usage: {usage!r}"
    counts = {key: usage.get(key, 0) for key in ("inputTokens", "outputTokens", "totalTokens")}
    assert all(isinstance(count, int) and count >= 0 for count in usage.values())
    return counts


def assert_valid_response(body: dict[str, Any]) -> None:
    """``output`` by botocore's ``ConverseOutput``, ``usage`` and ``stopReason`` by the guide."""
    assert set(body) <= {"output", "stopReason", "usage"}, f"not a Nova answer member: {sorted(body)}"
    converse = {"output": body["output"], "stopReason": body.get("stopReason", "end_turn")}
    converse |= {"usage": _usage(body.get("usage", {})), "metrics": {"latencyMs": 0}}
    assert_valid(converse, CONVERSE.output_shape, "response")


def assert_valid_stream(events: Iterable[dict[str, Any]]) -> None:
    """Each chunk's event is one ConverseStream member (its usage Nova's), with at most the
    invocation metrics beside it."""
    for index, event in enumerate(events):
        assert isinstance(event, dict), f"event {index} is not an object: {event!r}"
        members = {key: value for key, value in event.items() if key != "amazon-bedrock-invocationMetrics"}
        assert len(members) == 1, f"event {index} is not one member: {event!r}"
        ((kind, payload),) = members.items()
        assert kind in STREAM.members, f"event {index}: {kind!r} is no stream event"
        if kind == "metadata":
            assert set(payload) <= {"usage", "metrics", "trace"}, f"event {index}: {sorted(payload)}"
            payload = {"usage": _usage(payload.get("usage", {})), "metrics": {"latencyMs": 0}}
        assert_valid(payload, STREAM.members[kind], f"event {index} ({kind})")
