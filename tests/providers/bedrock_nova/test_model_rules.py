"""Nova's per-model facts (``families/aws/nova_models.py``, applied by ``bedrock_nova/rules.py``),
each from AWS's Nova pages: Micro reads text only, the version 1 models take no
``reasoningConfig``, one video per request, Nova 2 Lite's image counts, 25 MB of media in the
request, tool choice alike for every model, and a model that is not Nova's (or none) is sent
the body unchanged."""

from __future__ import annotations

import base64
import copy
from typing import Any

import pytest

import chatcodec
from chatcodec._providers.families.aws.nova_models import MODELS, model_of

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
        ("apac.amazon.nova-lite-v1:0", "Nova Lite"),
        ("amazon.nova-2-lite-v1:0:256k", "Nova 2 Lite"),
        ("arn:aws:bedrock:us-east-1::foundation-model/amazon.nova-premier-v1:0", "Nova Premier"),
    ],
)
def test_a_nova_model_id_names_its_model(model: str, name: str) -> None:
    """Nova's model ids with their cross-region prefixes and ARNs (Nova 2's core-inference
    table: ``global.amazon.nova-2-lite-v1:0``, ``us.amazon.nova-2-lite-v1:0``,
    https://docs.aws.amazon.com/nova/latest/nova2-userguide/core-inference.html; the version 1
    ids ``amazon.nova-micro-v1:0`` ... ``amazon.nova-premier-v1:0``,
    https://docs.aws.amazon.com/nova/latest/userguide/using-converse-api.html)."""
    known = model_of(model)
    assert known is not None
    assert known.name == name


@pytest.mark.parametrize(
    "model", ["amazon.titan-text-express-v1", "anthropic.claude-sonnet-4-5", "nova-micro", "gpt-4o"]
)
def test_another_model_is_no_nova_model(model: str) -> None:
    """Titan is Amazon's but no Nova model; a bare ``nova-micro`` is no Bedrock id (every
    Bedrock id names its vendor: https://docs.aws.amazon.com/bedrock/latest/userguide/models-supported.html)."""
    assert model_of(model) is None


def test_the_documented_facts() -> None:
    """The Bedrock model cards (each model's ``source``); Converse's table of models and
    features (https://docs.aws.amazon.com/bedrock/latest/userguide/conversation-inference-supported-models-features.html:
    Micro has no document chat and no vision; Lite, Pro and Premier have both); Nova 2's media
    table (https://docs.aws.amazon.com/nova/latest/nova2-userguide/using-multimodal-models.html:
    Image 5 objects embedded, 1000 from S3; Video 1 object); the version 1 document guide
    (https://docs.aws.amazon.com/nova/latest/userguide/modalities-document.html: 5 documents
    from your computer, 1,000 from S3)."""
    table = {model.name: model for model in MODELS}
    assert table["Nova Micro"].media == frozenset()
    readers = ("Nova Lite", "Nova Pro", "Nova Premier", "Nova 2 Lite")
    assert all(table[name].media == {"image", "video", "document"} for name in readers)
    assert all((table[name].videos.inline, table[name].videos.s3) == (1, 1) for name in readers)
    assert all((table[name].documents.inline, table[name].documents.s3) == (5, 1000) for name in readers)
    assert [(model.name, model.images.inline, model.images.s3) for model in MODELS if model.images.inline] == [
        ("Nova 2 Lite", 5, 1000)
    ]
    assert [model.name for model in MODELS if model.reasoning] == ["Nova 2 Lite"]
    assert (table["Nova Micro"].context_tokens, table["Nova Lite"].context_tokens) == (128_000, 300_000)
    assert table["Nova Premier"].context_tokens == table["Nova 2 Lite"].context_tokens == 1_000_000
    assert all(model.source.startswith("https://docs.aws.amazon.com/") for model in MODELS)


def test_nova_micro_is_sent_no_image_or_video() -> None:
    """ "Because Amazon Nova Micro does not support images or videos as input, those parts of
    the request schema do not apply to Amazon Nova Micro"
    (https://docs.aws.amazon.com/nova/latest/userguide/complete-request-schema.html)."""
    body, losses = _encode(_request("us.amazon.nova-micro-v1:0"))
    assert body["messages"][0]["content"] == [{"text": "What is this?"}]
    reported = [loss for loss in losses if loss.kind == "rule"]
    assert [loss.path for loss in reported] == ["$.messages[0].content[1]", "$.messages[0].content[2]"]
    assert all("bedrock-nova.text_only" in loss.why and "Nova Micro" in loss.why for loss in reported)


def test_nova_micro_is_sent_no_image_in_a_tool_result() -> None:
    """The same for an image inside a ``toolResult``
    (https://docs.aws.amazon.com/nova/latest/userguide/complete-request-schema.html)."""
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
    """Lite, Pro and Nova 2 Lite read images and video (Converse's table of models: Vision
    yes, https://docs.aws.amazon.com/bedrock/latest/userguide/conversation-inference-supported-models-features.html;
    https://docs.aws.amazon.com/nova/latest/nova2-userguide/using-multimodal-models.html)."""
    body, losses = _encode(_request(model))
    assert [next(iter(block)) for block in body["messages"][0]["content"]] == ["text", "image", "video"]
    assert not [loss for loss in losses if loss.kind == "rule"]


@pytest.mark.parametrize("model", ["amazon.nova-micro-v1:0", "us.amazon.nova-lite-v1:0", "amazon.nova-premier-v1:0"])
def test_a_version_1_model_is_sent_no_reasoning_config(model: str) -> None:
    """Extended thinking is Nova 2 Lite's ("Amazon Nova 2 Lite supports extended thinking",
    https://docs.aws.amazon.com/nova/latest/nova2-userguide/reasoning-capabilities.html); the
    version 1 request schema has no ``reasoningConfig``
    (https://docs.aws.amazon.com/nova/latest/userguide/complete-request-schema.html)."""
    request = {"messages": [{"role": "user", "content": "hi"}], "model": model, "reasoning": {"effort": "high"}}
    body, losses = _encode(request)
    assert "reasoningConfig" not in body
    assert "reasoningConfig" not in body.get("inferenceConfig", {})
    assert [(loss.path, loss.kind) for loss in losses if "reasoning_config" in loss.why] == [
        ("$.reasoningConfig", "rule")
    ]


def test_disabled_reasoning_is_dropped_for_a_version_1_model_without_a_loss() -> None:
    """Reasoning disabled is every model's default ("Extended thinking OFF (default)",
    https://docs.aws.amazon.com/nova/latest/nova2-userguide/extended-thinking.html): dropping
    it changes nothing, so no loss."""
    request = {"messages": [{"role": "user", "content": "hi"}], "model": "amazon.nova-pro-v1:0"}
    request["reasoning"] = {"effort": "none"}
    body, losses = _encode(request)
    assert "reasoningConfig" not in body
    assert not [loss for loss in losses if loss.kind == "rule"]


def test_nova_2_lite_keeps_its_reasoning_config() -> None:
    """``reasoningConfig`` ``{"type": "enabled", "maxReasoningEffort": "medium"}``
    (https://docs.aws.amazon.com/nova/latest/nova2-userguide/extended-thinking.html)."""
    request = {"messages": [{"role": "user", "content": "hi"}], "model": "global.amazon.nova-2-lite-v1:0"}
    request["reasoning"] = {"effort": "medium"}
    body, losses = _encode(request)
    assert body["reasoningConfig"] == {"type": "enabled", "maxReasoningEffort": "medium"}
    assert not [loss for loss in losses if loss.kind == "rule"]


@pytest.mark.parametrize("model", [None, "my-fine-tune", "anthropic.claude-sonnet-4-5"])
def test_a_model_no_rule_names_gets_the_body_unchanged(model: str | None) -> None:
    """The permissive rule (docs/converting.md, API versions and model rules): a model id no
    family names gets no model rule."""
    request = _request(model, reasoning={"effort": "low"})
    body, losses = _encode(request)
    assert [next(iter(block)) for block in body["messages"][0]["content"]] == ["text", "image", "video"]
    assert body["reasoningConfig"]["maxReasoningEffort"] == "low"
    assert not [loss for loss in losses if loss.kind == "rule"]


def test_skip_rules_sends_micro_its_media_as_asked() -> None:
    """``skip_rules`` turns a rule off by name (docs/reference/rules.md): a proxy that knows
    better sends what the table says the model refuses."""
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
    """The guide's lowest temperature is 0.00001
    (https://docs.aws.amazon.com/nova/latest/nova2-userguide/request-response-schema.html);
    0 is sent as it is (``rules.py``: the ranges hold what is past 1)."""
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


@pytest.mark.parametrize(
    "model",
    [
        "amazon.nova-micro-v1:0",
        "us.amazon.nova-lite-v1:0",
        "eu.amazon.nova-pro-v1:0",
        "us.amazon.nova-premier-v1:0",
        "global.amazon.nova-2-lite-v1:0",
    ],
)
@pytest.mark.parametrize("choice", [{"type": "required"}, {"type": "tool", "name": "get_weather"}])
def test_every_nova_model_is_sent_a_forced_tool_choice(model: str, choice: object) -> None:
    """Tool choice is no model fact: "Amazon Nova models support the functionality of tool
    choice ... three supported parameter options for tool choice: tool, any, and auto"
    (https://docs.aws.amazon.com/nova/latest/userguide/tool-choice.html), Nova 2's tool guide
    the same for Nova 2 Lite
    (https://docs.aws.amazon.com/nova/latest/nova2-userguide/prompting-tools-function.html), and
    Converse's table of models gives Micro tool use
    (https://docs.aws.amazon.com/bedrock/latest/userguide/conversation-inference-supported-models-features.html).
    So ``any`` and ``tool`` reach every model unchanged."""
    tool = {"type": "function", "name": "get_weather", "parameters": {"type": "object", "properties": {}}}
    request = {"model": model, "messages": [{"role": "user", "content": "Weather?"}], "tools": [tool]}
    body, losses = _encode({**request, "tool_choice": choice})
    sent = body["toolConfig"]["toolChoice"]
    assert sent == ({"any": {}} if choice == {"type": "required"} else {"tool": {"name": "get_weather"}})
    assert not [loss for loss in losses if loss.kind == "rule"]


def _image(index: int, *, s3: bool = False) -> dict[str, Any]:
    if s3:
        return {
            "type": "image",
            "source": {"type": "url", "url": f"s3://bucket/{index}.png", "media_type": "image/png"},
        }
    return IMAGE


def test_nova_2_lite_is_sent_five_images_as_bytes() -> None:
    """Nova 2's media table: Image, embedded in the request, 25 MB, 5 objects; from an S3 URI,
    2 GB total, 1000 objects (https://docs.aws.amazon.com/nova/latest/nova2-userguide/using-multimodal-models.html).
    A sixth image as bytes is not sent, reported; images from S3 are counted apart."""
    content: list[Any] = [{"type": "text", "text": "Compare."}, *(_image(i) for i in range(6))]
    content += [_image(i, s3=True) for i in range(3)]
    body, losses = _encode({"model": "us.amazon.nova-2-lite-v1:0", "messages": [{"role": "user", "content": content}]})
    sent = body["messages"][0]["content"]
    assert sum("bytes" in block.get("image", {}).get("source", {}) for block in sent) == 5
    assert sum("s3Location" in block.get("image", {}).get("source", {}) for block in sent) == 3
    reported = [loss for loss in losses if loss.kind == "rule"]
    assert [loss.path for loss in reported] == ["$.messages[0].content[6]"]
    assert "bedrock-nova.image_count" in reported[0].why
    assert "Nova 2 Lite takes 5 images" in reported[0].why


def test_a_version_1_model_has_no_image_count() -> None:
    """The version 1 image guide gives a payload, not a count: "Amazon Nova models allow you to
    include multiple images in the payload with a total payload limit of 25 MB"
    (https://docs.aws.amazon.com/nova/latest/userguide/modalities-image.html): six small
    images reach Nova Pro."""
    content: list[Any] = [{"type": "text", "text": "Compare."}, *(_image(i) for i in range(6))]
    body, losses = _encode({"model": "us.amazon.nova-pro-v1:0", "messages": [{"role": "user", "content": content}]})
    assert len(body["messages"][0]["content"]) == 7
    assert not [loss for loss in losses if loss.kind == "rule"]


def test_media_past_25_mb_in_the_request_is_not_sent() -> None:
    """ "Amazon Nova models allow you to include multiple images in the payload with a total
    payload limit of 25 MB. However, you can specify an Amazon S3 URI ..."
    (https://docs.aws.amazon.com/nova/latest/userguide/modalities-image.html; Nova 2's table:
    25 MB embedded, https://docs.aws.amazon.com/nova/latest/nova2-userguide/using-multimodal-models.html).
    Counted as the base64 text sent ("ensure that you account for the base64 overhead"): the
    image that takes the request past 25 MB is not sent, the ones before it are, and one from
    S3 counts nothing."""
    big = base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(9 * 1024 * 1024)).decode()  # 12 MiB as base64
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": big}}
    content: list[Any] = [{"type": "text", "text": "Compare."}, image, image, image, _image(0, s3=True)]
    body, losses = _encode({"model": "us.amazon.nova-lite-v1:0", "messages": [{"role": "user", "content": content}]})
    sources = [block["image"]["source"] for block in body["messages"][0]["content"] if "image" in block]
    assert [next(iter(source)) for source in sources] == ["bytes", "bytes", "s3Location"]
    reported = [loss for loss in losses if loss.kind == "rule"]
    assert [loss.path for loss in reported] == ["$.messages[0].content[3]"]
    assert "bedrock-nova.inline_media_size" in reported[0].why
    assert "25 MB" in reported[0].why


def test_strict_refuses_what_a_model_rule_would_not_send() -> None:
    """A rule's change is a loss like any other: under ``on_loss="error"`` the request is
    refused, not sent without its image (Micro, the complete request schema:
    https://docs.aws.amazon.com/nova/latest/userguide/complete-request-schema.html)."""
    with pytest.raises(chatcodec.LossError, match="text_only"):
        chatcodec.encode_request("bedrock-nova", _request("amazon.nova-micro-v1:0"), on_loss="error")


@pytest.mark.parametrize(
    "model",
    [
        "amazon.nova-2-pro-v1:0",
        "us.amazon.nova-2-pro-preview-20251202-v1:0",
        "us.amazon.nova-2-omni-v1:0",
        "arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3d4e5f6",
    ],
)
def test_a_nova_id_the_guides_do_not_give_gets_the_permissive_rule(model: str) -> None:
    """Nova 2 Pro and Nova 2 Omni are previews whose ids AWS's Nova 2 guide does not list
    (its model table names Nova 2 Lite and Nova 2 Sonic:
    https://docs.aws.amazon.com/nova/latest/nova2-userguide/core-inference.html), and an
    application inference profile's ARN names no model: no model rule applies."""
    assert model_of(model) is None
    request = _request(model, reasoning={"effort": "low"})
    request["messages"][0]["content"].append(VIDEO)
    body, losses = _encode(request)
    assert len(body["messages"][0]["content"]) == 4
    assert "reasoningConfig" in body
    assert not [loss for loss in losses if loss.kind == "rule"]


def test_a_video_from_s3_after_one_as_bytes_is_not_sent() -> None:
    """One video per request, wherever its bytes are: "Amazon Nova models allow you to include
    a single video in the payload"
    (https://docs.aws.amazon.com/nova/latest/userguide/prompting-video-understanding.html)."""
    inline = {"type": "video", "source": {"type": "base64", "media_type": "video/mp4", "data": PNG}}
    request = {"model": "us.amazon.nova-pro-v1:0", "messages": [{"role": "user", "content": [inline, VIDEO]}]}
    body, losses = _encode(request)
    assert [next(iter(block["video"]["source"])) for block in body["messages"][0]["content"]] == ["bytes"]
    reported = [loss for loss in losses if loss.kind == "rule"]
    assert [loss.path for loss in reported] == ["$.messages[0].content[1]"]
    assert "Nova Pro takes one video per request" in reported[0].why
