"""Nova's per-model facts (``bedrock_nova/rules.py``), each from AWS's Nova pages: Micro
reads text only, the version 1 models take no ``reasoningConfig``, and a model that is not
Nova's (or none) is sent the body unchanged."""

from __future__ import annotations

import base64
import copy
from typing import Any

import pytest

import chatcodec
from chatcodec._providers.bedrock_nova.rules import MODELS, model_of

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n").decode()
IMAGE = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}}
VIDEO = {"type": "video", "source": {"type": "url", "url": "s3://bucket/clip.mp4", "media_type": "video/mp4"}}


def _encode(request: dict[str, Any], **options: Any) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request("bedrock-nova", request, on_loss="ignore", losses=losses, options=options or None)
    return body, losses


def _request(model: str | None, **settings: Any) -> dict[str, Any]:
    user = {"role": "user", "content": [{"type": "text", "text": "What is this?"}, IMAGE, VIDEO]}
    return {"messages": [user], **({"model": model} if model else {}), **settings}


@pytest.mark.parametrize(
    ("model", "name"),
    [
        ("amazon.nova-micro-v1:0", "Nova Micro"),
        ("us.amazon.nova-lite-v1:0", "Nova Lite"),
        ("eu.amazon.nova-pro-v1:0", "Nova Pro"),
        ("us.amazon.nova-premier-v1:0", "Nova Premier"),
        ("global.amazon.nova-2-lite-v1:0", "Nova 2 Lite"),
        ("arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.amazon.nova-micro-v1:0", "Nova Micro"),
        ("AMAZON.NOVA-PRO-V1:0", "Nova Pro"),
    ],
)
def test_a_nova_model_id_names_its_model(model: str, name: str) -> None:
    known = model_of(model)
    assert known is not None
    assert known.name == name


@pytest.mark.parametrize(
    "model", ["amazon.titan-text-express-v1", "anthropic.claude-sonnet-4-5", "nova-micro", "gpt-4o"]
)
def test_another_model_is_no_nova_model(model: str) -> None:
    assert model_of(model) is None


def test_the_documented_facts() -> None:
    table = {model.name: model for model in MODELS}
    assert table["Nova Micro"].media == frozenset()
    assert all(table[name].media == {"image", "video"} for name in ("Nova Lite", "Nova Pro", "Nova Premier"))
    assert [model.name for model in MODELS if model.reasoning] == ["Nova 2 Lite"]
    assert (table["Nova Micro"].context_tokens, table["Nova Lite"].context_tokens) == (128_000, 300_000)
    assert table["Nova Premier"].context_tokens == table["Nova 2 Lite"].context_tokens == 1_000_000
    assert all(model.source.startswith("https://docs.aws.amazon.com/") for model in MODELS)


def test_nova_micro_is_sent_no_image_or_video() -> None:
    body, losses = _encode(_request("us.amazon.nova-micro-v1:0"))
    assert body["messages"][0]["content"] == [{"text": "What is this?"}]
    reported = [loss for loss in losses if loss.kind == "rule"]
    assert [loss.path for loss in reported] == ["$.messages[0].content[1]", "$.messages[0].content[2]"]
    assert all("bedrock-nova.text_only" in loss.why and "Nova Micro" in loss.why for loss in reported)


def test_nova_micro_is_sent_no_image_in_a_tool_result() -> None:
    call = {"type": "tool_use", "id": "call_1", "name": "snap", "arguments": "{}"}
    result = {"type": "tool_result", "tool_use_id": "call_1", "content": [{"type": "text", "text": "ok"}, IMAGE]}
    request = {
        "model": "amazon.nova-micro-v1:0",
        "messages": [
            {"role": "user", "content": "Take a picture."},
            {"role": "assistant", "content": [call]},
            {"role": "user", "content": [result]},
        ],
    }
    body, losses = _encode(request)
    assert body["messages"][2]["content"][0]["toolResult"]["content"] == [{"text": "ok"}]
    assert [loss.path for loss in losses if loss.kind == "rule"] == ["$.messages[2].content[0].toolResult.content[1]"]


@pytest.mark.parametrize(
    "model", ["amazon.nova-lite-v1:0", "us.amazon.nova-pro-v1:0", "global.amazon.nova-2-lite-v1:0"]
)
def test_a_multimodal_nova_model_is_sent_its_media(model: str) -> None:
    body, losses = _encode(_request(model))
    assert [next(iter(block)) for block in body["messages"][0]["content"]] == ["text", "image", "video"]
    assert not [loss for loss in losses if loss.kind == "rule"]


@pytest.mark.parametrize("model", ["amazon.nova-micro-v1:0", "us.amazon.nova-lite-v1:0", "amazon.nova-premier-v1:0"])
def test_a_version_1_model_is_sent_no_reasoning_config(model: str) -> None:
    request = {"messages": [{"role": "user", "content": "hi"}], "model": model, "reasoning": {"effort": "high"}}
    body, losses = _encode(request)
    assert "reasoningConfig" not in body
    assert "reasoningConfig" not in body.get("inferenceConfig", {})
    assert [(loss.path, loss.kind) for loss in losses if "reasoning_config" in loss.why] == [
        ("$.reasoningConfig", "rule")
    ]


def test_disabled_reasoning_is_dropped_for_a_version_1_model_without_a_loss() -> None:
    request = {"messages": [{"role": "user", "content": "hi"}], "model": "amazon.nova-pro-v1:0"}
    request["reasoning"] = {"effort": "none"}
    body, losses = _encode(request)
    assert "reasoningConfig" not in body
    assert not [loss for loss in losses if loss.kind == "rule"]


def test_nova_2_lite_keeps_its_reasoning_config() -> None:
    request = {"messages": [{"role": "user", "content": "hi"}], "model": "global.amazon.nova-2-lite-v1:0"}
    request["reasoning"] = {"effort": "medium"}
    body, losses = _encode(request)
    assert body["reasoningConfig"] == {"type": "enabled", "maxReasoningEffort": "medium"}
    assert not [loss for loss in losses if loss.kind == "rule"]


@pytest.mark.parametrize("model", [None, "my-fine-tune", "anthropic.claude-sonnet-4-5"])
def test_a_model_no_rule_names_gets_the_body_unchanged(model: str | None) -> None:
    request = _request(model, reasoning={"effort": "low"})
    body, losses = _encode(request)
    assert [next(iter(block)) for block in body["messages"][0]["content"]] == ["text", "image", "video"]
    assert body["reasoningConfig"]["maxReasoningEffort"] == "low"
    assert not [loss for loss in losses if loss.kind == "rule"]


def test_skip_rules_sends_micro_its_media_as_asked() -> None:
    request = _request("amazon.nova-micro-v1:0")
    body, _ = _encode(request, skip_rules=["text_only"])
    assert len(body["messages"][0]["content"]) == 3


@pytest.mark.parametrize("body_name", ["camel", "snake"])
def test_a_sampling_value_past_the_guide_s_range_is_sent_as_its_bound(body_name: str) -> None:
    """The user guide's request schema: ``temperature`` up to 1, ``topP`` 0 to 1 (in either
    spelling of ``inferenceConfig``). A Nova body past them is the caller's error, sent as it
    came (issue 61: the same format's round trip stays exact); a request from elsewhere (a
    canonical one here) past them is sent the bound, reported."""
    config = (
        {"temperature": 1.5, "topP": 2, "maxTokens": 10} if body_name == "camel" else {"top_p": 2, "max_new_tokens": 10}
    )
    wire = {"messages": [{"role": "user", "content": [{"text": "hi"}]}], "inferenceConfig": config}
    request = chatcodec.decode_request("bedrock-nova", copy.deepcopy(wire))
    losses: list[chatcodec.Loss] = []
    assert chatcodec.encode_request("bedrock-nova", request, on_loss="ignore", losses=losses) == wire
    assert [loss for loss in losses if "sampling_range" in loss.why] == []
    canonical = request.model_copy(update={"provider_options": None})
    body = chatcodec.encode_request("bedrock-nova", canonical, on_loss="ignore", losses=losses)
    assert body["inferenceConfig"]["topP"] == 1.0
    ranged = sorted(loss.path for loss in losses if "sampling_range" in loss.why)
    assert ranged == [
        f"$.inferenceConfig.{key}" for key in (["temperature", "topP"] if body_name == "camel" else ["topP"])
    ]
    if body_name == "camel":
        assert body["inferenceConfig"]["temperature"] == 1.0


def test_a_temperature_of_0_is_sent_as_it_is() -> None:
    body, losses = _encode(_request("us.amazon.nova-pro-v1:0", temperature=0.0, top_p=0.5))
    assert body["inferenceConfig"]["temperature"] == 0.0
    assert not [loss for loss in losses if "sampling_range" in loss.why]


def test_a_model_that_reads_video_is_sent_the_first_video_only() -> None:
    """Nova's video guide: "Amazon Nova models allow you to include a single video in the
    payload" (prompting-video-understanding.html); Nova 2's table: Video, 1 object."""
    second = {"type": "video", "source": {"type": "url", "url": "s3://bucket/other.mp4", "media_type": "video/mp4"}}
    request = _request("us.amazon.nova-lite-v1:0")
    request["messages"][0]["content"].append(second)
    body, losses = _encode(request)
    videos = [
        block["video"]["source"]["s3Location"]["uri"] for block in body["messages"][0]["content"] if "video" in block
    ]
    assert videos == ["s3://bucket/clip.mp4"]
    assert [(loss.path, loss.kind) for loss in losses] == [("$.messages[0].content[3]", "rule")]
    alone, quiet = _encode(_request("us.amazon.nova-lite-v1:0"))
    assert sum("video" in block for block in alone["messages"][0]["content"]) == 1
    assert quiet == []
