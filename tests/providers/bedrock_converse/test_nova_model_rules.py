"""Converse given a Nova model id applies Nova's model facts (``families/aws/nova_models.py``),
the same rules Nova's InvokeModel body applies (``families/aws/nova_rules.py``), with the
documents only Converse carries: a fact of the model is one copy, whichever body serves it."""

from __future__ import annotations

import base64
from typing import Any

import pytest

import chatcodec
from chatcodec._registry import rules_for
from chatcodec.contract import TargetRule

PDF = base64.b64encode(b"%PDF-1.7\n").decode()
PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n").decode()
IMAGE = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}}
ASKED = {"type": "text", "text": "Read these."}
"""The question beside documents (Converse refuses documents with no text in their message)."""
VIDEO = {"type": "video", "source": {"type": "url", "url": "s3://bucket/clip.mp4", "media_type": "video/mp4"}}


def _document(index: int, data: str = PDF, media_type: str = "application/pdf") -> dict[str, Any]:
    return {
        "type": "document",
        "filename": f"report{index}",
        "source": {"type": "base64", "media_type": media_type, "data": data},
    }


def _encode(model: str, content: list[Any], **extra: Any) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    request = {"model": model, "messages": [{"role": "user", "content": content}], **extra}
    body = chatcodec.encode_request("bedrock-converse", request, on_loss="ignore", losses=losses)
    return body, [loss for loss in losses if loss.kind == "rule"]


@pytest.mark.parametrize(
    "model",
    [
        "us.amazon.nova-micro-v1:0",
        "arn:aws:bedrock:eu-west-1:123456789012:inference-profile/eu.amazon.nova-micro-v1:0",
    ],
)
def test_nova_micro_on_converse_is_sent_no_image_video_or_document(model: str) -> None:
    """Converse's table of models and features: Amazon Nova Micro, Document chat No, Vision
    No (https://docs.aws.amazon.com/bedrock/latest/userguide/conversation-inference-supported-models-features.html);
    the request schema: "Amazon Nova Micro does not support images or videos as input"
    (https://docs.aws.amazon.com/nova/latest/userguide/complete-request-schema.html)."""
    body, reported = _encode(
        "us.amazon.nova-micro-v1:0", [{"type": "text", "text": "Read."}, IMAGE, VIDEO, _document(0)]
    )
    assert body["messages"][0]["content"] == [{"text": "Read."}]
    assert [loss.path for loss in reported] == [f"$.messages[0].content[{index}]" for index in (1, 2, 3)]
    assert all("bedrock-converse.text_only" in loss.why and "Nova Micro" in loss.why for loss in reported)


def test_nova_pro_on_converse_is_sent_five_documents_as_bytes() -> None:
    """ "You can include up to 5 documents from your computer or up to 1000 documents from
    Amazon S3" (https://docs.aws.amazon.com/nova/latest/userguide/modalities-document.html;
    Bedrock's restrictions: "You can include up to 5 documents per request",
    https://docs.aws.amazon.com/bedrock/latest/userguide/inference-api-restrictions.html)."""
    content = [{"type": "text", "text": "Compare."}, *(_document(index) for index in range(6))]
    body, reported = _encode("us.amazon.nova-pro-v1:0", content)
    assert sum("document" in block for block in body["messages"][0]["content"]) == 5
    assert [loss.path for loss in reported] == ["$.messages[0].content[6]"]
    assert "bedrock-converse.document_count" in reported[0].why


def test_a_text_document_past_4_5_mb_is_not_sent_and_a_pdf_is() -> None:
    """ "Any text document you include (CSV, XLS, XLSX, HTML, TXT, MD, or DOC) must not exceed
    4.5 MB per document"; PDF and DOCX are held to the 25 MB of the request
    (https://docs.aws.amazon.com/nova/latest/userguide/modalities-document.html; "For Nova
    models, the 4.5 MB document size restriction doesn't apply to PDF and DOCX formats",
    https://docs.aws.amazon.com/bedrock/latest/userguide/inference-api-restrictions.html)."""
    big = base64.b64encode(bytes(5 * 1024 * 1024)).decode()
    content = [_document(0, big, "text/plain"), _document(1, big), ASKED]  # Converse wants text beside documents
    body, reported = _encode("us.amazon.nova-lite-v1:0", content)
    assert [block["document"]["format"] for block in body["messages"][0]["content"] if "document" in block] == ["pdf"]
    assert [loss.path for loss in reported] == ["$.messages[0].content[0]"]
    assert "4.5 MB" in reported[0].why


@pytest.mark.parametrize("model", ["amazon.nova-lite-v1:0", "us.amazon.nova-premier-v1:0"])
def test_a_version_1_model_on_converse_is_sent_no_reasoning_config(model: str) -> None:
    """Extended thinking is Nova 2 Lite's ("Amazon Nova 2 Lite supports extended thinking",
    https://docs.aws.amazon.com/nova/latest/nova2-userguide/reasoning-capabilities.html; the
    version 1 request schema has no ``reasoningConfig``,
    https://docs.aws.amazon.com/nova/latest/userguide/complete-request-schema.html). On
    Converse it rides in ``additionalModelRequestFields``; the object goes when it held only
    that, and a ``topK`` beside it stays."""
    fields = {"reasoningConfig": {"type": "enabled", "maxReasoningEffort": "low"}}
    bag = {"bedrock-converse": {"additionalModelRequestFields": fields}}
    body, reported = _encode(model, [{"type": "text", "text": "hi"}], provider_options=bag)
    assert "additionalModelRequestFields" not in body
    assert [loss.path for loss in reported] == ["$.additionalModelRequestFields.reasoningConfig"]
    inner = {"inferenceConfig": {"topK": 20, "reasoningConfig": {"type": "enabled"}}}
    bag = {"bedrock-converse": {"additionalModelRequestFields": inner}}
    body, reported = _encode(model, [{"type": "text", "text": "hi"}], provider_options=bag)
    assert body["additionalModelRequestFields"] == {"inferenceConfig": {"topK": 20}}
    assert [loss.path for loss in reported] == ["$.additionalModelRequestFields.inferenceConfig.reasoningConfig"]


def test_nova_2_lite_on_converse_keeps_its_reasoning_config_and_media() -> None:
    """Nova 2 Lite reads images, video and documents and takes ``reasoningConfig``
    (https://docs.aws.amazon.com/nova/latest/nova2-userguide/using-multimodal-models.html,
    https://docs.aws.amazon.com/nova/latest/nova2-userguide/extended-thinking.html)."""
    fields = {"reasoningConfig": {"type": "enabled", "maxReasoningEffort": "high"}}
    bag = {"bedrock-converse": {"additionalModelRequestFields": fields}}
    content = [{"type": "text", "text": "Read."}, IMAGE, VIDEO, _document(0)]
    body, reported = _encode("global.amazon.nova-2-lite-v1:0", content, provider_options=bag)
    assert body["additionalModelRequestFields"] == fields
    assert [next(iter(block)) for block in body["messages"][0]["content"]] == ["text", "image", "video", "document"]
    assert reported == []


def test_another_vendor_on_converse_gets_none_of_nova_s_rules() -> None:
    """A Claude id is no Nova model: six documents and two videos are sent as given (the
    permissive rule; Claude's own limits are Claude's rules)."""
    content = [*(_document(index) for index in range(6)), VIDEO, VIDEO, ASKED]
    body, reported = _encode("us.anthropic.claude-sonnet-4-5-20250929-v1:0", content)
    assert len(body["messages"][0]["content"]) == 9
    assert reported == []


def _table(provider: str) -> dict[str, TargetRule]:
    table = rules_for(provider)
    assert table is not None
    return {item.name: item for item in table.rules}


@pytest.mark.parametrize("rule", ["text_only", "one_video", "image_count", "inline_media_size", "reasoning_config"])
def test_both_bodies_apply_one_rule_of_the_model(rule: str) -> None:
    """One copy of each fact: Converse's rule and Nova's have one source and one edit for the
    media rules (``families/aws/nova_rules.py``), and the same model family for all."""
    converse, nova = _table("bedrock-converse"), _table("bedrock-nova")
    assert [family.name for family in converse[rule].families or ()] == [
        family.name for family in nova[rule].families or ()
    ]
    if rule in ("text_only", "inline_media_size"):
        assert converse[rule].edit is nova[rule].edit


@pytest.mark.parametrize(("effort", "sent"), [("medium", "medium"), ("xhigh", "high")])
def test_an_openai_effort_reaches_nova_2_lite_on_converse_as_its_reasoning_config(effort: str, sent: str) -> None:
    """Nova reads reasoning as ``reasoningConfig`` in ``additionalModelRequestFields`` (Nova 2's
    Converse example: ``additionalModelRequestFields={"reasoningConfig": {"type": "enabled",
    "maxReasoningEffort": "low"}}``, efforts low, medium, high:
    https://docs.aws.amazon.com/nova/latest/nova2-userguide/extended-thinking.html), not as
    Claude's ``thinking`` or ``outputConfig.effort``, which Converse writes for other models."""
    model = "us.amazon.nova-2-lite-v1:0"  # a gateway routes an OpenAI client to Nova by this name
    body = {"model": model, "reasoning_effort": effort, "messages": [{"role": "user", "content": "Plan it."}]}
    losses: list[chatcodec.Loss] = []
    wire = chatcodec.convert_request(
        body, source="openai-chat", target="bedrock-converse", on_loss="ignore", losses=losses
    )
    assert wire["additionalModelRequestFields"] == {"reasoningConfig": {"type": "enabled", "maxReasoningEffort": sent}}
    assert "outputConfig" not in wire
    assert [loss.kind for loss in losses if "reasoning" in loss.path] == ([] if effort == sent else ["setting"])


def test_an_openai_effort_is_not_sent_to_nova_pro_on_converse() -> None:
    """A version 1 model has no extended thinking (its request schema has no
    ``reasoningConfig``: https://docs.aws.amazon.com/nova/latest/userguide/complete-request-schema.html):
    nothing about reasoning is sent, reported by the ``reasoning_config`` rule."""
    model = "us.amazon.nova-pro-v1:0"
    body = {"model": model, "reasoning_effort": "high", "messages": [{"role": "user", "content": "Plan it."}]}
    losses: list[chatcodec.Loss] = []
    wire = chatcodec.convert_request(
        body, source="openai-chat", target="bedrock-converse", on_loss="ignore", losses=losses
    )
    assert "additionalModelRequestFields" not in wire
    assert "outputConfig" not in wire
    reported = [loss for loss in losses if loss.kind == "rule"]
    assert [loss.path for loss in reported] == ["$.additionalModelRequestFields.reasoningConfig"]


def test_claude_s_spellings_kept_in_a_bag_are_not_sent_to_nova_pro() -> None:
    """A ``thinking`` object canonical could not read rides in the bag and is written back;
    Nova Pro takes no thinking of any spelling (as above): not sent, reported, and the
    ``additionalModelRequestFields`` that held only it goes too."""
    thinking = {"type": "enabled", "budget_tokens": 2048, "display": "omitted"}
    bag = {"bedrock-converse": {"additionalModelRequestFields": {"thinking": thinking}}}
    body, reported = _encode("us.amazon.nova-pro-v1:0", [{"type": "text", "text": "hi"}], provider_options=bag)
    assert "additionalModelRequestFields" not in body
    assert [loss.path for loss in reported] == ["$.additionalModelRequestFields.thinking"]


@pytest.mark.parametrize(
    "model", ["us.amazon.nova-2-lite-v1:0", "arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/x1"]
)
def test_a_converse_body_s_nova_reasoning_config_is_read_and_comes_back_as_it_came(model: str) -> None:
    """Nova's ``reasoningConfig`` on Converse (``additionalModelRequestFields``, Nova 2's
    example: https://docs.aws.amazon.com/nova/latest/nova2-userguide/extended-thinking.html)
    is canonical reasoning when the ``modelId`` names a Nova model, so it reaches Nova's
    InvokeModel body (top-level ``reasoningConfig``); the same-format trip is exact for a Nova
    id and for an id naming no model (there it rides in the bag, as before)."""
    config = {"type": "enabled", "maxReasoningEffort": "high"}
    fields = {"inferenceConfig": {"topK": 5}, "reasoningConfig": config}
    body = {"modelId": model, "messages": [{"role": "user", "content": [{"text": "hi"}]}]}
    body["additionalModelRequestFields"] = fields
    losses: list[chatcodec.Loss] = []
    assert chatcodec.convert_request(body, source="bedrock-converse", target="bedrock-converse", losses=losses) == body
    assert losses == []
    nova = chatcodec.convert_request(body, source="bedrock-converse", target="bedrock-nova", on_loss="ignore")
    assert nova.get("reasoningConfig") == (config if "nova" in model else None)
