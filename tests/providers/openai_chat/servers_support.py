"""What the server tests share: a conversion for a named server, a check of a body
against what that server documents (its own fields, never another server's), and a
server's answer as it dumps it."""

from __future__ import annotations

from typing import Any

from openai.types.chat.completion_create_params import (
    CompletionCreateParamsNonStreaming,
    CompletionCreateParamsStreaming,
)

import chatcodec
from chatcodec import Loss
from chatcodec._providers.openai_chat.servers import SERVERS, Server
from chatcodec._providers.openai_chat.servers.fitting import REASONING_FIELDS, request_fields
from chatcodec._strict.fields import describe, schema_for, unknown_fields
from sdk_oracle import check


def convert(
    body: dict[str, Any], source: str = "openai-chat", extra_fields: dict[str, Any] | None = None, **options: Any
) -> tuple[dict[str, Any], list[Loss]]:
    """``body`` converted to ``openai-chat`` with ``options`` (and wire ``extra_fields``), and every loss."""
    losses: list[Loss] = []
    settings: Any = options or None
    converted = chatcodec.convert_request(
        body,
        source=source,
        target="openai-chat",
        on_loss="ignore",
        losses=losses,
        options=settings,
        extra_fields=extra_fields,
    )
    return converted, losses


def rule_losses(losses: list[Loss], server: str) -> list[tuple[str, str]]:
    """``(path, what)`` of each rule loss naming ``server``."""
    return [(loss.path, loss.what) for loss in losses if loss.kind == "rule" and f"server {server} " in loss.why]


def problems_for(server: Server, body: dict[str, Any]) -> list[str]:
    """Why ``server`` would refuse ``body``: for OpenAI, whatever the SDK's request type
    refuses; for another server, a field outside the SDK's and its own documented ones, a
    field it refuses, a part type it does not take, reasoning where it reads none."""
    if server.name == "openai":
        expected = CompletionCreateParamsStreaming if body.get("stream") is True else CompletionCreateParamsNonStreaming
        return check(body, expected).problems
    schema = schema_for("openai-chat", server.name)
    assert schema is not None
    walked = unknown_fields(schema, body, schema.roots["request"])
    # a part type the server documents beyond the SDK (Mistral's ``thinking``) is its own
    walked = [problem for problem in walked if not (problem.rule == "unknown_type" and problem.value in server.parts)]
    found = describe(walked).splitlines()
    taken = request_fields(server)
    found += [f"$.{key}: not a field {server.name} takes" for key in body if key not in taken]
    refused = {refusal.field.removeprefix("messages[].") for refusal in server.refuses}
    for index, message in enumerate(body.get("messages", [])):
        found += [f"$.messages[{index}].{key}: refused" for key in message if key in refused]
        found += [
            f"$.messages[{index}].{key}: not read back"
            for key in message
            if key in REASONING_FIELDS and key != server.reasoning_field
        ]
        parts = message.get("content") if isinstance(message.get("content"), list) else []
        found += [
            f"$.messages[{index}].content: {part.get('type')} part"
            for part in parts
            if part.get("type") not in server.parts | {"text", "refusal"}
        ]
    return found


def assert_valid_for(name: str, body: dict[str, Any]) -> None:
    problems = problems_for(SERVERS[name], body)
    assert not problems, f"{name} would refuse the body:\n" + "\n".join(problems)


VLLM_ANSWER: dict[str, Any] = {
    "id": "chatcmpl-9a1f0c",
    "object": "chat.completion",
    "created": 1760000000,
    "model": "Qwen/Qwen3-8B",
    "choices": [
        {
            "index": 0,
            "message": {
                "role": "assistant",
                "content": "Paris.",
                "refusal": None,
                "annotations": None,
                "audio": None,
                "function_call": None,
                "tool_calls": [],
                "reasoning": None,
                "reasoning_content": None,
            },
            "logprobs": None,
            "finish_reason": "stop",
            "stop_reason": None,
            "token_ids": None,
        }
    ],
    "service_tier": None,
    "system_fingerprint": None,
    "usage": {"prompt_tokens": 12, "total_tokens": 15, "completion_tokens": 3, "prompt_tokens_details": None},
    "prompt_logprobs": None,
    "prompt_token_ids": None,
    "kv_transfer_params": None,
}
"""vLLM's ``ChatCompletionResponse.model_dump()`` of a plain answer: every field, ``null``
included (``vllm/entrypoints/openai/chat_completion/protocol.py``, the usage of
``engine/protocol.py``; vLLM v0.11)."""
