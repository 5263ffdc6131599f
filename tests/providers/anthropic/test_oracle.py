"""The SDK oracle is strict enough to trust: it looks inside lists and rejects extra keys."""

from __future__ import annotations

import copy
from typing import Any

from anthropic.types import ImageBlockParam
from anthropic.types.message_create_params import MessageCreateParamsNonStreaming

import chatcodec
from providers.anthropic.anthropic_support import encode_request, load_json
from sdk_oracle import check


def _encoded_fixture() -> dict[str, Any]:
    payload = load_json("request", "tool_result_text_image_base64.json")
    return encode_request(chatcodec.decode_request("anthropic", payload))[0]


def test_the_oracle_accepts_the_encoded_fixture() -> None:
    assert check(_encoded_fixture(), MessageCreateParamsNonStreaming).ok


def test_the_oracle_catches_an_extra_key_nested_inside_a_message() -> None:
    body = copy.deepcopy(_encoded_fixture())
    result = body["messages"][2]["content"][0]
    result["content"][1]["source"]["detail"] = "high"
    report = check(body, MessageCreateParamsNonStreaming)
    assert not report.ok
    # A union reports its shortest failing branch (``content``'s ``str``); the block says where.
    assert report.problems[0].startswith("$.messages[2].content")
    detail = check(result["content"][1], ImageBlockParam).problems
    assert detail == ["$.source.detail: not a field of Base64ImageSourceParam"]


def test_the_oracle_catches_a_wrong_type_deep_in_a_list() -> None:
    body = copy.deepcopy(_encoded_fixture())
    body["messages"][1]["content"][1]["input"] = "{}"
    assert not check(body, MessageCreateParamsNonStreaming).ok
