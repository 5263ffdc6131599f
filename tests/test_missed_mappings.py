"""Fields two formats both have, mapped both ways (each fails before the fix).

Every encoded request is checked against the SDK types (``tests/sdk_oracle.py``), with the
documented compatible-server additions named in the test removed first.
"""

from __future__ import annotations

import copy
from typing import Any

import chatcodec
from chatcodec import Loss
from providers.anthropic.anthropic_support import assert_valid_request as assert_valid_anthropic
from providers.bedrock_converse.bedrock_support import PLACEHOLDER_MODEL, assert_valid_request, assert_valid_response
from providers.gemini.gemini_support import assert_valid_request as assert_valid_gemini
from providers.openai_chat.openai_chat_support import assert_request_matches_sdk
from providers.openai_responses.responses_support import assert_request_matches_sdk as assert_valid_responses

SIGNATURE = "CiQBcsjafE3q0uFk3CRrJ0W2qXzHn4YdB4vJYbXf0w=="


def _convert(source: str, target: str, body: dict[str, Any]) -> tuple[dict[str, Any], list[Loss]]:
    """``body`` decoded from ``source`` and written for ``target``, with its losses (but the
    ``required`` model a Gemini or Bedrock body, whose model is in the URL, has none of)."""
    losses: list[Loss] = []
    request = chatcodec.decode_request(source, body)
    encoded = chatcodec.encode_request(target, request, on_loss="ignore", losses=losses)
    return encoded, [loss for loss in losses if loss.kind != "required"]


def _without_extra_content(body: dict[str, Any]) -> dict[str, Any]:
    """``extra_content`` on a tool call is Gemini's OpenAI-compatible addition, not an SDK key."""
    stripped = copy.deepcopy(body)
    for message in stripped["messages"]:
        for call in message.get("tool_calls", []):
            call.pop("extra_content", None)
    return stripped


_OPENAI_WITH_SIGNATURE: dict[str, Any] = {
    "model": "gemini-3-pro-preview",
    "messages": [
        {"role": "user", "content": "Weather in Paris?"},
        {
            "role": "assistant",
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "weather", "arguments": '{"city":"Paris"}'},
                    "extra_content": {"google": {"thought_signature": SIGNATURE}},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
    ],
}

_GEMINI_WITH_SIGNATURE: dict[str, Any] = {
    "contents": [
        {"role": "user", "parts": [{"text": "Weather in Paris?"}]},
        {
            "role": "model",
            "parts": [
                {
                    "functionCall": {"id": "call_1", "name": "weather", "args": {"city": "Paris"}},
                    "thoughtSignature": SIGNATURE,
                }
            ],
        },
        {
            "role": "user",
            "parts": [{"functionResponse": {"id": "call_1", "name": "weather", "response": {"output": "sunny"}}}],
        },
    ]
}


def test_openai_compatible_thought_signature_reaches_gemini() -> None:
    body, losses = _convert("openai-chat", "gemini", _OPENAI_WITH_SIGNATURE)
    call_part = body["contents"][1]["parts"][0]
    assert call_part["thoughtSignature"] == SIGNATURE
    assert_valid_gemini(body)
    assert not [loss for loss in losses if "extra_content" in loss.what or "thought" in loss.what]


def test_gemini_thought_signature_reaches_the_gemini_endpoints_extra_content() -> None:
    losses: list[Loss] = []
    request = chatcodec.decode_request("gemini", _GEMINI_WITH_SIGNATURE)
    options = {"server": "gemini"}
    body = chatcodec.encode_request("openai-chat", request, on_loss="ignore", losses=losses, options=options)
    call = body["messages"][1]["tool_calls"][0]
    assert call["extra_content"] == {"google": {"thought_signature": SIGNATURE}}
    assert not [loss for loss in losses if "thought" in loss.what.lower()]
    assert_request_matches_sdk(_without_extra_content(body))


def test_gemini_thought_signature_is_not_sent_to_openai() -> None:
    """OpenAI refuses ``extra_content``: the default target gets no signature, reported."""
    body, losses = _convert("gemini", "openai-chat", _GEMINI_WITH_SIGNATURE)
    assert "extra_content" not in body["messages"][1]["tool_calls"][0]
    assert [(loss.kind, loss.what) for loss in losses if "thought" in loss.what.lower()] == [
        ("rule", "Gemini thought signature")
    ]
    assert_request_matches_sdk(body)


def test_openai_extra_content_round_trips_unchanged() -> None:
    extra: dict[str, Any] = {"google": {"thought_signature": SIGNATURE, "other": 1}, "vendor": True}
    source = copy.deepcopy(_OPENAI_WITH_SIGNATURE)
    source["messages"][1]["tool_calls"][0]["extra_content"] = extra
    body, losses = _convert("openai-chat", "openai-chat", source)
    assert body["messages"][1]["tool_calls"][0]["extra_content"] == extra
    assert losses == []


def test_strict_decoding_accepts_gemini_extra_content() -> None:
    request = chatcodec.decode_request("openai-chat", _OPENAI_WITH_SIGNATURE, strict=True)
    content = request.messages[1].content
    assert isinstance(content, list)
    assert content[0].provider_metadata == {"gemini": {"thoughtSignature": SIGNATURE}}


# --- Bedrock audio blocks ------------------------------------------------------------------

AUDIO = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA="


def _bedrock_audio(audio: dict[str, Any]) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": [{"text": "Transcribe this."}, {"audio": audio}]}]}


def test_openai_input_audio_becomes_a_bedrock_audio_block() -> None:
    source = {
        "model": "gpt-4o-audio-preview",
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "Transcribe this."},
                    {"type": "input_audio", "input_audio": {"data": AUDIO, "format": "mp3"}},
                ],
            }
        ],
    }
    body, losses = _convert("openai-chat", "bedrock-converse", source)
    assert body["messages"][0]["content"][1] == {"audio": {"format": "mp3", "source": {"bytes": AUDIO}}}
    assert losses == []
    assert_valid_request({**body, "modelId": PLACEHOLDER_MODEL})


def test_bedrock_audio_block_becomes_openai_input_audio() -> None:
    body, losses = _convert(
        "bedrock-converse", "openai-chat", _bedrock_audio({"format": "wav", "source": {"bytes": AUDIO}})
    )
    assert body["messages"][0]["content"][1] == {"type": "input_audio", "input_audio": {"data": AUDIO, "format": "wav"}}
    assert losses == []
    assert_request_matches_sdk({**body, "model": "gpt-4o-audio-preview"})


def test_bedrock_audio_blocks_round_trip_with_their_format_and_s3_location() -> None:
    for audio in (
        {"format": "mpeg", "source": {"bytes": AUDIO}},
        {"format": "flac", "source": {"s3Location": {"uri": "s3://bucket/clip.flac"}}},
    ):
        body, losses = _convert("bedrock-converse", "bedrock-converse", _bedrock_audio(audio))
        assert body["messages"][0]["content"][1] == {"audio": audio}
        assert losses == []
        assert_valid_request({**body, "modelId": PLACEHOLDER_MODEL})


# --- Bedrock outputConfig.effort -----------------------------------------------------------


def _bedrock_request(**fields: Any) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": [{"text": "Think hard."}]}], **fields}


def test_bedrock_output_config_effort_reaches_anthropic_and_openai() -> None:
    source = _bedrock_request(
        additionalModelRequestFields={"thinking": {"type": "adaptive"}}, outputConfig={"effort": "high"}
    )
    anthropic, losses = _convert("bedrock-converse", "anthropic", source)
    assert anthropic["output_config"] == {"effort": "high"}
    assert anthropic["thinking"] == {"type": "adaptive"}
    assert not [loss for loss in losses if "effort" in loss.path]
    assert_valid_anthropic({**anthropic, "model": "claude-opus-4-6", "max_tokens": 1024})
    openai, losses = _convert("bedrock-converse", "openai-chat", source)
    assert openai["reasoning_effort"] == "high"


def test_openai_reasoning_effort_becomes_bedrock_output_config_effort() -> None:
    source = {
        "model": "us.anthropic.claude-opus-4-6-v1",
        "reasoning_effort": "medium",
        "messages": [{"role": "user", "content": "Hi"}],
    }
    body, losses = _convert("openai-chat", "bedrock-converse", source)
    assert body["outputConfig"] == {"effort": "medium"}
    assert not [loss for loss in losses if "effort" in loss.path]
    assert_valid_request(body)


def test_bedrock_effort_round_trips_beside_a_text_format() -> None:
    schema = {"type": "json_schema", "structure": {"jsonSchema": {"name": "answer", "schema": '{"type":"object"}'}}}
    source = _bedrock_request(outputConfig={"effort": "max", "textFormat": schema})
    body, losses = _convert("bedrock-converse", "bedrock-converse", source)
    assert body["outputConfig"] == {"effort": "max", "textFormat": schema}
    assert losses == []
    assert_valid_request({**body, "modelId": PLACEHOLDER_MODEL})


# --- service tiers -------------------------------------------------------------------------


def test_openai_service_tier_becomes_bedrock_service_tier() -> None:
    source = {"model": "m", "service_tier": "flex", "messages": [{"role": "user", "content": "Hi"}]}
    body, losses = _convert("openai-chat", "bedrock-converse", source)
    assert body["serviceTier"] == {"type": "flex"}
    assert not [loss for loss in losses if "service_tier" in loss.what]
    assert_valid_request(body)


def test_bedrock_service_tier_becomes_openai_service_tier_both_apis() -> None:
    source = _bedrock_request(serviceTier={"type": "priority"})
    chat, losses = _convert("bedrock-converse", "openai-chat", source)
    assert chat["service_tier"] == "priority"
    assert not [loss for loss in losses if "serviceTier" in loss.what]
    assert_request_matches_sdk({**chat, "model": "gpt-5"})
    responses, losses = _convert("bedrock-converse", "openai-responses", source)
    assert responses["service_tier"] == "priority"
    assert not [loss for loss in losses if "serviceTier" in loss.what]
    assert_valid_responses({**responses, "model": "gpt-5"})


def test_a_tier_only_one_side_has_is_still_reported() -> None:
    chat, losses = _convert("bedrock-converse", "openai-chat", _bedrock_request(serviceTier={"type": "reserved"}))
    assert "service_tier" not in chat
    assert [(loss.path, loss.what) for loss in losses] == [("$.service_tier", "service tier 'reserved'")]
    source = {"model": "m", "service_tier": "scale", "messages": [{"role": "user", "content": "Hi"}]}
    body, losses = _convert("openai-chat", "bedrock-converse", source)
    assert "serviceTier" not in body
    assert [(loss.path, loss.what) for loss in losses] == [("$.service_tier", "service tier 'scale'")]


# --- OpenAI user -> Anthropic metadata.user_id ---------------------------------------------


def test_openai_user_becomes_anthropic_metadata_user_id() -> None:
    source = {
        "model": "claude-opus-4-6",
        "max_tokens": 100,
        "user": "user-42",
        "messages": [{"role": "user", "content": "Hi"}],
    }
    body, losses = _convert("openai-chat", "anthropic", source)
    assert body["metadata"] == {"user_id": "user-42"}
    assert not [loss for loss in losses if "user" in loss.what]
    assert_valid_anthropic(body)


def test_openai_metadata_is_not_copied_into_anthropic_metadata() -> None:
    source = {
        "model": "claude-opus-4-6",
        "max_completion_tokens": 100,
        "metadata": {"session": "abc"},
        "messages": [{"role": "user", "content": "Hi"}],
    }
    body, losses = _convert("openai-chat", "anthropic", source)
    assert "metadata" not in body
    assert [(loss.path, loss.kind) for loss in losses] == [("$.metadata.session", "metadata")]
    assert_valid_anthropic(body)


def test_anthropic_metadata_user_id_round_trips() -> None:
    source = {
        "model": "claude-opus-4-6",
        "max_tokens": 100,
        "metadata": {"user_id": "user-42"},
        "messages": [{"role": "user", "content": "Hi"}],
    }
    body, losses = _convert("anthropic", "anthropic", source)
    assert body["metadata"] == {"user_id": "user-42"}
    assert losses == []


def test_user_and_metadata_rules_hold_on_a_plain_request_conversion() -> None:
    """A plain request takes the writers' plain branches: the rules hold there too."""
    source = {
        "model": "claude-opus-4-6",
        "max_completion_tokens": 100,
        "user": "user-42",
        "metadata": {"session": "abc"},
        "messages": [{"role": "user", "content": "Hi"}],
    }
    losses: list[Loss] = []
    body = chatcodec.convert_request(source, source="openai-chat", target="anthropic", on_loss="ignore", losses=losses)
    assert body["metadata"] == {"user_id": "user-42"}
    assert [loss.path for loss in losses] == ["$.metadata.session"]


# --- Bedrock citationsContent answers ------------------------------------------------------

_CITED_ANSWER: dict[str, Any] = {
    "output": {
        "message": {
            "role": "assistant",
            "content": [
                {
                    "citationsContent": {
                        "content": [{"text": "The sky is blue."}],
                        "citations": [
                            {
                                "title": "Sky facts",
                                "sourceContent": [{"text": "The sky appears blue."}],
                                "location": {"documentChar": {"documentIndex": 0, "start": 0, "end": 21}},
                            }
                        ],
                    }
                }
            ],
        }
    },
    "stopReason": "end_turn",
    "usage": {"inputTokens": 10, "outputTokens": 5, "totalTokens": 15},
    "metrics": {"latencyMs": 100},
}


def _answer_text(target: str, body: dict[str, Any]) -> str:
    match target:
        case "openai-chat":
            return str(body["choices"][0]["message"]["content"])
        case "anthropic":
            return "".join(block["text"] for block in body["content"])
        case "gemini":
            return "".join(part["text"] for part in body["candidates"][0]["content"]["parts"])
        case _:
            return "".join(part["text"] for item in body["output"] for part in item["content"])


def test_a_bedrock_cited_answer_keeps_its_text_in_every_format() -> None:
    response = chatcodec.decode_response("bedrock-converse", _CITED_ANSWER)
    for target in ("openai-chat", "anthropic", "gemini", "openai-responses"):
        losses: list[Loss] = []
        body = chatcodec.encode_response(target, response, on_loss="ignore", losses=losses)
        assert _answer_text(target, body) == "The sky is blue.", target
        cited = [loss.what for loss in losses if "citations" in loss.what]
        assert cited == ["bedrock-converse data ['citations']"], target  # the citations stay Bedrock's


def test_a_bedrock_cited_answer_round_trips_and_streams_the_same_text() -> None:
    response = chatcodec.decode_response("bedrock-converse", _CITED_ANSWER)
    assert chatcodec.encode_response("bedrock-converse", response, on_loss="error") == _CITED_ANSWER
    assert_valid_response(_CITED_ANSWER)


# --- Gemini per-part mediaResolution <-> OpenAI image detail -------------------------------

PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="


def _openai_image(detail: str) -> dict[str, Any]:
    image = {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}", "detail": detail}}
    return {"model": "gemini-3-pro-preview", "messages": [{"role": "user", "content": [image]}]}


def _gemini_image(resolution: dict[str, Any]) -> dict[str, Any]:
    part = {"inlineData": {"mimeType": "image/png", "data": PNG}, "mediaResolution": resolution}
    return {"contents": [{"role": "user", "parts": [part]}]}


def test_openai_image_detail_becomes_gemini_part_media_resolution() -> None:
    for detail, level in (("low", "MEDIA_RESOLUTION_LOW"), ("high", "MEDIA_RESOLUTION_HIGH")):
        body, losses = _convert("openai-chat", "gemini", _openai_image(detail))
        assert body["contents"][0]["parts"][0]["mediaResolution"] == {"level": level}
        assert losses == []
        assert_valid_gemini(body)
    body, losses = _convert("openai-chat", "gemini", _openai_image("auto"))
    assert "mediaResolution" not in body["contents"][0]["parts"][0]
    assert losses == []


def test_gemini_part_media_resolution_becomes_openai_image_detail() -> None:
    body, losses = _convert("gemini", "openai-chat", _gemini_image({"level": "MEDIA_RESOLUTION_HIGH"}))
    assert body["messages"][0]["content"][0]["image_url"]["detail"] == "high"
    assert losses == []
    assert_request_matches_sdk({**body, "model": "gpt-5"})


def test_a_gemini_resolution_openai_lacks_is_kept_and_reported() -> None:
    source = _gemini_image({"level": "MEDIA_RESOLUTION_ULTRA_HIGH"})
    same, losses = _convert("gemini", "gemini", source)
    assert same == source
    assert losses == []
    _, losses = _convert("gemini", "openai-chat", source)
    assert [loss.what for loss in losses] == ["gemini data ['mediaResolution']"]
