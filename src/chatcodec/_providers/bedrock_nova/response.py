"""The one reader and the one writer of Nova's InvokeModel answer:
``{output: {message}, stopReason, usage}`` (one answer, no id, no model: the model is in the
URL, the ``x-amzn-RequestId`` header names the call). The Runtime's error body
(``{"message"}``) is raised as a :class:`~chatcodec.ProviderAPIError`, never read as an answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.bedrock_nova.markers import BODY, KIT, PROVIDER
from chatcodec._providers.bedrock_nova.messages import encode_message
from chatcodec._providers.bedrock_nova.usage import decode_usage, encode_usage
from chatcodec._providers.bedrock_nova.wire import adapters, is_error_body, validated
from chatcodec._providers.families.aws.context import BedrockContext
from chatcodec._providers.families.aws.finish_reason import (
    decode_finish_reason,
    encode_finish_reason,
    encode_unknown_finish,
)
from chatcodec._providers.families.aws.parts import ASSISTANT_KINDS, decode_blocks
from chatcodec._providers.families.aws.tool_ids import name_empty_calls
from chatcodec.codec_kit import leftovers, restore_fields, rule_error
from chatcodec.contract import DecodeContext, EncodeContext, Steps

_MAPPED = ("output", "stopReason", "usage")


def decode_response(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read an InvokeModel answer as canonical response data (one choice)."""
    del context
    if is_error_body(payload):
        error = validated(adapters().error, payload, "Nova error")
        raise KIT.api_error(error["message"], None, payload)
    response = validated(adapters().response, payload, "Nova response")
    output = response["output"]
    message = output["message"]
    canonical_message = KIT.attach(
        {
            "role": "assistant",
            "content": name_empty_calls(decode_blocks(BODY, message["content"], ASSISTANT_KINDS), PROVIDER),
        },
        leftovers(message, ("role", "content")),
    )
    if message["role"] != "assistant":
        raise rule_error(
            "Nova response", ("output", "message", "role"), "role", "an answer is the assistant's", message
        )
    choice: dict[str, Any] = {"index": 0, "message": canonical_message}
    bag = leftovers(response, _MAPPED)
    reason = decode_finish_reason(response.get("stopReason"), bag)  # a word added later: recorded in bag
    if reason is not None:
        choice["finish_reason"] = reason
    rest = leftovers(output, ("message",))
    if rest:
        KIT.attach(choice, {"output": rest})
    canonical: dict[str, Any] = {"choices": [choice]}
    if "usage" in response:
        canonical["usage"] = decode_usage(response["usage"])
    return KIT.attach(canonical, bag)


def encode_response(response: Mapping[str, Any], shared: EncodeContext) -> dict[str, Any]:
    """Write canonical response data as an InvokeModel answer: its first choice (another is a loss)."""
    context = shared.extend(BedrockContext, body=BODY)
    losses = context.losses
    bag = KIT.claim(losses, response.get("provider_metadata"), ())
    wire = restore_fields(bag)
    for key in ("id", "model"):
        if response.get(key) is not None:
            losses.add((key,), key, "Nova's answer has no such field (the model is in the URL)", "metadata")
    choices = response["choices"]
    for index in range(1, len(choices)):
        losses.add(("choices", index), f"answer {index}", "Nova answers hold one message")
    choice: Mapping[str, Any] = choices[0] if choices else {"index": 0, "message": {"role": "assistant", "content": []}}
    choice_bag = KIT.claim(losses, choice.get("provider_metadata"), ("choices", 0))
    message = encode_message(choice["message"], context, ("choices", 0, "message"))
    wire["output"] = {**restore_fields(choice_bag).get("output", {}), "message": message}
    at: Steps = ("choices", 0, "finish_reason")
    word = encode_finish_reason(choice.get("finish_reason"), bag, context, at)
    wire["stopReason"] = word if word is not None else encode_unknown_finish(losses, at, BODY.response)
    if response.get("usage") is not None:
        wire["usage"] = encode_usage(response["usage"], context, ("usage",))
    return {key: wire[key] for key in (*_MAPPED, *wire) if key in wire}
